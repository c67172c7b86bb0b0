#include "bench/kernel_traits.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>
#include <set>

namespace cv::bench {
namespace {

struct Name {
  Trait trait;
  const char* word;
  const char* words;
};
constexpr Name kNames[] = {
    {Trait::Shared, "shared", "uses __shared__ memory"},
    {Trait::TileLoop, "tile_loop", "loops over tiles with __syncthreads() in the loop"},
    {Trait::BlockTree, "block_tree", "sums in a halving tree with __syncthreads()"},
    {Trait::WarpShuffle, "warp_shuffle", "uses warp shuffles"},
    {Trait::Atomics, "atomics", "uses atomics"},
    {Trait::GridStride, "grid_stride", "has a grid-stride loop"},
    {Trait::TwoD, "2d_grid", "indexes a 2D grid (blockIdx.y)"},
};

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

size_t skip_space(const std::string& s, size_t i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

struct Ident {
  size_t at;
  std::string_view name;
};

// Every identifier of the blanked text, once, left to right: everything below
// is a linear pass or a binary search over these (a hostile file of 256 KiB
// must not cost seconds, nor a regex's recursion).
std::vector<Ident> idents_of(const std::string& s) {
  std::vector<Ident> v;
  for (size_t i = 0; i < s.size();) {
    if ((std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_') && (i == 0 || !ident_char(s[i - 1]))) {
      size_t j = i;
      while (j < s.size() && ident_char(s[j])) ++j;
      v.push_back({i, std::string_view(s).substr(i, j - i)});
      i = j;
    } else {
      ++i;
    }
  }
  return v;
}

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends(std::string_view s, std::string_view p) { return s.size() >= p.size() && s.substr(s.size() - p.size()) == p; }
bool called(const std::string& s, const Ident& id) {
  const size_t k = skip_space(s, id.at + id.name.size());
  return k < s.size() && s[k] == '(';
}

// The matching close of every '(' and '{' (one pass with a stack); npos when unmatched.
std::vector<size_t> closes_of(const std::string& s) {
  std::vector<size_t> close(s.size(), std::string::npos), stack;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(' || s[i] == '{') stack.push_back(i);
    if ((s[i] == ')' || s[i] == '}') && !stack.empty() && s[stack.back()] == (s[i] == ')' ? '(' : '{')) {
      close[stack.back()] = i;
      stack.pop_back();
    }
  }
  return close;
}

// Whether any of the sorted positions lies in [from, to).
bool any_in(const std::vector<size_t>& at, size_t from, size_t to) {
  auto it = std::lower_bound(at.begin(), at.end(), from);
  return it != at.end() && *it < to;
}

// Where a halving or doubling step is written: ">>=", "<<=", "/= 2", "*= 2", ">> 1", "<< 1", "/ 2".
std::vector<size_t> halvings_of(const std::string& s) {
  std::vector<size_t> v;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    const char a = s[i], b = s[i + 1];
    const bool shift = (a == '>' || a == '<') && b == a;
    if (shift && i + 2 < s.size() && s[i + 2] == '=') {
      v.push_back(i);
      continue;
    }
    const size_t op_len = shift ? 2 : (a == '/' || a == '*') && b == '=' ? 2 : a == '/' ? 1 : 0;
    if (op_len == 0 || (a == '/' && b == '/')) continue;
    const size_t k = skip_space(s, i + op_len);
    const char want = shift ? '1' : '2';
    if (k < s.size() && s[k] == want && (k + 1 >= s.size() || !ident_char(s[k + 1]))) v.push_back(i);
  }
  return v;
}

constexpr size_t kMaxStatement = 512;  // a stride's assignment is one short statement

// Identifiers assigned from a statement mentioning the grid's size
// ("stride = blockDim.x * gridDim.x;"), by the statement's first plain '='.
std::set<std::string> grid_strides(const std::string& s, const std::vector<Ident>& ids) {
  std::set<std::string> names;
  for (const Ident& id : ids) {
    if (id.name != "gridDim" && id.name != "grid_threads") continue;
    // The statement's start: the last ';' before it, looked for at most kMaxStatement back.
    const size_t floor = id.at > kMaxStatement ? id.at - kMaxStatement : 0;
    size_t start = id.at;
    while (start > floor && s[start - 1] != ';') --start;
    for (size_t k = start; k < id.at; ++k) {
      if (s[k] != '=' || (k + 1 < s.size() && s[k + 1] == '=')) continue;
      if (k > 0 && std::string_view("=<>!+-*/%&|^").find(s[k - 1]) != std::string_view::npos) continue;
      size_t e = k;
      while (e > start && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
      size_t b = e;
      while (b > start && ident_char(s[b - 1])) --b;
      if (b < e) names.insert(s.substr(b, e - b));
      break;
    }
  }
  return names;
}

int line_at(const std::vector<size_t>& newlines, size_t offset) {
  return 1 + static_cast<int>(std::lower_bound(newlines.begin(), newlines.end(), offset) - newlines.begin());
}

constexpr size_t kMaxLoops = 4096;  // beyond this many, later loops are not looked at

}  // namespace

const char* to_string(Trait t) {
  for (const Name& n : kNames)
    if (n.trait == t) return n.word;
  return "?";
}

std::string describe(Trait t) {
  for (const Name& n : kNames)
    if (n.trait == t) return n.words;
  return "?";
}

std::vector<Trait> all_traits() {
  std::vector<Trait> v;
  for (const Name& n : kNames) v.push_back(n.trait);
  return v;
}

std::vector<std::string> trait_names(TraitSet s) {
  std::vector<std::string> v;
  for (const Name& n : kNames)
    if (has(s, n.trait)) v.push_back(n.word);
  return v;
}

int KernelTraits::line_of(Trait t) const {
  for (const TraitSeen& s : seen)
    if (s.trait == t) return s.line;
  return 0;
}

std::string code_only(std::string_view src) {
  std::string s(src);
  enum { Code, Line, Block, Str, Chr } st = Code;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i], next = i + 1 < s.size() ? s[i + 1] : '\0';
    const auto blank = [&](size_t k) { if (s[k] != '\n') s[k] = ' '; };
    switch (st) {
      case Code:
        if (c == '/' && next == '/') { st = Line; blank(i); }
        else if (c == '/' && next == '*') { st = Block; blank(i); blank(++i); }
        else if (c == '"') st = Str;
        else if (c == '\'') st = Chr;
        break;
      case Line:
        if (c == '\n') st = Code; else blank(i);
        break;
      case Block:
        if (c == '*' && next == '/') { blank(i); blank(++i); st = Code; } else blank(i);
        break;
      case Str:
      case Chr:
        if (c == '\\' && next) { blank(i); blank(++i); }
        else if (c == (st == Str ? '"' : '\'')) st = Code;
        else blank(i);
        break;
    }
  }
  return s;
}

namespace {

// A loop's extent: `for`/`while` (header in parentheses, then a body in
// braces or up to ';'), `do` (a body in braces). The step is the header's
// third clause, or the body when there is none (while, do).
struct LoopSpan {
  size_t at = 0, head_from = 0, head_to = 0, step_from = 0, step_to = 0, body_from = 0, body_to = 0;
};

std::optional<LoopSpan> loop_at(const std::string& s, const std::vector<size_t>& close, const Ident& id) {
  LoopSpan l;
  l.at = id.at;
  size_t k = skip_space(s, id.at + id.name.size());
  if (id.name != "do") {
    if (k >= s.size() || s[k] != '(' || close[k] == std::string::npos) return std::nullopt;
    l.head_from = k + 1;
    l.head_to = close[k];
    k = skip_space(s, close[k] + 1);
  }
  if (k >= s.size()) return std::nullopt;
  l.body_from = k;
  if (s[k] == '{')
    l.body_to = close[k] == std::string::npos ? s.size() : close[k] + 1;
  else
    l.body_to = std::min(s.size(), s.find(';', k) == std::string::npos ? s.size() : s.find(';', k) + 1);
  // The step: a for header's part after its second ';' (at the header's own depth).
  l.step_from = l.body_from, l.step_to = l.body_to;
  if (id.name == "for") {
    int semis = 0;
    for (size_t i = l.head_from; i < l.head_to; ++i) {
      if (s[i] == '(' && close[i] != std::string::npos && close[i] < l.head_to) i = close[i];
      else if (s[i] == ';' && ++semis == 2) {
        l.step_from = i + 1;
        l.step_to = l.head_to;
        break;
      }
    }
  }
  return l;
}

}  // namespace

KernelTraits classify_kernel(std::string_view source) {
  const std::string s = code_only(source);
  const std::vector<Ident> ids = idents_of(s);
  std::vector<size_t> newlines, syncs;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] == '\n') newlines.push_back(i);
  KernelTraits k;
  const auto note = [&](Trait t, size_t offset) {
    if (has(k.set, t)) return;
    k.set |= static_cast<unsigned>(t);
    k.seen.push_back({t, line_at(newlines, offset)});
  };
  for (const Ident& id : ids) {
    const std::string_view n = id.name;
    if (n == "__shared__") note(Trait::Shared, id.at);
    if ((starts(n, "__shfl") || (starts(n, "__reduce_") && ends(n, "_sync"))) && called(s, id))
      note(Trait::WarpShuffle, id.at);
    // atomicAdd, atomicCAS, ..., and the prelude's atomic_add
    if (n.size() > 6 && starts(n, "atomic") && (std::isupper(static_cast<unsigned char>(n[6])) || n[6] == '_') &&
        called(s, id))
      note(Trait::Atomics, id.at);
    if (starts(n, "__syncthreads") && called(s, id)) syncs.push_back(id.at);
    if (n == "blockIdx" || n == "gridDim") {  // a 2D grid: threadIdx.y alone is often a flattened block
      size_t d = skip_space(s, id.at + n.size());
      if (d < s.size() && s[d] == '.') {
        d = skip_space(s, d + 1);
        if (d < s.size() && (s[d] == 'y' || s[d] == 'z') && (d + 1 >= s.size() || !ident_char(s[d + 1])))
          note(Trait::TwoD, id.at);
      }
    }
  }
  const std::vector<size_t> close = closes_of(s);
  const std::vector<size_t> halvings = halvings_of(s);
  const std::set<std::string> strides = grid_strides(s, ids);
  std::vector<size_t> grid_words;  // where the grid's size or a stride made from it is named
  for (const Ident& id : ids)
    if (id.name == "gridDim" || id.name == "grid_threads" || strides.count(std::string(id.name))) grid_words.push_back(id.at);
  size_t loops = 0;
  for (const Ident& id : ids) {
    if (id.name != "for" && id.name != "while" && id.name != "do") continue;
    if (++loops > kMaxLoops) break;
    const std::optional<LoopSpan> l = loop_at(s, close, id);
    if (!l) continue;
    const bool barrier = any_in(syncs, l->body_from, l->body_to);
    if (barrier && any_in(halvings, l->step_from, l->step_to)) note(Trait::BlockTree, l->at);
    else if (barrier) note(Trait::TileLoop, l->at);
    if (any_in(grid_words, l->step_from, l->step_to)) note(Trait::GridStride, l->at);
  }
  // In the order of all_traits(), for stable words and JSON.
  std::sort(k.seen.begin(), k.seen.end(), [](const TraitSeen& a, const TraitSeen& b) {
    return static_cast<unsigned>(a.trait) < static_cast<unsigned>(b.trait);
  });
  return k;
}

}  // namespace cv::bench

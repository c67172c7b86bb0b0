#include "widgets/code_syntax.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace cv::code {

namespace {

// The tables: what a student writes in a CUDA C++ kernel and in the app's prelude.
constexpr const char* kKeywords[] = {
    "alignas", "alignof", "auto", "break", "case", "catch", "class", "const", "consteval",
    "constexpr", "const_cast", "continue", "decltype", "default", "delete", "do", "dynamic_cast",
    "else", "enum", "explicit", "extern", "false", "for", "friend", "goto", "if", "inline",
    "mutable", "namespace", "new", "noexcept", "nullptr", "operator", "private", "protected",
    "public", "register", "reinterpret_cast", "return", "sizeof", "static", "static_assert",
    "static_cast", "struct", "switch", "template", "this", "throw", "true", "try", "typedef",
    "typename", "union", "using", "virtual", "volatile", "while",
    // CUDA's qualifiers and attributes.
    "__global__", "__device__", "__host__", "__shared__", "__constant__", "__managed__",
    "__restrict__", "__forceinline__", "__noinline__", "__launch_bounds__", "__align__",
    "__grid_constant__", "__inline__"};

constexpr const char* kTypes[] = {
    "void", "bool", "char", "short", "int", "long", "float", "double", "signed", "unsigned",
    "wchar_t", "char8_t", "char16_t", "char32_t", "size_t", "ptrdiff_t", "int8_t", "int16_t",
    "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "uintptr_t",
    "intptr_t", "dim3", "half", "__half", "__half2", "__nv_bfloat16", "cudaError_t"};

// CUDA's vector types: float2, uint4, longlong3, ... (the base names times 1..4).
constexpr const char* kVectorBases[] = {"char",  "uchar",    "short",     "ushort", "int",
                                        "uint",  "long",     "ulong",     "longlong",
                                        "ulonglong", "float", "double"};

constexpr const char* kBuiltins[] = {
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "__syncthreads",
    "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__syncwarp",
    "__threadfence", "__threadfence_block", "__threadfence_system", "__shfl_sync",
    "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync",
    "__all_sync", "__activemask", "__match_any_sync", "__reduce_add_sync", "__popc",
    "__popcll", "__clz", "__clzll", "__ffs", "__ffsll", "__brev", "__ldg", "__trap",
    "__nanosleep", "clock", "clock64", "atomicAdd", "atomicSub", "atomicExch", "atomicMin",
    "atomicMax", "atomicInc", "atomicDec", "atomicCAS", "atomicAnd", "atomicOr", "atomicXor",
    "__fdividef", "__expf", "__logf", "__sinf", "__cosf", "__powf", "__saturatef", "sqrtf",
    "rsqrtf", "sqrt", "rsqrt", "fmaf", "fma", "expf", "exp", "logf", "log", "sinf", "cosf",
    "sincosf", "tanf", "powf", "pow", "fabsf", "fabs", "fminf", "fmaxf", "floorf", "ceilf",
    "roundf", "truncf", "min", "max", "abs", "printf", "assert", "make_float2",
    "make_float3", "make_float4", "make_int2", "make_int3", "make_int4", "make_uint2",
    "make_uint3", "make_uint4"};

// The app's prelude (app/usercode/prelude): every name after `cv::` is one too.
constexpr const char* kPrelude[] = {
    "cv",        "Span",          "Params",        "Grid",        "Frame",
    "Particle",  "Ids",           "global_index",  "grid_threads", "sample_inside",
    "rand01",    "mix64",         "launch_vx",     "launch_vz",   "record_launch_id",
    "fountain_step", "particle_step"};

const std::unordered_map<std::string_view, Syntax>& words() {
  // Built once; a constant table after that.
  static const std::unordered_map<std::string_view, Syntax> table = [] {
    std::unordered_map<std::string_view, Syntax> t;
    for (const char* w : kKeywords) t.emplace(w, Syntax::Keyword);
    for (const char* w : kTypes) t.emplace(w, Syntax::Type);
    for (const char* w : kBuiltins) t.emplace(w, Syntax::Builtin);
    for (const char* w : kPrelude) t.emplace(w, Syntax::Prelude);
    return t;
  }();
  return table;
}

bool is_vector_type(std::string_view w) {
  if (w.size() < 2) return false;
  const char n = w.back();
  if (n < '1' || n > '4') return false;
  const std::string_view base = w.substr(0, w.size() - 1);
  return std::any_of(std::begin(kVectorBases), std::end(kVectorBases),
                     [&](const char* b) { return base == b; });
}

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool ident_char(char c) { return ident_start(c) || digit(c); }
bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

class Lexer {
 public:
  explicit Lexer(std::string_view t) : t_(t) {}

  std::vector<Run> run() {
    bool line_start = true;  // only spaces since the last newline
    while (i_ < t_.size()) {
      const char c = t_[i_];
      if (c == '\n') {
        line_start = true;
        plain(i_ + 1);
        continue;
      }
      if (space(c)) {
        plain(i_ + 1);
        continue;
      }
      const bool first = line_start;
      line_start = false;
      if (first && c == '#') {
        preprocessor();
        continue;
      }
      if (!token(Syntax::Plain)) plain(i_ + 1);
    }
    return std::move(out_);
  }

 private:
  char at(size_t k) const { return k < t_.size() ? t_[k] : '\0'; }

  void emit(size_t end, Syntax kind) {
    end = std::min(end, t_.size());
    if (end <= i_) return;
    if (!out_.empty() && out_.back().kind == kind && out_.back().end == i_ &&
        (kind == Syntax::Plain || kind == Syntax::Preprocessor))
      out_.back().end = end;
    else
      out_.push_back({i_, end, kind});
    i_ = end;
  }
  void plain(size_t end) { emit(end, Syntax::Plain); }

  // One token at i_ other than spaces; false when c is an operator (Plain).
  // `outside` is the kind given to plain words (Preprocessor inside a directive).
  bool token(Syntax outside) {
    const char c = t_[i_];
    if (c == '/' && at(i_ + 1) == '/') return line_comment(), true;
    if (c == '/' && at(i_ + 1) == '*') return block_comment(), true;
    if (c == 'R' && at(i_ + 1) == '"') return raw_string(i_ + 1), true;
    if ((c == 'u' || c == 'U' || c == 'L') && (at(i_ + 1) == '"' || at(i_ + 1) == '\'')) {
      quoted(i_ + 1);
      return true;
    }
    if (c == 'u' && at(i_ + 1) == '8' && (at(i_ + 2) == '"' || at(i_ + 2) == '\'')) {
      quoted(i_ + 2);
      return true;
    }
    if (c == '"' || c == '\'') return quoted(i_), true;
    if (digit(c) || (c == '.' && digit(at(i_ + 1)))) return number(), true;
    if (ident_start(c)) return word(outside), true;
    if (outside == Syntax::Plain && (c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}'))
      return emit(i_ + 1, Syntax::Bracket), true;
    if (c == ':' && at(i_ + 1) == ':') return emit(i_ + 2, outside), true;
    return false;
  }

  void line_comment() {
    // A backslash at the end continues a // comment too (the preprocessor joins lines first).
    size_t k = i_;
    while (k < t_.size()) {
      const size_t nl = t_.find('\n', k);
      if (nl == std::string_view::npos) {
        k = t_.size();
        break;
      }
      size_t e = nl;
      if (e > k && t_[e - 1] == '\r') --e;
      if (e > k && t_[e - 1] == '\\') {
        k = nl + 1;
        continue;
      }
      k = nl;
      break;
    }
    emit(k, Syntax::Comment);
  }

  void block_comment() {
    const size_t close = t_.find("*/", i_ + 2);
    emit(close == std::string_view::npos ? t_.size() : close + 2, Syntax::Comment);
  }

  // R"delim( ... )delim" from the quote at q.
  void raw_string(size_t q) {
    const size_t open = t_.find('(', q + 1);
    const size_t nl = t_.find('\n', q + 1);
    if (open == std::string_view::npos || (nl != std::string_view::npos && nl < open) ||
        open - q - 1 > 16) {
      quoted(q);  // not a raw string after all
      return;
    }
    const std::string close = ")" + std::string(t_.substr(q + 1, open - q - 1)) + "\"";
    const size_t end = t_.find(close, open + 1);
    emit(end == std::string_view::npos ? t_.size() : end + close.size(), Syntax::String);
  }

  // A "string" or 'c' whose quote is at q (after any prefix); an unclosed one
  // ends with its line, as the compiler will say.
  void quoted(size_t q) {
    const char quote = t_[q];
    size_t k = q + 1;
    while (k < t_.size() && t_[k] != quote && t_[k] != '\n') k += t_[k] == '\\' ? 2 : 1;
    if (k < t_.size() && t_[k] == quote) ++k;
    emit(k, quote == '"' ? Syntax::String : Syntax::Char);
  }

  void number() {
    const bool hex = t_[i_] == '0' && (at(i_ + 1) == 'x' || at(i_ + 1) == 'X');
    size_t k = i_ + (hex ? 2 : 0);
    while (k < t_.size()) {
      const char c = t_[k];
      const char e = hex ? 'p' : 'e';
      if ((c == e || c == e - 32) && (at(k + 1) == '+' || at(k + 1) == '-')) {
        k += 2;  // an exponent's sign belongs to the number
        continue;
      }
      // A digit separator only between digits (1'000), not a character literal.
      if (c == '\'' && ident_char(at(k + 1))) {
        ++k;
        continue;
      }
      if (!(ident_char(c) || c == '.')) break;
      ++k;
    }
    emit(k, Syntax::Number);
  }

  void word(Syntax outside) {
    size_t k = i_;
    while (k < t_.size() && ident_char(t_[k])) ++k;
    const std::string_view w = t_.substr(i_, k - i_);
    Syntax kind = outside == Syntax::Preprocessor ? Syntax::Preprocessor : classify_word(w);
    // Anything the prelude's namespace holds: cv::Span, cv::whatever_it_adds.
    if (outside == Syntax::Plain && i_ >= 4 && t_.substr(i_ - 4, 4) == "cv::" &&
        (i_ == 4 || !ident_char(t_[i_ - 5])))
      kind = Syntax::Prelude;
    emit(k, kind);
  }

  // From '#' to the end of the directive (backslash-continued lines too);
  // comments inside stay comments, the header of an #include is a string.
  void preprocessor() {
    emit(i_ + 1, Syntax::Preprocessor);
    while (i_ < t_.size() && space(t_[i_])) emit(i_ + 1, Syntax::Preprocessor);
    size_t k = i_;
    while (k < t_.size() && ident_char(t_[k])) ++k;
    const bool include = t_.substr(i_, k - i_) == "include";
    emit(k, Syntax::Preprocessor);
    while (i_ < t_.size()) {
      const char c = t_[i_];
      if (c == '\n') {
        // Continued when the line's last non-'\r' character is a backslash.
        size_t e = i_;
        if (e > 0 && t_[e - 1] == '\r') --e;
        if (e > 0 && t_[e - 1] == '\\') {
          emit(i_ + 1, Syntax::Preprocessor);
          continue;
        }
        return;
      }
      if (include && c == '<') {
        const size_t close = t_.find_first_of(">\n", i_);
        emit(close == std::string_view::npos || t_[close] == '\n' ? close : close + 1, Syntax::String);
        continue;
      }
      if ((c == '/' && (at(i_ + 1) == '/' || at(i_ + 1) == '*')) || c == '"' || c == '\'') {
        token(Syntax::Preprocessor);
        continue;
      }
      emit(i_ + 1, Syntax::Preprocessor);
    }
  }

  std::string_view t_;
  size_t i_ = 0;
  std::vector<Run> out_;
};

}  // namespace

const char* to_string(Syntax s) {
  switch (s) {
    case Syntax::Plain: return "plain";
    case Syntax::Keyword: return "keyword";
    case Syntax::Type: return "type";
    case Syntax::Builtin: return "builtin";
    case Syntax::Prelude: return "prelude";
    case Syntax::Comment: return "comment";
    case Syntax::String: return "string";
    case Syntax::Char: return "char";
    case Syntax::Number: return "number";
    case Syntax::Preprocessor: return "preprocessor";
    case Syntax::Bracket: return "bracket";
  }
  return "?";
}

Syntax classify_word(std::string_view w) {
  const auto& t = words();
  const auto it = t.find(w);
  if (it != t.end()) return it->second;
  return is_vector_type(w) ? Syntax::Type : Syntax::Plain;
}

std::vector<Run> highlight(std::string_view text) { return Lexer(text).run(); }

std::vector<Run> runs_in(const std::vector<Run>& runs, size_t from, size_t to) {
  std::vector<Run> out;
  // The first run that ends after `from`.
  auto it = std::upper_bound(runs.begin(), runs.end(), from,
                             [](size_t f, const Run& r) { return f < r.end; });
  for (; it != runs.end() && it->begin < to; ++it)
    out.push_back({std::max(it->begin, from), std::min(it->end, to), it->kind});
  return out;
}

}  // namespace cv::code

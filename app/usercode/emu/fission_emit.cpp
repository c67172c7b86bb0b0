// emit_kernel(): a kernel's body rewritten as loops over a block's threads (fission_emit.h).
#include "usercode/emu/fission_emit.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <optional>
#include <regex>
#include <sstream>
#include <set>

#include "usercode/emu/fission_ahead.h"
#include "usercode/emu/fission_once.h"
#include "usercode/emu/fission_reduce.h"
#include "usercode/emu/source_scan.h"

namespace cv::emu::fission {
namespace {

constexpr unsigned kMaxThreads = 1024;
constexpr size_t kMaxReplicatedBytes = 512 * 1024;  // per-thread copies live on the worker's stack

struct Edit {
  unsigned begin, end;
  std::string text;
};

unsigned statement_end(const std::string& text, const Node& s);
std::string relabelled(const std::string& code, int id, const std::string& suffix);

// A piece of a region: a whole statement, the part of a warp statement before
// its warp call (its operands) or after it (the rest, the call replaced by its result).
struct Part {
  enum Mode { Whole, Pre, Post, Declarator } mode = Whole;
  const Node* s = nullptr;
  const Node* var = nullptr;  // Declarator: the one variable of s
};

class Emitter {
 public:
  Emitter(const Analysis& a, std::string file, size_t student_start, std::string dir, bool checked)
      : a_(a),
        file_(std::move(file)),
        student_start_(student_start),
        text_(a.tree->text),
        dir_(std::move(dir)),
        checked_(checked) {}

  bool run(const std::string& name, Emitted& out);

 private:
  // Both passes walk the same way; the first (dry_) only learns where every local is used.
  void sequence(const Node& block);
  void statement(const Node& s);
  void nest(const Node& s);
  void declaration_statement(const Node& s);
  void warp_statement(const Node& s);
  void flush();
  void region_code(int id, const std::vector<Part>& parts);
  std::string versions(int id, const std::vector<Part>& parts);
  std::string ahead_condition(int id, const std::vector<AheadAccess>& ahead) const;
  std::string thread_pass(int id, const ThreadAccesses& ta) const;
  std::string thread_loop(int id, const std::vector<Part>& parts, const std::vector<OnceLoop>& once);
  std::string once_code(const OnceLoop& o, int id) const;
  std::string full_copy(int id, const std::vector<Part>& parts, const std::vector<OnceLoop>& once,
                        const std::string& as_ifs);
  mutable bool once_full_ = false;  // once_code: the loop's one trip without its condition (full_copy)
  std::string once_check(int id, const std::vector<OnceLoop>& once) const;
  std::string part_code(const Part& p, int region);
  void note_uses(const Part& p, int region);
  std::string head(unsigned begin, unsigned end);

  using Calls = std::vector<const Node*>;  // a statement's warp calls, replaced by their results
  std::vector<Edit> edits(unsigned begin, unsigned end, int region, const Calls* warps) const;
  std::string rewrite(unsigned begin, unsigned end, int region, const Calls* warps = nullptr) const;
  std::string line_directive(unsigned offset) const;
  std::string declarator(const Node& v, int region, const Calls* warps) const;
  std::string init_text(const Node& v, int region, const Calls* warps) const;
  bool choose_replicated(std::string& why, int& line);
  std::string prologue(const std::string& name);
  std::string static_declaration(const Node& s) const;
  std::string ref_text(const std::string& usr) const;
  bool shared_rooted(const Node& e) const;
  std::string warp_post_code(const Node& call, size_t index) const;
  size_t most_warp_calls_ = 0;  // in one statement: that many slot arrays

  const Analysis& a_;
  std::string file_;
  size_t student_start_;
  const std::string& text_;
  bool dry_ = true;
  std::string out_;
  std::vector<Part> pending_;
  int regions_ = 0;
  std::map<std::string, std::set<int>> uses_;  // local USR -> regions (-1: outside any)
  std::set<std::string> in_lambda_;
  std::set<std::string> unwritable_;           // a reference spelt inside a macro's body
  std::map<std::string, int> replicated_;      // local USR -> its copies' index
  std::vector<const Node*> statics_;           // __shared__ / static declarations, hoisted
  bool tracking_ = false;                      // threads can leave early: cv_done
  // The region's copy run when its ahead checks passed (region_code): the
  // accesses in `unchecked_` without their check, the threads [0, cv_live).
  bool fast_ = false;
  mutable std::map<const Node*, AheadAccess> unchecked_;
  // Deferred atomics whose address the fast copy takes once before its loop
  // over threads (region_code): in the loop only their sum.
  std::set<const Node*> hoisted_;
  std::string hoisted_addresses(int id) const;
  mutable std::set<const Node*> versioning_;  // range loops being written out (range_loop_code)
  // A shared counter's updates while its loop's fast copy is written: each
  // adds to the local cv_acc_K (fission_reduce.h), K the loop's.
  mutable std::map<const Node*, std::pair<SlotUpdate, std::string>> counter_;
  std::string range_loop_code(const RangeLoop& r, int region, const Calls* warps) const;
  std::string in_range(const AheadAccess& x, int id) const;
  std::string search_code(const RangeLoop& r, const SearchLoop& q, int region, const Calls* warps) const;
  std::string counter_code(const RangeLoop& r, const SharedCounter& c, const std::string& head, int region,
                           const Calls* warps) const;
  long line_of(unsigned offset) const;
  std::map<const Node*, int> deferred_;        // atomicAdd calls summed per block (find_deferred)
  // Deferred calls of a helper that is one atomicAdd of its parameters (the
  // reduce template's atomic_add): the atomic's type and the parameters' types.
  struct Through {
    std::string type, address, value;
  };
  std::map<const Node*, Through> through_;
  std::optional<Through> atomic_helper(const Node& call) const;
  // Around a helper call's address and value: their conversions to the atomic's (empty for atomicAdd).
  struct Wrap {
    std::string open, close;
    std::string operator()(const std::string& x) const { return open + x + close; }
  };
  Wrap address_wrap(const Node& call) const;
  Wrap value_wrap(const Node& call) const;
  std::set<std::string> remat_;                // const locals computed again in each region that reads them
  std::map<std::string, int> decl_region_;     // local USR -> the region that declares it
  bool remat_expr(const Node& e) const;
  bool rematerialisable(const Node& v) const;
  std::vector<const Node*> remat_vars(int region) const;
  std::string remat_prefix(int region) const;
  std::string dir_;
  bool checked_ = false;  // CV_CHECKED: each loop step says which thread runs (cv_here)
  std::map<std::string, std::string> clones_;  // helper USR -> its copy taking the thread's coordinates
  std::string clone_code_;
  void find_clones();
  bool needs_context(const std::vector<Part>& parts) const;
  void find_deferred();
  const Node* branch_free_site(const Node& if_stmt) const;
  const Node* summed_site(const Node& if_stmt, bool in_loop) const;
  std::vector<const Node*> summed_in(const std::vector<Part>& parts) const;
  std::string summed_takes(const std::vector<Part>& parts) const;
  void branch_free_edits(const Node& if_stmt, const Node& call, bool in_loop, std::vector<Edit>& out) const;
  void clone_call_edits(const Node& call, std::vector<Edit>& out) const;
  std::string flushes() const;
};

long Emitter::line_of(unsigned offset) const {
  return 1 + std::count(text_.begin() + static_cast<long>(student_start_), text_.begin() + static_cast<long>(offset), '\n');
}

std::string Emitter::line_directive(unsigned offset) const {
  if (offset < student_start_) return "\n";
  return "\n#line " + std::to_string(line_of(offset)) + " \"" + file_ + "\"\n";
}

// A thread's loop over an index whose accesses its range decides
// (fission_ahead.h, range_loop): its start and bound computed once, one test
// per distinct access, then the loop without those checks; else as written.
// The replaced text keeps its line breaks after it (rewrite), so the last
// #line counts them back.
std::string Emitter::range_loop_code(const RangeLoop& r, int region, const Calls* warps) const {
  const Node& s = *r.loop;
  const Node &cond = s.kids[1], &inc = s.kids[2], &body = s.kids[3];
  const unsigned end = statement_end(text_, s);
  const std::string k = std::to_string(s.begin), lo = "cv_lo_" + k, hi = "cv_hi_" + k;
  std::string proof;
  std::set<std::string> seen;
  for (const RangeLoop::Access& x : r.accesses) {
    const std::string test = "cv_fis_span_range(" + lo + ", " + hi + ", " + (r.inclusive ? "true" : "false") + ", " +
                             std::to_string(x.offset) + "LL, " +
                             text_.substr(x.at.span->begin, x.at.span->end - x.at.span->begin) + ".size)";
    if (seen.insert(test).second) proof += (proof.empty() ? "" : " && ") + test;
  }
  versioning_.insert(&s);
  const std::string head = line_directive(s.begin) + "for (" + r.var->type + " " + r.var->name + " = " + lo + "; " +
                           rewrite(cond.begin, cond.end, region, warps) + "; " + rewrite(inc.begin, inc.end, region, warps) +
                           ")" + line_directive(body.begin);
  const std::string slow = head + rewrite(body.begin, statement_end(text_, body), region, warps);
  std::vector<const Node*> added;
  for (const RangeLoop::Access& x : r.accesses)
    if (unchecked_.emplace(x.at.call, x.at).second) added.push_back(x.at.call);
  SearchLoop q;
  SharedCounter c;
  const std::string fast = search_loop(a_, r, q)      ? search_code(r, q, region, warps)
                           : shared_counter(a_, r, c) ? counter_code(r, c, head, region, warps)
                                                      : head + rewrite(body.begin, statement_end(text_, body), region, warps);
  for (const Node* c : added) unchecked_.erase(c);
  versioning_.erase(&s);
  const long breaks = std::count(text_.begin() + s.begin, text_.begin() + end, '\n');
  return "{ const " + r.var->type + " " + lo + " = (" + rewrite(r.start->begin, r.start->end, region, warps) +
         "); const auto " + hi + " = (" + rewrite(r.bound->begin, r.bound->end, region, warps) + ");\nif (" + proof +
         ") {" + fast + "\n} else {" + slow + "\n}}\n#line " + std::to_string(line_of(end) - breaks) + " \"" + file_ +
         "\"\n";
}

// A search's fast copy (fission_reduce.h): C ORed over chunks of 64 steps,
// which GCC vectorises, up to the chunk with the first hit; then S once.
std::string Emitter::search_code(const RangeLoop& r, const SearchLoop& q, int region, const Calls* warps) const {
  const Node& s = *r.loop;
  const std::string k = std::to_string(s.begin), lo = "cv_lo_" + k, hi = "cv_hi_" + k, hit = "cv_hit_" + k,
                    from = "cv_c_" + k, to = "cv_e_" + k, t = r.var->type, v = r.var->name;
  std::string step;
  for (const Node* d : q.locals) step += line_directive(d->begin) + rewrite(d->begin, statement_end(text_, *d), region, warps);
  step += line_directive(q.cond->begin) + hit + " |= (" + rewrite(q.cond->begin, q.cond->end, region, warps) + ") ? 1u : 0u;";
  std::string then;
  for (const Node* st : q.then) then += line_directive(st->begin) + rewrite(st->begin, statement_end(text_, *st), region, warps);
  // The hit is tested after each chunk, not in the outer loop's condition: with
  // `!hit && c < hi` there GCC 12 lost the chunk's index as affine and loaded
  // its 16 lanes one by one (corelated's search 3x slower).
  return "\n{ unsigned " + hit + " = 0;\nfor (" + t + " " + from + " = " + lo + "; " + from + " < " + hi +
         ";) {\nconst " + t + " " + to + " = " + hi + " - " + from + " > 64 ? static_cast<" + t + ">(" + from +
         " + 64) : static_cast<" + t + ">(" + hi + ");\nfor (" + t + " " + v + " = " + from + "; " + v + " < " + to +
         "; ++" + v + ") {" + step + "\n}\nif (" + hit + ") break;\n" + from + " = " + to + ";\n}\nif (" + hit +
         ") {" + then + "\n}\n}";
}

// A shared counter's fast copy (fission_reduce.h): the loop counts in a local,
// added to S[e] after it unless the sum is 0 (then S[e] keeps its value
// either way, and an S[e] the loop never reached is not touched).
std::string Emitter::counter_code(const RangeLoop& r, const SharedCounter& c, const std::string& head, int region,
                                  const Calls* warps) const {
  const Node& body = r.loop->kids[3];
  const std::string k = std::to_string(r.loop->begin), acc = "cv_acc_" + k;
  const std::string slot = rewrite(c.slot->begin, c.slot->end, region, warps);
  for (const SlotUpdate& u : c.updates) counter_.emplace(u.update, std::make_pair(u, k));
  const std::string loop = head + rewrite(body.begin, statement_end(text_, body), region, warps);
  for (const SlotUpdate& u : c.updates) counter_.erase(u.update);
  return "\n{ std::remove_reference_t<decltype(" + slot + ")> " + acc + " = 0;" + loop + "\nif (" + acc + " != 0) " +
         slot + " += " + acc + ";\n}";
}

// `cv_fis_in(P, E)`: whether an access's index is inside its span, E as the region writes it.
std::string Emitter::in_range(const AheadAccess& x, int id) const {
  return "cv_fis_in(" + text_.substr(x.span->begin, x.span->end - x.span->begin) + ", " +
         rewrite(x.index->begin, x.index->end, id) + ")";
}

// `code` (a copy of region `id`'s loop over threads) with its label, and the gotos to it, renamed.
std::string relabelled(const std::string& code, int id, const std::string& suffix) {
  const std::string label = "cv_next_" + std::to_string(id);
  return std::regex_replace(code, std::regex(label + "(?![0-9])"), label + suffix);
}

std::string Emitter::ref_text(const std::string& usr) const {
  const std::string r = "cv_r_" + std::to_string(replicated_.at(usr)) + "[cv_t]";
  return a_.locals.at(usr)->is_const ? "std::as_const(" + r + ")" : r;
}

// &s, &s[i], &s.f, s (an array) where s is __shared__ (or static): memory no other worker touches.
bool Emitter::shared_rooted(const Node& e) const {
  const Node* p = &strip(e);
  if (p->kind == K::Unary && p->op == "&" && !p->kids.empty()) p = &strip(p->kids[0]);
  while ((p->kind == K::Subscript || (p->kind == K::MemberRef && !p->arrow)) && !p->kids.empty())
    p = &strip(p->kids[0]);
  if (p->kind != K::DeclRef || p->ref_kind != K::Var) return false;
  auto it = a_.locals.find(p->ref);
  return it != a_.locals.end() && it->second->is_static;
}

bool is_integer(const std::string& type) {
  return type == "int" || type == "unsigned int" || type == "long long" || type == "unsigned long long";
}

// threadIdx (a macro of the prelude) becomes the loop's own thread index;
// blockIdx, blockDim and gridDim the function's locals (read once a block).
void coordinate_edits(const std::string& text, unsigned begin, unsigned end, std::vector<Edit>& out) {
  const std::string code = code_only(std::string_view(text).substr(begin, end - begin));
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (const auto& [word, local] : {std::pair<std::string, std::string>{"threadIdx", "cv_tid"},
                                    {"blockIdx", "cv_bi"}, {"blockDim", "cv_bd"}, {"gridDim", "cv_gd"}})
    for (size_t at = code.find(word); at != std::string::npos; at = code.find(word, at + word.size())) {
      if ((at > 0 && ident(code[at - 1])) || (at + word.size() < code.size() && ident(code[at + word.size()])))
        continue;
      const unsigned b = begin + static_cast<unsigned>(at);
      out.push_back({b, b + static_cast<unsigned>(word.size()), local});
    }
}

// `if (c) atomicAdd(a, v);` (branch_free_site), deferred, as `{ d.c = c; if
// (d.c && a != d.p) { flush; d.p = a; } d.v += d.c ? v : 0; }`: the address
// taken where the condition holds (as the atomic would be made), the sum
// without a data-dependent branch per thread. The condition, address and value
// keep their own text (and edits).
void Emitter::branch_free_edits(const Node& s, const Node& call, bool in_loop, std::vector<Edit>& out) const {
  const Node &cond = s.kids[0], &addr = call.kids[1], &value = call.kids[2];
  const unsigned end = statement_end(text_, s.kids[1]);
  if (!deferred_.count(&call)) {  // __shared__: `{ c = cond; cv_fis_atomicAdd(a, c ? v : 0); }`
    out.push_back({s.begin, cond.begin, "{ const bool cv_c = static_cast<bool>("});
    out.push_back({cond.end, addr.begin, "); cv_fis_atomicAdd("});
    out.push_back({addr.end, value.begin, ", cv_c ? ("});
    out.push_back({value.end, end, ") : 0); }"});
    return;
  }
  const std::string d = "cv_d_" + std::to_string(deferred_.at(&call));
  if (summed_site(s, in_loop)) {  // the address is made after the loop (summed_takes)
    const std::string u = "cv_u_" + std::to_string(deferred_.at(&call));
    out.push_back({s.begin, cond.begin, "{ const bool cv_c = static_cast<bool>("});
    out.push_back({cond.end, value.begin, "); " + u + ".v += cv_c ? static_cast<decltype(" + u + ".v)>(" + value_wrap(call).open});
    out.push_back({value.end, end, value_wrap(call).close + ") : 0; " + u + ".any |= cv_c; " + u + ".c[cv_t] = cv_c; }"});
    return;
  }
  if (hoisted_.count(&call)) {  // the address taken before the loop over threads: only the sum here
    out.push_back({s.begin, cond.begin, "{ const bool cv_c = static_cast<bool>("});
    out.push_back({cond.end, value.begin, "); " + d + ".v += cv_c ? static_cast<decltype(" + d + ".v)>(" + value_wrap(call).open});
    out.push_back({value.end, end, value_wrap(call).close + ") : 0; }"});
    return;
  }
  out.push_back({s.begin, cond.begin, "{ " + d + ".c = static_cast<bool>("});
  // The address is the same for every thread at this point, not always for
  // a whole loop (a per-thread loop may step it): a new one flushes the sum so
  // far, as cv_fis_defer_add does. Taken only where the condition holds.
  // Once a thread, the test reads the address without the checked access's
  // record (cv_fis_peek: the scratch slot where out of range), so the compiler
  // computes it for every thread and tests `c & a != p` with one branch, taken
  // only where the address changes: no misprediction a thread where c varies
  // (count3's `if (mine)`: 2.7 -> 1.0 ms). Inside a thread's own loop the
  // condition is mostly a rare hit (sum3's `if (sum == 0)`), whose branch is
  // predicted: there `&&` (computing the address each step cost sum3_hoisted
  // 35%). The record stays with the real access, made as before.
  // branch_free_site's addresses: P (a pointer parameter: nothing to record) or &P[e].
  const Wrap address = address_wrap(call), converted = value_wrap(call);
  std::string a = address(text_.substr(addr.begin, addr.end - addr.begin));
  const Node& at = strip(addr);
  bool record_free = at.kind == K::DeclRef;
  if (at.kind == K::Unary && at.op == "&" && !at.kids.empty() && strip(at.kids[0]).kids.size() >= 2) {
    const Node &base = strip(at.kids[0]).kids.front(), &index = strip(at.kids[0]).kids.back();
    a = address("cv_fis_peek(" + text_.substr(base.begin, base.end - base.begin) + ", " +
                text_.substr(index.begin, index.end - index.begin) + ")");
    record_free = true;
  }
  const std::string both = record_free && !in_loop ? " & " : " && ";  // (`&&` lets it branch on c alone)
  out.push_back({cond.end, addr.begin, "); if (__builtin_expect(" + d + ".c" + both + "((" + a + ") != " + d + ".p), 0)) { cv_fis_flush(" + d + "); " + d + ".p = " + address.open});
  out.push_back({addr.end, value.begin, address.close + "; } " + d + ".v += " + d + ".c ? static_cast<decltype(" + d + ".v)>(" + converted.open});
  out.push_back({value.end, end, converted.close + ") : 0; }"});
}

// A call of a helper that has a copy taking the coordinates (find_clones): the copy, called with them.
void Emitter::clone_call_edits(const Node& n, std::vector<Edit>& out) const {
  const Node& callee = strip(n.kids[0]);
  bool args = false;
  for (size_t i = 1; i < n.kids.size(); ++i) args = args || (n.kids[i].main && n.kids[i].begin >= callee.end);
  out.push_back({callee.ref_offset, callee.ref_offset + static_cast<unsigned>(callee.name.size()), clones_.at(n.ref)});
  out.push_back({n.end - 1, n.end - 1, std::string(args ? ", " : "") + "cv_tid, cv_bi, cv_bd, cv_gd"});
}

// long: one walk over a statement's tree; each kind of edit takes a few lines.
std::vector<Edit> Emitter::edits(unsigned begin, unsigned end, int region, const Calls* warps) const {
  std::vector<Edit> out;
  auto inside = [&](unsigned b, unsigned e) { return b >= begin && e <= end && b < e; };
  int loops = 0;  // per-thread loops around the node (a uniform loop around the region is not walked)
  std::function<void(const Node&)> walk = [&](const Node& n) {
    if (n.kind == K::For && checked_ && versioning_.size() < 2 && !versioning_.count(&n) && n.begin >= student_start_ &&
        inside(n.begin, n.end)) {
      RangeLoop r;
      if (range_loop(a_, n, r)) {
        out.push_back({n.begin, statement_end(text_, n), range_loop_code(r, region, warps)});
        return;
      }
    }
    if (auto c = counter_.find(&n); c != counter_.end() && inside(n.begin, n.end)) {  // S[e] += x: the local
      const SlotUpdate& u = c->second.first;
      const std::string to = "cv_acc_" + c->second.second + (u.add ? " += " : " -= ");
      if (!u.value) {
        out.push_back({n.begin, n.end, to + "1"});
        return;
      }
      out.push_back({n.begin, u.value->begin, to + "("});
      out.push_back({u.value->end, n.end, ")"});
      walk(*u.value);
      return;
    }
    if (auto u = unchecked_.find(&n); u != unchecked_.end() && inside(n.begin, n.end)) {  // P.data[E], checked ahead
      const AheadAccess& x = u->second;
      out.push_back({x.span->end, x.index->begin, ".data[static_cast<long long>("});
      out.push_back({x.index->end, n.end, ")]"});
    }
    if (n.kind == K::For || n.kind == K::While || n.kind == K::Do) {  // (no edit is of a loop itself)
      ++loops;
      for (const Node& k : n.kids) walk(k);
      --loops;
      return;
    }
    for (size_t i = 0; warps && i < warps->size(); ++i)
      if ((*warps)[i] == &n && n.main && inside(n.begin, n.end)) {
        out.push_back({n.begin, n.end, warp_post_code(n, i)});
        return;
      }
    if (n.kind == K::DeclStmt && n.main && inside(n.begin, n.end) && !n.kids.empty() &&
        std::all_of(n.kids.begin(), n.kids.end(), [](const Node& v) { return v.kind == K::Var && v.is_static; })) {
      out.push_back({n.begin, n.end, ";"});  // hoisted to the function's top
      return;
    }
    if (n.kind == K::DeclRef && n.ref_offset && replicated_.count(n.ref) && inside(n.ref_offset, n.ref_offset + 1))
      out.push_back({n.ref_offset, n.ref_offset + static_cast<unsigned>(n.name.size()), ref_text(n.ref)});
    if (n.kind == K::Return && region < 0 && !deferred_.empty() && n.main && inside(n.begin, n.end)) {
      out.push_back({n.begin, n.end, "do { " + flushes() + "return; } while (0)"});  // the block is over
      return;
    }
    if (n.kind == K::Call && clones_.count(n.ref) && n.main && inside(n.begin, n.end) && !n.kids.empty() &&
        strip(n.kids[0]).ref_offset) {
      clone_call_edits(n, out);
      for (size_t i = 1; i < n.kids.size(); ++i) walk(n.kids[i]);
      return;
    }
    if (n.kind == K::If && n.main && inside(n.begin, n.end))
      if (const Node* c = branch_free_site(n)) {
        branch_free_edits(n, *c, loops > 0, out);
        for (const Node* k : {&n.kids[0], &c->kids[1], &c->kids[2]}) walk(*k);
        return;
      }
    if (auto d = deferred_.find(&n); d != deferred_.end() && hoisted_.count(&n) && n.kids.size() > 2 &&
                                     inside(n.begin, n.end)) {  // the address taken before the loop
      const Wrap value = through_.count(&n) ? value_wrap(n) : Wrap{};
      out.push_back({strip(n.kids[0]).ref_offset, n.kids[2].begin, "cv_fis_defer_put(cv_d_" + std::to_string(d->second) + ", " + value.open});
      if (!value.close.empty()) out.push_back({n.kids[2].end, n.kids[2].end, value.close});
      walk(n.kids[2]);
      return;
    }
    if (auto d = deferred_.find(&n); d != deferred_.end() && n.kids.size() > 1 && inside(n.begin, n.end)) {
      const Node& callee = strip(n.kids[0]);
      const Wrap address = address_wrap(n);
      out.push_back({callee.ref_offset, n.kids[1].begin, "cv_fis_defer_add(cv_d_" + std::to_string(d->second) + ", " + address.open});
      if (through_.count(&n) && n.kids.size() > 2) {  // (the helper's two arguments, converted as its call would)
        out.push_back({n.kids[1].end, n.kids[2].begin, address.close + ", " + value_wrap(n).open});
        out.push_back({n.kids[2].end, n.kids[2].end, value_wrap(n).close});
      }
      for (size_t i = 1; i < n.kids.size(); ++i) walk(n.kids[i]);
      return;
    }
    if (n.kind == K::Return && region >= 0 && n.main && inside(n.begin, n.end)) {  // (uniform code: a real return)
      const std::string go = "goto cv_next_" + std::to_string(region);
      out.push_back({n.begin, n.end, tracking_ ? "do { cv_done[cv_t] = 1; " + go + "; } while (0)" : go});
      return;
    }
    if (n.kind == K::Call && n.ref_file == "cudaviz_emu.h" && n.name.rfind("atomic", 0) == 0 && n.kids.size() > 1 &&
        shared_rooted(n.kids[1])) {
      const Node& callee = strip(n.kids[0]);
      if (callee.ref_offset && inside(callee.ref_offset, callee.ref_offset + 1))
        out.push_back({callee.ref_offset, callee.ref_offset + static_cast<unsigned>(callee.name.size()),
                       "cv_fis_" + callee.name});
    }
    if (n.kind == K::Lambda) return;
    for (const Node& k : n.kids) walk(k);
  };
  walk(*a_.body);
  coordinate_edits(text_, begin, end, out);
  std::sort(out.begin(), out.end(), [](const Edit& x, const Edit& y) { return x.begin < y.begin; });
  return out;
}

// The text of [begin, end) with the region's edits; a replaced range keeps its
// line breaks, so #line stays true for what follows.
std::string Emitter::rewrite(unsigned begin, unsigned end, int region, const Calls* warps) const {
  std::string s;
  unsigned at = begin;
  for (const Edit& e : edits(begin, end, region, warps)) {
    if (e.begin < at) continue;  // inside an edit already made
    s.append(text_, at, e.begin - at);
    s += e.text;
    s.append(static_cast<size_t>(std::count(text_.begin() + e.begin, text_.begin() + e.end, '\n')), '\n');
    at = e.end;
  }
  s.append(text_, at, end - at);
  return s;
}

std::string Emitter::head(unsigned begin, unsigned end) { return line_directive(begin) + rewrite(begin, end, -1); }

// Where a statement's text ends: its own range, and the ';' after it when it has one.
unsigned statement_end(const std::string& text, const Node& s) {
  if (s.kind == K::Compound) return s.end;
  if ((s.kind == K::If || s.kind == K::For || s.kind == K::While || s.kind == K::Switch || s.kind == K::Label) &&
      !s.kids.empty())
    return std::max(s.end, statement_end(text, s.kids.back()));  // its last statement's ';'
  size_t i = s.end;
  for (;;) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (text.compare(i, 2, "//") == 0) i = text.find('\n', i);
    else if (text.compare(i, 2, "/*") == 0) i = text.find("*/", i) + 2;
    else break;
    if (i == std::string::npos || i > text.size()) return s.end;
  }
  return i < text.size() && text[i] == ';' ? static_cast<unsigned>(i + 1) : s.end;
}

void Emitter::sequence(const Node& block) {
  if (block.kind != K::Compound) return statement(block);
  for (const Node& k : block.kids) statement(k);
}

void Emitter::statement(const Node& s) {
  switch (a_.role(s)) {
    case Role::Thread:
      if (s.kind == K::DeclStmt) return declaration_statement(s);
      pending_.push_back({Part::Whole, &s, nullptr});
      return;
    case Role::Uniform: {
      if (s.kind == K::DeclStmt && std::all_of(s.kids.begin(), s.kids.end(), [](const Node& v) { return v.is_static; }))
        return;  // __shared__: declared at the function's top
      // A declaration of uniform values goes before the pending region unless
      // that region names something by the same name (it would see this one).
      bool clash = s.kind != K::DeclStmt;
      for (const Part& p : pending_)
        each(*p.s, [&](const Node& n) {
          if (n.kind == K::DeclRef)
            for (const Node& v : s.kids) clash = clash || v.name == n.name;
        });
      if (clash) flush();
      if (dry_) note_uses({Part::Whole, &s, nullptr}, -1);
      else out_ += head(s.begin, statement_end(text_, s));
      return;
    }
    case Role::Barrier:
      flush();
      if (!dry_ && tracking_)
        out_ += "\nif (cv_emu_ctx_tls.hooks->fission_barrier(cv_done, " + std::to_string(s.line) + ")) return;\n";
      return;
    case Role::Warp:
      return warp_statement(s);
    case Role::Nest:
      flush();
      return nest(s);
  }
}

void Emitter::nest(const Node& s) {
  auto body = [&](const Node& b) {
    if (!dry_) out_ += "{";
    sequence(b);
    flush();
    if (!dry_) out_ += "\n}";
  };
  auto text = [&](unsigned b, unsigned e) {
    if (dry_) return;
    out_ += head(b, e);
  };
  switch (s.kind) {
    case K::Compound:
      return body(s);
    case K::If:
      text(s.begin, s.kids[1].begin);
      body(s.kids[1]);
      if (s.kids.size() > 2) {
        text(statement_end(text_, s.kids[1]), s.kids[2].begin);
        body(s.kids[2]);
      }
      return;
    case K::For: case K::While:
      text(s.begin, s.kids.back().begin);
      return body(s.kids.back());
    case K::Do:
      if (!dry_) out_ += "\ndo ";
      body(s.kids[0]);
      text(statement_end(text_, s.kids[0]), statement_end(text_, s));
      return;
    default:
      return;
  }
}

void Emitter::declaration_statement(const Node& s) {
  bool mixed = false;
  for (const Node& v : s.kids) mixed = mixed || (v.kind == K::Var && !v.is_static && a_.uniform.count(v.usr));
  if (!mixed) {
    pending_.push_back({Part::Whole, &s, nullptr});
    return;
  }
  for (const Node& v : s.kids) {
    if (v.kind != K::Var || v.is_static) continue;
    if (!a_.uniform.count(v.usr)) {
      pending_.push_back({Part::Declarator, &s, &v});
      continue;
    }
    flush();
    if (dry_) note_uses({Part::Declarator, &s, &v}, -1);
    else out_ += declarator(v, -1, nullptr);
  }
}

void Emitter::warp_statement(const Node& s) {
  const Calls calls = a_.warp_calls(s);
  most_warp_calls_ = std::max(most_warp_calls_, calls.size());
  pending_.push_back({Part::Pre, &s, nullptr});
  flush();
  for (size_t i = 0; !dry_ && i < calls.size(); ++i)  // in order, as each would complete before the next
    out_ += "\ncv_emu_ctx_tls.hooks->fission_warp(cv_slots_" + std::to_string(i) + ", " +
            std::string(tracking_ ? "cv_done" : "nullptr") + ", " + std::to_string(calls[i]->line) + ");\n";
  pending_.push_back({Part::Post, &s, nullptr});
}

void Emitter::flush() {
  if (pending_.empty()) return;
  const int id = regions_++;
  if (dry_)
    for (const Part& p : pending_) note_uses(p, id);
  else
    region_code(id, pending_);
  pending_.clear();
}

const char* const kThreadLoop =
    "\nfor (unsigned cv_z = 0; cv_z < cv_bd.z; ++cv_z)\n"
    "for (unsigned cv_y = 0; cv_y < cv_bd.y; ++cv_y)\n"
    "for (unsigned cv_x = 0; cv_x < cv_bd.x; ++cv_x) {\n"
    "const unsigned cv_t = (cv_z * cv_bd.y + cv_y) * cv_bd.x + cv_x;\n";
// The running threads only, where they are the block's first (cv_fis_live): no test a thread.
const char* const kLiveThreadLoop =
    "\nfor (unsigned cv_z = 0; cv_z < cv_bd.z; ++cv_z)\n"
    "for (unsigned cv_y = 0; cv_y < cv_bd.y; ++cv_y)\n"
    "for (unsigned cv_x = 0; cv_x < cv_live; ++cv_x) {\n"
    "const unsigned cv_t = (cv_z * cv_bd.y + cv_y) * cv_bd.x + cv_x;\n";

// A region's loop over threads, in up to two copies: when every access it
// can check ahead (fission_ahead.h) is in range and the running threads are
// the block's first (cv_live), a copy without those checks and without a
// test a thread; else as written. Either copy has its once-loops' versions.
void Emitter::region_code(int id, const std::vector<Part>& parts) {
  std::vector<const Node*> statements;
  for (const Part& p : parts)
    if (statements.empty() || statements.back() != p.s) statements.push_back(p.s);
  const std::vector<AheadAccess> ahead = checked_ ? ahead_accesses(a_, statements) : std::vector<AheadAccess>{};
  ThreadAccesses threads = checked_ ? thread_accesses(a_, statements, ahead) : ThreadAccesses{};
  // Its last `if` gets a copy of its own only where it is the region's last part, whole.
  if (threads.all_if && !(parts.back().mode == Part::Whole && parts.back().s == threads.all_if))
    threads.all_if = nullptr;
  if (ahead.empty() && threads.accesses.empty() && !tracking_) {
    out_ += versions(id, parts);
  } else {
    fast_ = true;
    for (const AheadAccess& x : ahead) unchecked_.emplace(x.call, x);
    for (const AheadAccess& x : threads.accesses) unchecked_.emplace(x.call, x);
    // A deferred atomic at P or &P[e] checked ahead: the same address for
    // every thread and step, so taken once here (a new one flushes the sum so
    // far, as a step would) and the loop only sums.
    for (const auto& [call, slot] : deferred_) {
      const Node& at = strip(call->kids[1]);
      const bool whole = at.kind == K::DeclRef && at.ref_kind == K::Param;
      const bool element = at.kind == K::Unary && at.op == "&" && !at.kids.empty() &&
                           std::any_of(ahead.begin(), ahead.end(), [&](const AheadAccess& x) { return x.call == &strip(at.kids[0]); });
      const bool here = std::any_of(statements.begin(), statements.end(), [&](const Node* st) {
        return call->begin >= st->begin && call->end <= statement_end(text_, *st);
      });
      if (here && call->kids.size() > 2 && (whole || element)) hoisted_.insert(call);
    }
    const std::string k = std::to_string(id);
    auto renamed = [&](const std::vector<Part>& ps, const char* as) {
      return hoisted_addresses(id) + relabelled(versions(id, ps), id, as);
    };
    const std::string fast = renamed(parts, "_fast");
    // Where the region's last `if` holds for every running thread: its body alone.
    const bool all_if = threads.all_if != nullptr;
    std::vector<Part> bare = parts;
    if (all_if) bare.back() = {Part::Whole, &threads.all_if->kids[1], nullptr};
    const std::string all = all_if ? renamed(bare, "_all") : "";
    fast_ = false;
    unchecked_.clear();
    hoisted_.clear();
    out_ += "\nbool cv_fast_" + k + " = " + ahead_condition(id, ahead) + ";";
    if (all_if) out_ += "\nbool cv_all_" + k + " = false;";
    if (!threads.accesses.empty()) out_ += "\nif (cv_fast_" + k + ") {" + thread_pass(id, threads) + "}";
    if (all_if) out_ += "\nif (cv_fast_" + k + " && cv_all_" + k + ") {" + all + "} else";
    out_ += "\nif (cv_fast_" + k + ") {" + fast + "} else {" + versions(id, parts) + "}\n";
  }
  out_ += summed_takes(parts) + flushes() + "\n";
  bool exits = false;
  for (const Node* s : statements) each(*s, [&](const Node& n) { exits = exits || n.kind == K::Return; }, false);
  if (tracking_ && exits) out_ += "cv_live = cv_fis_live(cv_done, cv_bd.x * cv_bd.y * cv_bd.z, cv_bd.x, cv_1d);\n";
}

std::string Emitter::hoisted_addresses(int id) const {
  std::string out;
  for (const Node* call : hoisted_) {
    const std::string d = "cv_d_" + std::to_string(deferred_.at(call));
    const Node& addr = call->kids[1];
    out += "\n{ auto* const cv_a = " + address_wrap(*call)(rewrite(addr.begin, addr.end, id)) + "; if (cv_a != " + d +
           ".p) { cv_fis_flush(" + d + "); " + d + ".p = cv_a; } }";
  }
  return out;
}

// Once a block, before a region: every thread's indices of the region's
// accesses that follow from its coordinates (thread_accesses), the const
// locals they read computed again; any out of range leaves cv_fast_K false,
// and the copy as written runs (and names it). Over the threads the fast copy
// would run; computing has no effects, so doing it ahead changes nothing.
std::string Emitter::thread_pass(int id, const ThreadAccesses& ta) const {
  const std::string k = std::to_string(id);
  const bool all_if = ta.all_if != nullptr;
  bool context = false;
  auto note = [&](const Node& e) {
    each(e, [&](const Node& n) {
      context = context || (n.kind == K::Call && !clones_.count(n.ref) && a_.touches_thread_index(n));
    });
  };
  for (const AheadAccess& x : ta.accesses) note(*x.index);
  for (const Node* v : ta.computed) note(*v);
  if (all_if) note(ta.all_if->kids[0]);
  std::string out = "\nunsigned long long cv_bad_" + k + " = 0" + (all_if ? ", cv_not_" + k + " = 0;" : ";") +
                    (tracking_ ? kLiveThreadLoop : kThreadLoop);
  if (context) out += "cv_emu_ctx_tls.thread_idx = cv_emu::Dim{cv_x, cv_y, cv_z};\n";
  out += "(void)cv_t;\nconst uint3 cv_tid{cv_x, cv_y, cv_z};\n{";
  for (const Node* v : ta.computed) out += declarator(*v, id, nullptr);
  for (const AheadAccess& x : ta.accesses)
    out += "\ncv_bad_" + k + " |= !" + in_range(x, id) + ";";
  if (all_if) {
    const Node& c = ta.all_if->kids[0];
    out += "\ncv_not_" + k + " |= !static_cast<bool>(" + rewrite(c.begin, c.end, id) + ");";
  }
  out += "\n}\n}\ncv_fast_" + k + " = !cv_bad_" + k + ";";
  return all_if ? out + " cv_all_" + k + " = !cv_not_" + k + ";" : out;
}

std::string Emitter::versions(int id, const std::vector<Part>& parts) {
  std::vector<OnceLoop> once;
  for (const Part& p : parts)
    if (OnceLoop o; p.mode == Part::Whole && once_loop(a_, *p.s, o)) once.push_back(o);
  const std::string plain = thread_loop(id, parts, {});
  if (once.empty()) return plain;
  // The same loop over threads with each such loop as an `if`, taken when
  // no thread of this block would make a second trip (fission_once.h).
  const std::string as_ifs = relabelled(thread_loop(id, parts, once), id, "_once");
  return once_check(id, once) + "\nif (!cv_more_" + std::to_string(id) + ") {" + full_copy(id, parts, once, as_ifs) +
         "} else {" + plain + "}\n";
}

// Where no thread takes a second trip, a checked build's pass over the
// threads evaluates each once loop's start, its condition and the indices of
// its body's accesses that follow from them (once_index): when every
// condition holds and every index is in range, a copy runs each loop's body
// without its `if` and those accesses without their checks (a backward load
// under a mask, reverse's, does not vectorise; the same load unmasked does).
// Otherwise the copy with the `if`s, as before. Computing has no effects.
// Only where an access's index is not the variable plus a constant.
std::string Emitter::full_copy(int id, const std::vector<Part>& parts, const std::vector<OnceLoop>& once,
                               const std::string& as_ifs) {
  if (!checked_ || tracking_) return as_ifs;
  std::vector<const Node*> computed;
  std::vector<std::vector<AheadAccess>> tested(once.size());
  size_t count = 0;
  for (size_t i = 0; i < once.size(); ++i)
    each(once[i].loop->kids[3], [&](const Node& n) {
      AheadAccess x;
      if (count < 16 && !unchecked_.count(&n) && span_access(n, text_, x) && once_index(a_, once[i], *x.index, computed))
        tested[i].push_back(x), ++count;
    }, false);
  // Only for an access a mask does not vectorise: a forward one (i, i + c) already runs at
  // full speed under the `if`, and there the pass cost count3 and reduce about a fifth.
  bool backward = false;
  for (size_t i = 0; i < once.size(); ++i)
    for (const AheadAccess& x : tested[i]) {
      long long c = 0;
      backward = backward || !index_offset(*x.index, once[i].loop->kids[0].kids[0].usr, text_, c);
    }
  if (count == 0 || !backward) return as_ifs;
  for (const OnceLoop& o : once) computed.insert(computed.end(), o.computed.begin(), o.computed.end());
  std::sort(computed.begin(), computed.end(), [](const Node* x, const Node* y) { return x->begin < y->begin; });
  computed.erase(std::unique(computed.begin(), computed.end()), computed.end());
  std::set<std::string> names;  // the pass declares each once, in one scope
  for (const Node* v : computed)
    if (!names.insert(v->name).second) return as_ifs;
  const std::string k = std::to_string(id), bad = "cv_nf_" + k;
  std::vector<Part> evaluated;
  for (const OnceLoop& o : once) evaluated.push_back({Part::Whole, o.loop, nullptr});
  std::string pass = "\nunsigned long long " + bad + " = 0;" + kThreadLoop;
  if (needs_context(evaluated)) pass += "cv_emu_ctx_tls.thread_idx = cv_emu::Dim{cv_x, cv_y, cv_z};\n";
  pass += "(void)cv_t;\nconst uint3 cv_tid{cv_x, cv_y, cv_z};\n{";
  for (const Node* v : computed) pass += declarator(*v, id, nullptr);
  for (size_t i = 0; i < once.size(); ++i) {
    const Node &init = once[i].loop->kids[0], &cond = once[i].loop->kids[1];
    pass += "{" + line_directive(once[i].loop->begin) + rewrite(init.begin, statement_end(text_, init), id) + "\n" + bad +
            " |= !static_cast<bool>(" + rewrite(cond.begin, cond.end, id) + ");";
    for (const AheadAccess& x : tested[i])
      pass += "\n" + bad + " |= !" + in_range(x, id) + ";";
    pass += "\n}";
  }
  pass += "\n}\n}\n";
  std::vector<const Node*> added;
  for (const std::vector<AheadAccess>& xs : tested)
    for (const AheadAccess& x : xs)
      if (unchecked_.emplace(x.call, x).second) added.push_back(x.call);
  once_full_ = true;
  const std::string full = relabelled(thread_loop(id, parts, once), id, "_full");
  once_full_ = false;
  for (const Node* c : added) unchecked_.erase(c);
  return pass + "if (!" + bad + ") {" + full + "} else {" + as_ifs + "}\n";
}

// The ahead checks, each distinct access once, in the region's own scope: its
// indices are block values the region does not change (fission_ahead.h).
std::string Emitter::ahead_condition(int id, const std::vector<AheadAccess>& ahead) const {
  std::string c = tracking_ ? "cv_live != ~0u" : "true";
  std::set<std::string> seen;
  for (const AheadAccess& x : ahead) {
    const std::string test = in_range(x, id);
    if (seen.insert(test).second) c += " && " + test;
  }
  return c;
}

std::string Emitter::thread_loop(int id, const std::vector<Part>& parts, const std::vector<OnceLoop>& once) {
  std::string out = tracking_ && fast_ ? kLiveThreadLoop : kThreadLoop;
  if (tracking_ && !fast_) out += "if (cv_done[cv_t]) continue;\n";
  // The values computed again read the coordinates as the region's own code does.
  std::vector<Part> reads = parts;
  for (const Node* v : remat_vars(id)) reads.push_back({Part::Declarator, v, v});
  if (needs_context(reads)) out += "cv_emu_ctx_tls.thread_idx = cv_emu::Dim{cv_x, cv_y, cv_z};\n";
  // A checked access out of range records this (cv_emu_fault_thread): a store to
  // a local the compiler drops where it proves every access in range.
  if (checked_) out += "cv_here.t = cv_t;\n";
  out += "const uint3 cv_tid{cv_x, cv_y, cv_z};\n{";
  for (const Node* c : summed_in(parts)) out += "cv_u_" + std::to_string(deferred_.at(c)) + ".c[cv_t] = 0; ";
  out += remat_prefix(id);
  for (const Part& p : parts) {
    auto o = std::find_if(once.begin(), once.end(), [&](const OnceLoop& l) { return l.loop == p.s; });
    out += o == once.end() ? part_code(p, id) : once_code(*o, id);
  }
  return out + "\n}\ncv_next_" + std::to_string(id) + ":;\n}\n";
}

// A loop run once: its variable, and the body if the condition holds.
std::string Emitter::once_code(const OnceLoop& o, int id) const {
  const Node &init = o.loop->kids[0], &cond = o.loop->kids[1], &body = o.loop->kids[3];
  const std::string test = once_full_ ? "\n" : "\nif (" + rewrite(cond.begin, cond.end, id) + ") ";
  return line_directive(o.loop->begin) + "{ " + rewrite(init.begin, statement_end(text_, init), id) + test +
         line_directive(body.begin) + rewrite(body.begin, statement_end(text_, body), id) + "\n}";
}

// Once a block: whether any thread would take a second trip of any of the
// region's loops `once`: each thread's start (and the const values it reads,
// computed again), the condition, one step, the condition again. Starts,
// conditions and steps have no effects (once_loop), so evaluating them ahead
// changes nothing, and gives what the loop itself would find.
std::string Emitter::once_check(int id, const std::vector<OnceLoop>& once) const {
  // (An integer or, not a bool's and: GCC vectorises the loop with the former.)
  const std::string flag = "cv_more_" + std::to_string(id);
  std::vector<Part> evaluated;  // the starts and the values they read
  for (const OnceLoop& o : once) {
    evaluated.push_back({Part::Whole, &o.loop->kids[0], nullptr});
    for (const Node* v : o.computed) evaluated.push_back({Part::Declarator, v, v});
  }
  std::string out = "\nunsigned long long " + flag + " = 0;";
  // Where every loop's bound and step say it of the block alone (wide_step), the pass runs only when they do not.
  std::string wide = "true", constants;
  std::set<const Node*> declared;  // the block's constants the test declares again
  std::vector<Part> block_values;
  for (const OnceLoop& o : once) {
    WideStep w;
    // (A local kept per thread across a barrier has its per-thread copy's name in the region.)
    if (!wide_step(a_, o, w) ||
        std::any_of(w.locals.begin(), w.locals.end(), [&](const Node* v) { return replicated_.count(v->usr) > 0; })) {
      wide.clear();
      break;
    }
    for (const Node* v : w.locals)
      if (declared.insert(v).second) constants += declarator(*v, id, nullptr);
    const std::string b = "(" + rewrite(w.bound->begin, w.bound->end, id) + ")",
                      st = "(" + rewrite(w.step->begin, w.step->end, id) + ")";
    wide += " && " + st + (w.inclusive ? " > " : " >= ") + b + " && " + st + " <= static_cast<" + w.type +
            ">(~static_cast<" + w.type + ">(0)) / 2";
    block_values.push_back({Part::Whole, w.bound, nullptr});
    block_values.push_back({Part::Whole, w.step, nullptr});
  }
  if (!wide.empty()) {
    // The values are the block's: any thread's coordinates give them (the first's).
    out += "\nbool cv_wide_" + std::to_string(id) + ";\n{ const uint3 cv_tid{0u, 0u, 0u}; (void)cv_tid; " + constants;
    if (needs_context(block_values)) out += " cv_emu_ctx_tls.thread_idx = cv_emu::Dim{0u, 0u, 0u};";
    out += " cv_wide_" + std::to_string(id) + " = " + wide + "; }\nif (!cv_wide_" + std::to_string(id) + ")";
  }
  out += kThreadLoop;
  if (needs_context(evaluated)) out += "cv_emu_ctx_tls.thread_idx = cv_emu::Dim{cv_x, cv_y, cv_z};\n";
  out += "(void)cv_t;\nconst uint3 cv_tid{cv_x, cv_y, cv_z};\n";
  for (const OnceLoop& o : once) {
    const Node &init = o.loop->kids[0], &cond = o.loop->kids[1], &inc = o.loop->kids[2];
    const std::string c = rewrite(cond.begin, cond.end, id);
    out += "{";
    for (const Node* v : o.computed) out += declarator(*v, id, nullptr);
    out += line_directive(o.loop->begin) + rewrite(init.begin, statement_end(text_, init), id) +
           "\nbool cv_again = false; if (" + c + ") { " + rewrite(inc.begin, inc.end, id) + "; cv_again = " + c +
           "; } " + flag + " |= cv_again;\n}";
  }
  return out + "\n}\n";
}

// Whether a region calls something that reads the running thread's
// coordinates from the emulator's context (then each loop step puts them there).
bool Emitter::needs_context(const std::vector<Part>& parts) const {
  bool need = false;
  for (const Part& p : parts)
    each(p.mode == Part::Declarator ? *p.var : *p.s, [&](const Node& n) {
      if (n.kind == K::Call && !clones_.count(n.ref) && a_.touches_thread_index(n)) need = true;
    });
  return need;
}

// Helpers the kernel calls that only compute from their arguments and the
// thread's coordinates (cv::global_index, a student's `gid()`): copied with
// those as parameters, so the loops read them from registers, not from the
// emulator's context. Leaves only: a copy calls nothing that would need one.
void Emitter::find_clones() {
  std::map<std::string, std::string> texts;  // header file -> its text
  each(*a_.body, [&](const Node& n) {
    if (n.kind != K::Call || clones_.count(n.ref) || !a_.pure_call(n, true)) return;
    auto f = a_.tree->functions.find(n.ref);
    if (f == a_.tree->functions.end() || !f->second.has_body || f->second.system || !f->second.free_function) return;
    const Function& fn = f->second;
    bool leaf = true, coordinates = false;  // calls nothing that would need a copy; reads the coordinates
    each(fn.def, [&](const Node& k) {
      leaf = leaf && (k.kind != K::Call || a_.pure_call(k, false));
      coordinates = coordinates || (k.kind == K::DeclRef && k.name == "cv_emu_ctx_tls");
    });
    if (!leaf || !coordinates) return;
    if (!texts.count(fn.file)) {
      std::ifstream in(dir_ + "/" + fn.file, std::ios::binary);
      std::ostringstream s;
      s << in.rdbuf();
      texts[fn.file] = s.str();
    }
    const std::string& t = texts[fn.file];
    if (fn.at_end > t.size() || fn.at_body <= fn.at_name || fn.at_name < fn.at_begin) return;
    std::string head = t.substr(fn.at_begin, fn.at_body - fn.at_begin);
    if (head.find("template") != std::string::npos || head.find("extern") != std::string::npos) return;
    const std::string name = "cv_fisfn_" + std::to_string(clones_.size());
    const size_t at = fn.at_name - fn.at_begin, open = head.find('(', at), close = head.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open) return;
    const bool params = head.find_first_not_of(" \t\n", open + 1) != close;
    head.insert(close, std::string(params ? ", " : "") +
                           "const uint3& cv_tid, const uint3& cv_bi, const uint3& cv_bd, const uint3& cv_gd");
    head.replace(at, fn.def.name.size(), name);
    std::string body = t.substr(fn.at_body, fn.at_end - fn.at_body);
    const std::string code = code_only(body);
    std::vector<std::pair<size_t, std::pair<size_t, std::string>>> swaps;  // at -> (length, with)
    auto ident = [&](size_t p) { return p < code.size() && (std::isalnum(static_cast<unsigned char>(code[p])) || code[p] == '_'); };
    for (const auto& [word, local] : {std::pair<std::string, std::string>{"threadIdx", "cv_tid"},
                                      {"blockIdx", "cv_bi"}, {"blockDim", "cv_bd"}, {"gridDim", "cv_gd"}})
      for (size_t p = code.find(word); p != std::string::npos; p = code.find(word, p + word.size()))
        if (!(p > 0 && ident(p - 1)) && !ident(p + word.size())) swaps.push_back({p, {word.size(), local}});
    std::sort(swaps.rbegin(), swaps.rend());  // from the end: earlier offsets stay true
    for (const auto& [p, w] : swaps) body.replace(p, w.first, w.second);
    std::string open_ns, close_ns;
    for (const std::string& ns : fn.namespaces) open_ns += "namespace " + ns + " { ", close_ns += "} ";
    const long line = 1 + std::count(t.begin(), t.begin() + fn.at_begin, '\n');
    clone_code_ += "\n#line " + std::to_string(line) + " \"" + fn.file + "\"\n" + open_ns + "static " + head + body +
                   " " + close_ns + "\n";
    clones_[n.ref] = name;
  });
}

// The deferred sums are a worker's, kept across the blocks of its range (a
// thread_local of the block function) and made at its last block: one
// atomic a range instead of one a block, whose cache line both cores would
// otherwise pass back and forth (count3 at 4,096 blocks: as long as its loops).
std::string Emitter::flushes() const {
  std::string f;
  for (const auto& [call, k] : deferred_) f += "cv_fis_flush(cv_d_" + std::to_string(k) + "); ";
  return f.empty() ? f : "if (cv_emu_ctx_tls.last_block) { " + f + "} ";
}

// atomicAdd on integers whose result nobody uses, into a buffer the kernel
// touches only that way: a block's threads' adds are summed and made as one
// atomic after a worker's blocks (flushes()). Exact (integer sums), and no
// thread can tell: nothing reads that buffer while the kernel runs.
void Emitter::find_deferred() {
  std::map<std::string, int> uses, atomic_uses;  // parameter USR -> references, of them as such a target
  std::vector<std::pair<const Node*, std::string>> sites;
  auto root = [](const Node& arg) -> const Node* {
    const Node* p = &strip(arg);
    if (p->kind == K::Unary && p->op == "&" && !p->kids.empty()) p = &strip(p->kids[0]);
    if ((p->kind == K::Call && p->name == "operator[]") || p->kind == K::Subscript) p = &strip(p->kids[0]);
    return p->kind == K::DeclRef && p->ref_kind == K::Param ? p : nullptr;
  };
  std::function<void(const Node&, bool)> walk = [&](const Node& n, bool discarded) {
    if (n.kind == K::DeclRef && n.ref_kind == K::Param) ++uses[n.ref];
    const bool integer = is_integer(n.type);
    // (kids: the callee, the address, the value, and the default `line` argument, unspelt)
    const bool two_args = n.kids.size() >= 3 && n.kids[2].main && (n.kids.size() == 3 || !n.kids[3].main);
    const std::optional<Through> helper = discarded && n.kind == K::Call ? atomic_helper(n) : std::nullopt;
    if (discarded && n.kind == K::Call &&
        ((n.name == "atomicAdd" && n.ref_file == "cudaviz_emu.h" && integer) || helper) && two_args &&
        !shared_rooted(n.kids[1]) && strip(n.kids[0]).ref_offset)
      if (const Node* r = root(n.kids[1])) {
        ++atomic_uses[r->ref];
        sites.push_back({&n, r->ref});
        if (helper) through_[&n] = *helper;
      }
    // A value is discarded as a statement's whole expression, and so is what a
    // parenthesis, an implicit conversion or a cast in that place holds
    // (`(void)atomicAdd(...)`).
    const bool wrapper = n.kind == K::Paren || n.kind == K::Unexposed || n.kind == K::Cast;
    for (const Node& k : n.kids) walk(k, n.kids.size() == 1 && (n.kind == K::ExprStmt || (discarded && wrapper)));
  };
  walk(*a_.body, false);
  for (const auto& [call, param] : sites)
    if (uses[param] == atomic_uses[param]) deferred_[call] = static_cast<int>(deferred_.size());
    else through_.erase(call);
}

// `f(a, v)` where f's whole body is `atomicAdd(a', v');` of an integer type,
// a' and v' its two parameters (through casts): the reduce template's
// `atomic_add(long long*, long long)`, which adds the two's-complement bits.
// Deferred as that atomic, the arguments converted as the call and the casts would.
std::optional<Emitter::Through> Emitter::atomic_helper(const Node& call) const {
  auto f = a_.tree->functions.find(call.ref);
  if (f == a_.tree->functions.end() || !f->second.has_body || f->second.system) return std::nullopt;
  const Node& def = f->second.def;
  if (def.kids.size() != 3 || def.kids[0].kind != K::Param || def.kids[1].kind != K::Param ||
      def.kids[2].kind != K::Compound || def.kids[2].kids.size() != 1)
    return std::nullopt;
  const Node& s = def.kids[2].kids[0];
  if (s.kind != K::ExprStmt || s.kids.size() != 1) return std::nullopt;
  const Node& atomic = strip(s.kids[0]);
  if (atomic.kind != K::Call || atomic.name != "atomicAdd" || atomic.ref_file != "cudaviz_emu.h" ||
      !is_integer(atomic.type) || atomic.kids.size() < 3)
    return std::nullopt;
  const Node &a = strip(atomic.kids[1]), &v = strip(atomic.kids[2]);
  if (a.kind != K::DeclRef || a.ref != def.kids[0].usr || v.kind != K::DeclRef || v.ref != def.kids[1].usr ||
      !def.kids[0].is_pointer)
    return std::nullopt;
  return Through{atomic.type, def.kids[0].type, def.kids[1].type};
}

Emitter::Wrap Emitter::address_wrap(const Node& call) const {
  auto t = through_.find(&call);
  if (t == through_.end()) return {};
  return {"reinterpret_cast<" + t->second.type + "*>(static_cast<" + t->second.address + ">(", "))"};
}

Emitter::Wrap Emitter::value_wrap(const Node& call) const {
  auto t = through_.find(&call);
  if (t == through_.end()) return {};
  return {"static_cast<" + t->second.value + ">(", ")"};
}

// `if (c) atomicAdd(a, v);` (no else, nothing else under it, its result
// unused), whose address is the same for the whole block and needs no
// condition to be taken: the atomic's call, else null. Either a deferred one
// (P a parameter: a = &P[e] with e uniform, or P), or an integer one on a
// __shared__ S (a = &S or &S[e] with e uniform: a plain add, where + 0 changes
// nothing). Its condition holds no warp operation (the statement is not split
// around one).
const Node* Emitter::branch_free_site(const Node& s) const {
  if (s.kids.size() != 2 || !a_.warp_calls(s.kids[0]).empty()) return nullptr;
  const Node* then = &s.kids[1];
  if (then->kind == K::Compound && then->kids.size() == 1) then = &then->kids[0];
  if (then->kind != K::ExprStmt || then->kids.size() != 1) return nullptr;
  const Node& call = strip(then->kids[0]);
  if (call.kind != K::Call || call.kids.size() < 3 || !call.kids[1].main || !call.kids[2].main) return nullptr;
  const bool deferred = deferred_.count(&call) > 0;
  const bool shared = !deferred && call.name == "atomicAdd" && call.ref_file == "cudaviz_emu.h" &&
                      shared_rooted(call.kids[1]) && is_integer(call.type);
  if (!deferred && !shared) return nullptr;
  const Node* p = &strip(call.kids[1]);
  const bool address_of = p->kind == K::Unary && p->op == "&" && !p->kids.empty();
  if (address_of) p = &strip(p->kids[0]);
  if (p->kind == K::DeclRef) return deferred == (p->ref_kind == K::Param) && (deferred || address_of) ? &call : nullptr;
  if (!((p->kind == K::Call && p->name == "operator[]") || p->kind == K::Subscript) || p->kids.empty()) return nullptr;
  const Node& root = strip(p->kids[0]);
  if (root.kind != K::DeclRef || (deferred && root.ref_kind != K::Param) || (shared && !address_of)) return nullptr;
  for (size_t i = shared ? 1 : 0; i < p->kids.size(); ++i)  // (a __shared__ array is no uniform value)
    if (!a_.uniform_expr(p->kids[i])) return nullptr;
  return &call;
}

// A branch-free site outside the thread's own loops whose address has no call
// (it is made after the loop over threads, where only block values exist):
// summed over the threads without its address (cv_fis_usum).
const Node* Emitter::summed_site(const Node& s, bool in_loop) const {
  if (in_loop) return nullptr;
  const Node* call = branch_free_site(s);
  if (!call || !deferred_.count(call)) return nullptr;
  const Node& a = strip(call->kids[1]);
  if (a.kind != K::Unary) return call;  // P, a pointer parameter (branch_free_site: else &P[e])
  const Node& sub = strip(a.kids[0]);  // P[e]: its operator[] is the one call allowed
  bool calls = false;
  for (size_t i = 1; i < sub.kids.size(); ++i) each(sub.kids[i], [&](const Node& n) { calls = calls || n.kind == K::Call; });
  return calls ? nullptr : call;
}

// After a region's loop over threads: each summed site in it makes its access
// once, for the first thread whose condition held, and adds the sum.
std::vector<const Node*> Emitter::summed_in(const std::vector<Part>& parts) const {
  std::vector<const Node*> sites;
  std::function<void(const Node&)> walk = [&](const Node& n) {
    if (n.kind == K::For || n.kind == K::While || n.kind == K::Do || n.kind == K::Lambda) return;
    if (n.kind == K::If && n.main)
      if (const Node* c = summed_site(n, false)) sites.push_back(c);
    for (const Node& k : n.kids) walk(k);
  };
  for (const Part& p : parts)
    if (p.mode == Part::Whole) walk(*p.s);
  return sites;
}

// Each thread's condition is stored at the region's top as false (so a thread
// that does not reach the site leaves no stale true) and where the site is.
// A thread done before the region writes nothing: the scan skips it. (A min
// of the indexes whose condition held, kept instead, stopped GCC 12
// vectorising count3's loop: 0.39 -> 2.2 ms.)
std::string Emitter::summed_takes(const std::vector<Part>& parts) const {
  std::string code;
  for (const Node* c : summed_in(parts)) {
    const std::string k = std::to_string(deferred_.at(c)), u = "cv_u_" + k;
    const Node& addr = c->kids[1];
    code += "\nif (" + u + ".any) { unsigned cv_f = 0; while (!" + u + ".c[cv_f]" +
            (tracking_ ? " || cv_done[cv_f]" : "") + ") ++cv_f;" + (checked_ ? " cv_here.t = cv_f;" : " (void)cv_f;") +
            " cv_fis_defer_add(cv_d_" + k + ", " +
            address_wrap(*c)(line_directive(addr.begin) + rewrite(addr.begin, addr.end, -1)) + ", " + u + ".v);\n" +
            u + ".v = 0; " + u + ".any = 0; }";
  }
  return code;
}

// The code a warp call's operands become before the exchange: posted in the thread's slot.
std::string warp_pre_code(const Node& c, const std::vector<std::string>& args, const std::string& slot);

std::string Emitter::part_code(const Part& p, int region) {
  const Node& s = *p.s;
  const Calls calls = p.mode == Part::Post || p.mode == Part::Pre ? a_.warp_calls(s) : Calls{};
  const Calls* warp = p.mode == Part::Post ? &calls : nullptr;
  if (p.mode == Part::Declarator) return declarator(*p.var, region, nullptr);
  if (p.mode == Part::Pre) {
    std::string code;
    for (size_t k = 0; k < calls.size(); ++k) {
      const Node& c = *calls[k];
      std::vector<std::string> args;
      for (size_t i = 1; i < c.kids.size(); ++i)
        if (c.kids[i].main && c.kids[i].begin >= c.kids[0].end)
          args.push_back("(" + rewrite(c.kids[i].begin, c.kids[i].end, region) + ")");
      code += line_directive(c.begin) + warp_pre_code(c, args, "cv_slots_" + std::to_string(k) + "[cv_t]");
    }
    return code;
  }
  bool split = false;
  if (s.kind == K::DeclStmt)
    for (const Node& v : s.kids) split = split || replicated_.count(v.usr);
  if (!split) return line_directive(s.begin) + rewrite(s.begin, statement_end(text_, s), region, warp);
  std::string out;
  for (const Node& v : s.kids)
    if (v.kind == K::Var && !v.is_static) out += declarator(v, region, warp);
  return out;
}

// One variable of a declaration, alone: a per-thread copy's store, or its own declaration.
std::string Emitter::declarator(const Node& v, int region, const Calls* warp) const {
  const std::string init = init_text(v, region, warp);
  if (!replicated_.count(v.usr))
    return line_directive(v.name_begin) + "cv_emu::Id<" + v.type + "> " + v.name + init + ";";
  if (init.empty()) return "";
  std::string nc = v.type;
  if (v.is_const && nc.rfind("const ", 0) == 0) nc = nc.substr(6);
  else if (v.is_const && nc.size() > 6 && nc.compare(nc.size() - 6, 6, " const") == 0) nc.resize(nc.size() - 6);
  return line_directive(v.name_begin) + "{ cv_emu::Id<" + nc + "> cv_init" + init + "; cv_fis_put(cv_r_" +
         std::to_string(replicated_.at(v.usr)) + "[cv_t], cv_init); }";
}

// What follows a variable's name in its declaration (array bounds skipped): " = x", "(a, b)", "{...}".
std::string Emitter::init_text(const Node& v, int region, const Calls* warp) const {
  unsigned at = v.name_begin + static_cast<unsigned>(v.name.size());
  while (at < v.end) {
    while (at < v.end && std::isspace(static_cast<unsigned char>(text_[at]))) ++at;
    if (at >= v.end || text_[at] != '[') break;
    int depth = 0;
    do {
      depth += text_[at] == '[' ? 1 : text_[at] == ']' ? -1 : 0;
      ++at;
    } while (at < v.end && depth > 0);
  }
  return at >= v.end ? "" : " " + rewrite(at, v.end, region, warp);
}

void Emitter::note_uses(const Part& p, int region) {
  const Calls calls = a_.warp_calls(*p.s);
  auto note = [&](const Node& n, bool lambda) {
    if (n.kind == K::Var && a_.locals.count(n.usr)) uses_[n.usr].insert(region), decl_region_[n.usr] = region;
    if (n.kind != K::DeclRef || !a_.locals.count(n.ref)) return;
    uses_[n.ref].insert(region);
    if (lambda) in_lambda_.insert(n.ref);
    if (!n.ref_offset) unwritable_.insert(n.ref);
  };
  std::function<void(const Node&, bool, bool)> walk = [&](const Node& n, bool lambda, bool in_call) {
    const bool call = in_call || std::find(calls.begin(), calls.end(), &n) != calls.end();
    const bool take = p.mode == Part::Whole || p.mode == Part::Declarator ||
                      (p.mode == Part::Pre ? call : !call);
    if (take) note(n, lambda);
    for (const Node& k : n.kids) walk(k, lambda || n.kind == K::Lambda, call);
  };
  walk(p.mode == Part::Declarator ? *p.var : *p.s, false, false);
}

bool Emitter::choose_replicated(std::string& why, int& line) {
  size_t bytes = 0;
  std::vector<const Node*> order;  // in declaration order: a value computed again may use earlier ones
  for (const auto& [usr, regions] : uses_) order.push_back(a_.locals.at(usr));
  std::sort(order.begin(), order.end(), [](const Node* x, const Node* y) { return x->begin < y->begin; });
  for (const Node* vp : order) {
    const Node& v = *vp;
    const std::string& usr = v.usr;
    if (uses_[usr].size() < 2 || v.is_static || a_.uniform.count(usr)) continue;
    if (rematerialisable(v)) {
      remat_.insert(usr);
      continue;
    }
    std::string bad;
    if (v.is_reference) bad = "is a reference";
    else if (!v.is_pod || v.size <= 0) bad = "has a type with constructors (not plain data)";
    else if (v.type_in_body) bad = "has a type declared inside the kernel";
    else if (in_lambda_.count(usr)) bad = "is used inside a lambda";
    else if (unwritable_.count(usr) || !v.name_begin) bad = "is used inside a macro";
    if (!bad.empty()) {
      why = "the variable '" + v.name + "' (line " + std::to_string(v.line) + ") lives across a barrier and " + bad;
      line = v.line;
      return false;
    }
    bytes += static_cast<size_t>(v.size) * kMaxThreads;
    replicated_[usr] = static_cast<int>(replicated_.size());
  }
  if (bytes > kMaxReplicatedBytes) {
    why = "the variables that live across barriers need " + std::to_string(bytes >> 10) +
          " KiB for 1024 threads (the fast path keeps at most " + std::to_string(kMaxReplicatedBytes >> 10) + ")";
    return false;
  }
  return true;
}

// A const local whose value follows from the thread's index, the block's and
// the parameters alone (`t = threadIdx.x + ...`): each region that reads it
// computes it again instead of keeping a copy per thread (the loops then
// stay plain arithmetic the compiler can vectorise).
bool Emitter::rematerialisable(const Node& v) const {
  if (!v.is_const || v.is_array || v.is_reference || !v.is_pod || v.type_in_body || !v.name_begin) return false;
  const Node* init = nullptr;
  for (const Node& k : v.kids)
    if (k.kind >= K::DeclRef) init = &k;
  return init && remat_expr(*init);
}

bool Emitter::remat_expr(const Node& e) const {
  switch (e.kind) {
    case K::Literal: case K::SizeOf:
      return true;
    case K::DeclRef:
      if (e.ref_kind == K::Param || e.ref_kind == K::Function || e.ref_kind == K::Other) return true;
      if (e.ref_kind != K::Var) return false;
      if (!a_.locals.count(e.ref)) return e.is_const;
      return remat_.count(e.ref) || (a_.uniform.count(e.ref) && a_.locals.at(e.ref)->is_const);
    case K::MemberRef:
      if (e.arrow || e.kids.empty()) return false;
      if (strip(e.kids[0]).kind == K::DeclRef && strip(e.kids[0]).name == "cv_emu_ctx_tls")
        return e.name == "thread_idx" || e.name == "block_idx" || e.name == "block_dim" || e.name == "grid_dim";
      break;
    case K::Unary:
      if (e.op == "*" || e.op == "&" || e.op == "++" || e.op == "--") return false;
      break;
    case K::Binary:
      if (e.op == "=") return false;
      break;
    case K::Call:
      if (!a_.pure_call(e, true)) return false;
      break;
    case K::Paren: case K::Cast: case K::Unexposed: case K::Conditional: case K::InitList:
      break;
    default:
      return false;
  }
  for (const Node& k : e.kids)
    if (!remat_expr(k)) return false;
  return true;
}

// The values computed again that a region reads but does not declare, and
// those they are computed from, in declaration order.
std::vector<const Node*> Emitter::remat_vars(int region) const {
  std::set<std::string> need;
  std::function<void(const std::string&)> add = [&](const std::string& usr) {
    if (decl_region_.count(usr) && decl_region_.at(usr) == region) return;
    if (!need.insert(usr).second) return;
    each(*a_.locals.at(usr), [&](const Node& n) {
      if (n.kind == K::DeclRef && remat_.count(n.ref)) add(n.ref);
    });
  };
  for (const std::string& usr : remat_)
    if (uses_.at(usr).count(region)) add(usr);
  std::vector<const Node*> vs;
  for (const std::string& usr : need) vs.push_back(a_.locals.at(usr));
  std::sort(vs.begin(), vs.end(), [](const Node* x, const Node* y) { return x->begin < y->begin; });
  return vs;
}

std::string Emitter::remat_prefix(int region) const {
  std::string p;
  for (const Node* v : remat_vars(region))
    p += line_directive(v->name_begin) + "cv_emu::Id<" + v->type + "> " + v->name + init_text(*v, region, nullptr) + ";";
  return p;
}

// A hoisted __shared__ or static declaration. An `extern __shared__ T a[]`
// becomes a pointer into the block's dynamic shared memory (defined before
// this code, build.cpp): through the extern declaration every access would
// call its thread_local wrapper, and a loop with a call does not vectorise.
std::string Emitter::static_declaration(const Node& s) const {
  const std::string as_written = text_.substr(s.begin, statement_end(text_, s) - s.begin);
  if (s.kids.size() != 1 || s.kids[0].kind != K::Var || !s.kids[0].is_extern) return as_written;
  const Node& v = s.kids[0];
  std::string element = v.type;
  while (!element.empty() && element.back() == ' ') element.pop_back();
  if (element.size() < 3 || element.compare(element.size() - 2, 2, "[]") != 0) return as_written;
  element.resize(element.size() - 2);
  if (element.find_first_of("[]") != std::string::npos) return as_written;
  return element + "* const " + v.name + " = reinterpret_cast<" + element + "*>(cv_emu_dynamic_shared);";
}

std::string Emitter::prologue(const std::string& name) {
  // cv_1d: blocks of one row (y = z = 1): the loops over y and z vanish and the
  // thread's flat index is its x: one loop over x with less index arithmetic
  // (one A/B at -O2: count3_shared 1.75 -> 0.96 ms, the swarm 0.83 -> 0.55);
  // at -O3 the compiler also splits a tree's `t < half` loop there.
  std::string p = "\ntemplate <bool cv_1d> static void cv_fis_" + name + "(";
  for (size_t i = 0; i < a_.params.size(); ++i)
    p += (i ? ", " : "") + text_.substr(a_.params[i]->begin, a_.params[i]->end - a_.params[i]->begin);
  p += ") {\nconst uint3 cv_bd = cv_1d ? uint3{cv_emu_ctx_tls.block_dim.x, 1u, 1u} : cv_emu_ctx_tls.block_dim, "
       "cv_bi = cv_emu_ctx_tls.block_idx, cv_gd = cv_emu_ctx_tls.grid_dim;\n";
  if (checked_) p += "cv_fis_here cv_here;\n";
  for (const Node* s : statics_) p += line_directive(s->begin) + static_declaration(*s);
  p += "\n";
  for (const auto& [usr, k] : replicated_) {
    const Node& v = *a_.locals.at(usr);
    std::string nc = v.type;
    if (v.is_const && nc.rfind("const ", 0) == 0) nc = nc.substr(6);
    p += "cv_emu::Id<" + nc + "> cv_r_" + std::to_string(k) + "[" + std::to_string(kMaxThreads) + "];\n";
  }
  if (tracking_)
    p += "unsigned char cv_done[" + std::to_string(kMaxThreads) +
         "];\nfor (unsigned i = 0; i < cv_bd.x * cv_bd.y * cv_bd.z; ++i) cv_done[i] = 0;\nunsigned cv_live = cv_bd.x;\n";
  for (size_t i = 0; i < most_warp_calls_; ++i)
    p += "cv_emu::LaneSlot cv_slots_" + std::to_string(i) + "[" + std::to_string(kMaxThreads) + "];\n";
  for (const auto& [call, k] : deferred_) {
    auto t = through_.find(call);
    const std::string type = t == through_.end() ? call->type : t->second.type;
    // A range's first block starts from nothing (a failed launch may have left a sum).
    p += "static thread_local cv_fis_defer<" + type + "> cv_d_" + std::to_string(k) +
         ";\nif (cv_emu_ctx_tls.first_block) cv_d_" + std::to_string(k) + " = {};\ncv_fis_usum<" + type + "> cv_u_" +
         std::to_string(k) + ";\n";
  }
  return p;
}

bool Emitter::run(const std::string& name, Emitted& out) {
  tracking_ = a_.thread_exits && (a_.has_sync || a_.nested_loops);
  std::set<std::string> names;
  std::function<void(const Node&)> statics = [&](const Node& n) {
    if (n.kind == K::DeclStmt && !n.kids.empty() &&
        std::all_of(n.kids.begin(), n.kids.end(), [](const Node& v) { return v.kind == K::Var && v.is_static; })) {
      statics_.push_back(&n);
      for (const Node& v : n.kids) {
        if (!names.insert(v.name).second) out.why = "two __shared__ or static variables are named '" + v.name + "'";
      }
      return;
    }
    for (const Node& k : n.kids) statics(k);
  };
  statics(*a_.body);
  for (const auto& [usr, v] : a_.locals)
    if (v->is_static && std::none_of(statics_.begin(), statics_.end(), [&](const Node* s) {
          return std::any_of(s->kids.begin(), s->kids.end(), [&](const Node& x) { return x.usr == usr; });
        }))
      out.why = "the static variable '" + v->name + "' is declared beside other variables";
  if (!out.why.empty()) return false;
  find_deferred();
  find_clones();
  dry_ = true;
  sequence(*a_.body);
  flush();
  if (!choose_replicated(out.why, out.line)) return false;
  dry_ = false;
  regions_ = 0;
  sequence(*a_.body);
  flush();
  out.code = clone_code_ + prologue(name) + out_ + "\n}\n";
  out.ok = true;
  return true;
}

std::string Emitter::warp_post_code(const Node& call, size_t index) const {
  return call.type == "void" ? "(void)0"
                             : "cv_fis_take<" + call.type + ">(cv_slots_" + std::to_string(index) + "[cv_t])";
}

std::string warp_pre_code(const Node& c, const std::vector<std::string>& a, const std::string& slot) {
  auto arg = [&](size_t i, const char* fallback) { return i < a.size() ? a[i] : std::string(fallback); };
  const std::string line = std::to_string(c.line);
  const std::string& n = c.name;
  if (n == "__syncwarp") return "cv_fis_post(" + slot + ", cv_emu::kSyncWarp, " + arg(0, "0xffffffffu") + ", 0ull, 0, 32, " + line + ");";
  if (n == "__activemask") return "cv_fis_post(" + slot + ", cv_emu::kActiveMask, 0xffffffffu, 0ull, 0, 32, " + line + ");";
  if (n == "__ballot_sync" || n == "__any_sync" || n == "__all_sync") {
    const std::string op = n == "__ballot_sync" ? "kBallot" : n == "__any_sync" ? "kAny" : "kAll";
    return "cv_fis_post(" + slot + ", cv_emu::" + op + ", " + arg(0, "0") + ", (" + arg(1, "0") +
           ") ? 1ull : 0ull, 0, 32, " + line + ");";
  }
  const std::string op = n == "__shfl_sync" ? "kShfl" : n == "__shfl_up_sync" ? "kShflUp"
                         : n == "__shfl_down_sync" ? "kShflDown" : "kShflXor";
  return "cv_fis_post(" + slot + ", cv_emu::" + op + ", " + arg(0, "0") + ", cv_fis_bits(" + arg(1, "0") +
         "), static_cast<int>(" + arg(2, "0") + "), " + arg(3, "32") + ", " + line + ");";
}

}  // namespace

Emitted emit_kernel(const Analysis& a, const std::string& name, const std::string& file_name, size_t student_start,
                    const std::string& dir, bool checked) {
  Emitted out;
  Emitter e(a, file_name, student_start, dir, checked);
  e.run(name, out);
  return out;
}

}  // namespace cv::emu::fission

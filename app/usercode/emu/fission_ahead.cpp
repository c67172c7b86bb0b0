// Span accesses tested before their loop instead of at each step (fission_ahead.h).
#include "usercode/emu/fission_ahead.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <exception>
#include <functional>
#include <set>
#include <string>

#include "usercode/emu/fission_once.h"

namespace cv::emu::fission {

const Node* root_local(const Node& e) {
  const Node& s = strip(e);
  if (s.kind == K::DeclRef) return s.ref_kind == K::Var ? &s : nullptr;
  if ((s.kind == K::MemberRef && !s.arrow) || (s.kind == K::Subscript && strip(s.kids.at(0)).is_array))
    return s.kids.empty() ? nullptr : root_local(s.kids[0]);
  return nullptr;
}

// Locals the statements may change or declare: such a local's value before
// the loop over threads is not the one an access inside sees.
std::set<std::string> changed_locals(const std::vector<const Node*>& statements) {
  std::set<std::string> out;
  for (const Node* s : statements)
    each(*s, [&](const Node& n) {
      const Node* r = nullptr;
      if ((n.kind == K::Binary && n.op == "=") || n.kind == K::CompoundAssign ||
          (n.kind == K::Unary && (n.op == "++" || n.op == "--" || n.op == "&")))
        r = n.kids.empty() ? nullptr : root_local(n.kids[0]);
      if (r) out.insert(r->ref);
      if (n.kind == K::Var) out.insert(n.usr);
      if (n.kind == K::Call)  // passed by reference (a const one may still be cast away: any reference)
        for (size_t i = 0; i < n.param_ref.size() && i + 1 < n.kids.size(); ++i)
          if (!n.param_ref[i].empty())
            if (const Node* a = root_local(n.kids[i + 1])) out.insert(a->ref);
      if (n.kind == K::Lambda)  // what a lambda reaches, it may change
        each(n, [&](const Node& x) {
          if (x.kind == K::DeclRef && x.ref_kind == K::Var) out.insert(x.ref);
        });
    });
  return out;
}

namespace {

// An integer literal's value (decimal, hex, octal; suffixes allowed), or false.
bool literal_value(const Node& e, const std::string& text, long long& v) {
  const Node& s = strip(e);
  if (s.kind != K::Literal || s.end <= s.begin || s.end > text.size()) return false;
  std::string t = text.substr(s.begin, s.end - s.begin);
  while (!t.empty() && std::strchr("uUlL", t.back())) t.pop_back();
  if (t.empty() || t.find_first_of(".eEpP'") != std::string::npos) return false;
  try {
    size_t used = 0;
    const unsigned long long u = std::stoull(t, &used, 0);
    if (used != t.size() || u > (1ull << 40)) return false;
    v = static_cast<long long>(u);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

// A division or remainder whose divisor may be zero (anything but a literal
// other than 0): computed ahead for a thread that never evaluates it, it could trap.
bool risky_division(const Node& n, const std::string& text) {
  long long d = 0;
  return n.kind == K::Binary && (n.op == "/" || n.op == "%") &&
         !(n.kids.size() == 2 && literal_value(n.kids[1], text, d) && d != 0);
}

}  // namespace

// E computed again before its loop (over threads, or a thread's own) gives
// what E gives where it stands, at no risk: no call, memory or effect, no
// local in `changed` (with `uniform`, only uniform locals), no division by
// something that may be zero in a thread that never evaluates E.
bool pure_operator(const Node& e, const std::string& text) {
  switch (e.kind) {
    case K::Literal: case K::SizeOf: case K::Paren: case K::Cast: case K::Unexposed: case K::Conditional:
      return true;
    case K::MemberRef:
      return !e.arrow;
    case K::Unary:
      return e.op == "-" || e.op == "+" || e.op == "~" || e.op == "!";
    case K::Binary:
      return e.op != "=" && e.op != "," && !risky_division(e, text);
    default:
      return false;
  }
}

bool recomputable(const Analysis& a, const Node& e, const std::set<std::string>& changed, bool uniform) {
  if (e.kind == K::DeclRef) {
    if (e.ref_kind == K::Param) return true;
    if (e.ref_kind == K::Var)
      return a.locals.count(e.ref) && !changed.count(e.ref) && !a.locals.at(e.ref)->is_static &&
             (!uniform || a.uniform.count(e.ref));
    return e.ref_kind == K::Other;  // enumerators, template constants
  }
  if (!pure_operator(e, a.tree->text)) return false;
  for (const Node& k : e.kids)
    if (!recomputable(a, k, changed, uniform)) return false;
  return true;
}

bool span_parameter(const Node& n) {
  return n.kind == K::DeclRef && n.ref_kind == K::Param && n.type.rfind("cv::Span<", 0) == 0 && !n.is_reference;
}

std::string between(const std::string& text, unsigned b, unsigned e) {
  std::string s;
  for (unsigned i = b; i < e && i < text.size(); ++i)
    if (!std::isspace(static_cast<unsigned char>(text[i]))) s += text[i];
  return b <= e ? s : "?";
}

bool divides_by_variable(const Node& e, const std::string& text) {
  bool r = false;
  each(e, [&](const Node& n) { r = r || risky_division(n, text); });
  return r;
}

// P[i], P[i + c], P[c + i], P[i - c]: the offset c (signed), or false.
bool index_offset(const Node& index, const std::string& usr, const std::string& text, long long& offset) {
  const Node& s = strip(index);
  if (refers_to(s, usr)) return offset = 0, true;
  if (s.kind != K::Binary || s.kids.size() != 2 || (s.op != "+" && s.op != "-")) return false;
  long long c = 0;
  if (refers_to(s.kids[0], usr) && literal_value(s.kids[1], text, c)) return offset = s.op == "+" ? c : -c, true;
  if (s.op == "+" && refers_to(s.kids[1], usr) && literal_value(s.kids[0], text, c)) return offset = c, true;
  return false;
}

bool range_loop(const Analysis& a, const Node& s, RangeLoop& out) {
  if (s.kind != K::For || s.kids.size() != 4 || !s.main) return false;
  const Node &init = s.kids[0], &cond = strip(s.kids[1]), &inc = strip(s.kids[2]), &body = s.kids[3];
  if (init.kind != K::DeclStmt || init.kids.size() != 1 || init.kids[0].kind != K::Var) return false;
  const Node& var = init.kids[0];
  if (!integer_type(var.type) || var.is_reference || var.is_static || var.kids.empty()) return false;
  const Node& start = var.kids.back();
  if (start.kind < K::DeclRef) return false;  // (an initialiser is an expression)
  // The step: ++i, i++, i += 1.
  long long one = 0;
  const bool step = (inc.kind == K::Unary && inc.op == "++" && !inc.kids.empty() && refers_to(inc.kids[0], var.usr)) ||
                    (inc.kind == K::CompoundAssign && inc.op == "+=" && inc.kids.size() == 2 &&
                     refers_to(inc.kids[0], var.usr) && literal_value(inc.kids[1], a.tree->text, one) && one == 1);
  if (!step || cond.kind != K::Binary || cond.kids.size() != 2) return false;
  const Node* bound = nullptr;
  if ((cond.op == "<" || cond.op == "<=") && refers_to(cond.kids[0], var.usr)) bound = &cond.kids[1];
  if ((cond.op == ">" || cond.op == ">=") && refers_to(cond.kids[1], var.usr)) bound = &cond.kids[0];
  if (!bound) return false;
  bool plain = true;
  each(body, [&](const Node& n) { plain = plain && n.kind != K::Goto && n.kind != K::Label && n.kind != K::Lambda; });
  if (!plain) return false;
  const std::set<std::string> changed = changed_locals({&body});
  bool reads_var = false;
  each(*bound, [&](const Node& n) { reads_var = reads_var || refers_to(n, var.usr); });
  if (changed.count(var.usr) || reads_var || !recomputable(a, *bound, changed, false)) return false;
  RangeLoop r;
  r.loop = &s, r.var = &var, r.start = &start, r.bound = bound;
  r.inclusive = cond.op == "<=" || cond.op == ">=";
  const std::string& text = a.tree->text;
  each(body, [&](const Node& n) {
    long long offset = 0;
    if (AheadAccess x; r.accesses.size() < 16 && span_access(n, text, x) && index_offset(*x.index, var.usr, text, offset))
      r.accesses.push_back({x, offset});
  });
  if (r.accesses.empty()) return false;
  out = r;
  return true;
}

bool span_access(const Node& n, const std::string& text, AheadAccess& out) {
  if (n.kind != K::Call || !n.main || n.kids.size() < 2) return false;
  const Node *span = nullptr, *index = nullptr;
  std::string open, close;
  if (n.name == "operator[]") {
    span = &strip(n.kids.front()), index = &n.kids.back(), open = "[", close = "]";
  } else if (n.name == "at") {  // P.at(E), its line argument left to its default
    const Node& callee = strip(n.kids[0]);
    if (callee.kind != K::MemberRef || callee.arrow || callee.kids.empty()) return false;
    for (size_t k = 2; k < n.kids.size(); ++k)
      if (n.kids[k].main) return false;
    span = &strip(callee.kids[0]), index = &n.kids[1], open = ".at(", close = ")";
  } else {
    return false;
  }
  if (!span_parameter(*span) || !span->main || !index->main || between(text, span->end, index->begin) != open ||
      between(text, index->end, n.end) != close)
    return false;
  out = {&n, span, index};
  return true;
}

// ThreadAccesses::all_if: `s` is `if (c) S`, c a thread value the pass can
// compute (its locals then in out.computed), S nothing but statements,
// declarations, arithmetic, assignments and the accesses the pass tests (no
// loop, exit, call or atomic, which other copies of the region treat apart).
template <class Stable>
void plain_if(const Analysis& a, const Node& s, ThreadAccesses& out, const Stable& stable) {
  if (s.kind != K::If || s.kids.size() != 2 || !s.main) return;
  std::set<const Node*> tested;
  for (const AheadAccess& x : out.accesses) tested.insert(x.call);
  bool plain = true;
  each(s.kids[1], [&](const Node& n) {
    switch (n.kind) {
      case K::Compound: case K::ExprStmt: case K::DeclStmt: case K::Var: case K::If: case K::Null:
      case K::DeclRef: case K::MemberRef: case K::Subscript: case K::Unary: case K::Binary: case K::CompoundAssign:
      case K::Conditional: case K::Paren: case K::Cast: case K::Literal: case K::InitList: case K::SizeOf:
      case K::Unexposed:
        break;
      case K::Call:
        plain = plain && tested.count(&n);
        break;
      default:
        plain = false;
    }
  });
  std::vector<const Node*> computed = out.computed;
  if (!plain || !thread_value(a, s.kids[0], computed) || !stable(s.kids[0], computed)) return;
  out.computed = computed;
  out.all_if = &s;
}

ThreadAccesses thread_accesses(const Analysis& a, const std::vector<const Node*>& statements,
                               const std::vector<AheadAccess>& skip, size_t limit) {
  ThreadAccesses out;
  const std::set<std::string> changed = changed_locals(statements);
  const std::string& text = a.tree->text;
  std::set<const Node*> skipped;
  for (const AheadAccess& x : skip) skipped.insert(x.call);
  // What an index reads that is neither computed again nor unchanged by the region.
  auto stable = [&](const Node& e, const std::vector<const Node*>& computed) {
    std::set<std::string> mine;
    for (const Node* v : computed) mine.insert(v->usr);
    bool ok = !divides_by_variable(e, text);
    each(e, [&](const Node& n) {
      if (n.kind == K::DeclRef && n.ref_kind == K::Var && a.locals.count(n.ref) && !mine.count(n.ref))
        ok = ok && !changed.count(n.ref);
    });
    return ok;
  };
  std::function<void(const Node&)> walk = [&](const Node& n) {
    if (n.kind == K::Lambda || out.accesses.size() >= limit) return;
    AheadAccess x;
    if (!skipped.count(&n) && span_access(n, text, x)) {
      std::vector<const Node*> computed = out.computed;
      if (thread_value(a, *x.index, computed) && stable(*x.index, computed)) {
        bool ok = true;
        for (const Node* v : computed)  // the initialisers the pass computes again
          if (std::find(out.computed.begin(), out.computed.end(), v) == out.computed.end())
            for (const Node& k : v->kids)
              if (k.kind >= K::DeclRef) ok = ok && stable(k, computed);
        if (ok) {
          out.accesses.push_back(x);
          out.computed = computed;
        }
      }
    }
    for (const Node& k : n.kids) walk(k);
  };
  for (const Node* s : statements) walk(*s);
  if (!out.accesses.empty()) plain_if(a, *statements.back(), out, stable);
  // The pass declares each once, in one scope: two of one name cannot be.
  std::set<std::string> names;
  for (const Node* v : out.computed)
    if (!names.insert(v->name).second) return {};
  return out;
}

std::vector<AheadAccess> ahead_accesses(const Analysis& a, const std::vector<const Node*>& statements, size_t limit) {
  std::vector<AheadAccess> out;
  const std::set<std::string> changed = changed_locals(statements);
  const std::string& text = a.tree->text;
  std::function<void(const Node&)> walk = [&](const Node& n) {
    if (n.kind == K::Lambda || out.size() >= limit) return;
    if (AheadAccess x; span_access(n, text, x) && a.uniform_expr(*x.index) && recomputable(a, *x.index, changed, true)) {
      out.push_back(x);
      return;
    }
    for (const Node& k : n.kids) walk(k);
  };
  for (const Node* s : statements) walk(*s);
  return out;
}

}  // namespace cv::emu::fission

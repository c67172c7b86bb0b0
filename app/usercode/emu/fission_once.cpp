// once_loop(): a per-thread loop the fast path may run as an `if` (fission_once.h).
#include "usercode/emu/fission_once.h"

#include "usercode/emu/fission_ahead.h"

#include <algorithm>
#include <functional>
#include <set>

namespace cv::emu::fission {
namespace {

class Reader {
 public:
  Reader(const Analysis& a, std::string var) : a_(a), var_(std::move(var)) {}

  // Without effects, reading only the loop's variable (when allowed), the
  // parameters, the block's values and pure calls; with `coordinates`, also
  // the thread's coordinates and const locals computed from them (noted).
  bool pure(const Node& e, bool var_ok, bool coordinates) {
    switch (e.kind) {
      case K::Literal: case K::SizeOf:
        return true;
      case K::DeclRef:
        if (e.ref == var_) return var_ok;
        if (e.ref_kind == K::Param || e.ref_kind == K::Function || e.ref_kind == K::Other) return true;
        if (e.ref_kind != K::Var) return false;
        if (!a_.locals.count(e.ref)) return e.is_const;
        if (a_.uniform.count(e.ref)) return true;  // set only between the loops over threads
        return coordinates && computed(*a_.locals.at(e.ref));
      case K::MemberRef:
        if (e.arrow || e.kids.empty()) return false;
        if (strip(e.kids[0]).kind == K::DeclRef && strip(e.kids[0]).name == "cv_emu_ctx_tls")
          return e.name == "block_idx" || e.name == "block_dim" || e.name == "grid_dim" ||
                 (coordinates && e.name == "thread_idx");
        break;
      case K::Unary:
        if (e.op == "*" || e.op == "&" || e.op == "++" || e.op == "--") return false;
        break;
      case K::Binary:
        if (e.op == "=" || e.op == ",") return false;
        break;
      case K::Call:
        if (!a_.pure_call(e, coordinates)) return false;
        break;
      case K::Paren: case K::Cast: case K::Unexposed: case K::Conditional:
        break;
      default:
        return false;
    }
    return std::all_of(e.kids.begin(), e.kids.end(), [&](const Node& k) { return pure(k, var_ok, coordinates); });
  }

  void note(const Node* v) { seen_.insert(v); }
  std::vector<const Node*> computed_in_order() const {
    std::vector<const Node*> v(seen_.begin(), seen_.end());
    std::sort(v.begin(), v.end(), [](const Node* x, const Node* y) { return x->begin < y->begin; });
    return v;
  }

 private:
  // A const local of plain data whose initialiser is itself such a value.
  bool computed(const Node& v) {
    if (seen_.count(&v)) return true;
    if (!v.is_const || v.is_array || v.is_reference || !v.is_pod || v.type_in_body || !v.name_begin || v.is_static)
      return false;
    const Node* init = nullptr;
    for (const Node& k : v.kids)
      if (k.kind >= K::DeclRef) init = &k;
    if (!init || !pure(*init, false, true)) return false;
    seen_.insert(&v);
    return true;
  }

  const Analysis& a_;
  std::string var_;
  std::set<const Node*> seen_;
};

// Whether `body` changes `usr` or takes its address.
bool changes(const Node& body, const std::string& usr) {
  bool r = false;
  std::function<void(const Node&)> walk = [&](const Node& n) {
    if (r) return;
    if ((n.kind == K::Binary && n.op == "=") || n.kind == K::CompoundAssign) r = refers_to(n.kids[0], usr);
    if (n.kind == K::Unary && (n.op == "++" || n.op == "--" || n.op == "&") && !n.kids.empty())
      r = r || refers_to(n.kids[0], usr);
    if (n.kind == K::Call)  // passed by reference
      for (size_t i = 1; i < n.kids.size(); ++i)
        r = r || (i - 1 < n.param_ref.size() && n.param_ref[i - 1] == "ref" && refers_to(n.kids[i], usr));
    if (n.kind == K::Lambda) r = r || true;  // a capture by reference could change it
    for (const Node& k : n.kids) walk(k);
  };
  walk(body);
  return r;
}

}  // namespace

bool once_loop(const Analysis& a, const Node& s, OnceLoop& out) {
  if (s.kind != K::For || s.kids.size() != 4) return false;
  const Node &init = s.kids[0], &cond = s.kids[1], &inc = s.kids[2], &body = s.kids[3];
  if (init.kind != K::DeclStmt || init.kids.size() != 1 || init.kids[0].kind != K::Var) return false;
  const Node& v = init.kids[0];
  if (v.is_static || v.is_reference || !integer_type(v.type)) return false;
  const Node* start = nullptr;
  for (const Node& k : v.kids)
    if (k.kind >= K::DeclRef) start = &k;
  if (!start || cond.kind == K::Null) return false;
  Reader r(a, v.usr);
  if (!r.pure(*start, false, true) || !r.pure(cond, true, false)) return false;
  // The step: ++i, i++, i += STEP (STEP of the block).
  const bool step_ok =
      (inc.kind == K::Unary && inc.op == "++" && !inc.kids.empty() && refers_to(inc.kids[0], v.usr)) ||
      (inc.kind == K::CompoundAssign && inc.op == "+=" && inc.kids.size() == 2 && refers_to(inc.kids[0], v.usr) &&
       r.pure(inc.kids[1], false, false));
  if (!step_ok || escapes(body) || changes(body, v.usr)) return false;
  out.loop = &s;
  out.computed = r.computed_in_order();
  return true;
}

namespace {

bool unsigned_type(const std::string& type) {
  const std::string t = type.rfind("const ", 0) == 0 ? type.substr(6) : type;
  return integer_type(t) && t.rfind("unsigned ", 0) == 0;
}

bool reads_a_local(const Analysis& a, const Node& e) {
  bool r = false;
  each(e, [&](const Node& n) { r = r || (n.kind == K::DeclRef && a.locals.count(n.ref)); });
  return r;
}

// The locals `e` reads, when each is a const of the block initialised
// without locals, calls, memory or effects (WideStep::locals); else false.
bool block_constants(const Analysis& a, const Node& e, std::vector<const Node*>& out) {
  bool ok = true;
  each(e, [&](const Node& n) {
    if (!ok || n.kind != K::DeclRef || !a.locals.count(n.ref)) return;
    const Node& v = *a.locals.at(n.ref);
    const Node* init = v.kids.empty() || v.kids.back().kind < K::DeclRef ? nullptr : &v.kids.back();
    ok = v.is_const && v.is_pod && !v.is_static && !v.is_reference && !v.is_array && !v.type_in_body &&
         v.name_begin && a.uniform.count(v.usr) && init && !reads_a_local(a, *init) && recomputable(a, *init, {}, false);
    if (ok && std::find(out.begin(), out.end(), &v) == out.end()) out.push_back(&v);
  });
  return ok;
}

}  // namespace

bool wide_step(const Analysis& a, const OnceLoop& o, WideStep& out) {
  const Node &var = o.loop->kids[0].kids[0], &cond = strip(o.loop->kids[1]), &inc = strip(o.loop->kids[2]);
  if (!unsigned_type(var.type) || cond.kind != K::Binary || cond.kids.size() != 2 || (cond.op != "<" && cond.op != "<=") ||
      !refers_to(cond.kids[0], var.usr) || inc.kind != K::CompoundAssign || inc.kids.size() != 2)
    return false;
  const Node &bound = strip(cond.kids[1]), &step = strip(inc.kids[1]);
  std::vector<const Node*> locals;
  if (!unsigned_type(bound.type) || !unsigned_type(step.type) || !block_constants(a, bound, locals) ||
      !block_constants(a, step, locals))
    return false;
  out = {&bound, &step, cond.op == "<=", var.type, locals};
  return true;
}

bool once_index(const Analysis& a, const OnceLoop& o, const Node& index, std::vector<const Node*>& computed) {
  Reader r(a, o.loop->kids[0].kids[0].usr);
  for (const Node* v : computed) r.note(v);
  if (divides_by_variable(index, a.tree->text) || !r.pure(index, true, true)) return false;
  computed = r.computed_in_order();
  return true;
}

bool thread_value(const Analysis& a, const Node& e, std::vector<const Node*>& computed) {
  Reader r(a, "");
  for (const Node* v : computed) r.note(v);
  if (!r.pure(e, false, true)) return false;
  computed = r.computed_in_order();
  return true;
}

}  // namespace cv::emu::fission

// analyse(): uniform values, sync statements and the fast path's limits (fission_plan.h).
#include "usercode/emu/fission_plan.h"

#include <algorithm>
#include <functional>

namespace cv::emu::fission {
namespace {

constexpr const char* kPrelude = "cudaviz_emu.h";

// Functions of system headers that only compute from their arguments.
bool pure_library_function(std::string n) {
  if (n.rfind("std::", 0) == 0) n = n.substr(5);
  static const char* const kNames[] = {
      "sqrt", "cbrt", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
      "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "fabs", "abs", "labs", "llabs",
      "floor", "ceil", "round", "trunc", "rint", "nearbyint", "fmin", "fmax", "fma", "fmod", "remainder",
      "copysign", "hypot", "erf", "erfc", "isnan", "isinf", "isfinite", "signbit", "min", "max", "fdim"};
  for (const char* k : kNames) {
    const std::string s = k;
    if (n == s || n == s + "f" || n == s + "l") return true;
  }
  return false;
}

bool is_ctx_ref(const Node& e) {
  const Node& s = strip(e);
  return s.kind == K::DeclRef && s.name == "cv_emu_ctx_tls";
}

}  // namespace

bool is_barrier_name(const std::string& n) { return n == "__syncthreads"; }

bool is_warp_name(const std::string& n) {
  static const char* const kWarp[] = {"__shfl_sync",   "__shfl_up_sync", "__shfl_down_sync",
                                      "__shfl_xor_sync", "__ballot_sync", "__any_sync",
                                      "__all_sync",    "__syncwarp",     "__activemask"};
  return std::any_of(std::begin(kWarp), std::end(kWarp), [&](const char* w) { return n == w; });
}

bool Analysis::is_warp_call(const Node& c) const {
  return c.kind == K::Call && c.ref_file == kPrelude && is_warp_name(c.name);
}

bool Analysis::contains_sync(const Node& n) const {
  auto it = sync_memo.find(&n);
  if (it != sync_memo.end()) return it->second;
  sync_memo[&n] = false;  // a recursive function: not through itself
  bool r = false;
  if (n.kind == K::Call && n.ref_file == kPrelude && (is_barrier_name(n.name) || is_warp_name(n.name))) {
    r = true;
  } else if (n.kind == K::Call) {
    auto f = tree->functions.find(n.ref);
    if (f != tree->functions.end() && f->second.has_body && !f->second.system) r = contains_sync(f->second.def);
  }
  for (size_t i = 0; !r && i < n.kids.size(); ++i) r = contains_sync(n.kids[i]);
  sync_memo[&n] = r;
  return r;
}

std::vector<const Node*> Analysis::warp_calls(const Node& s) const {
  if (is_warp_call(s)) return {&s};
  std::vector<const Node*> out;
  for (const Node& k : s.kids)
    for (const Node* w : warp_calls(k)) out.push_back(w);
  return out;
}

namespace {

// A function that only computes from its arguments (no memory, no thread
// index, nothing but locals changed): its call is uniform when its arguments are.
bool pure_function(const Analysis& a, const std::string& usr, bool thread);

// `thread`: the thread's own index may be read (a value per thread, not per block).
bool pure_node(const Analysis& a, const Node& n, const std::set<std::string>& own, bool thread) {
  switch (n.kind) {
    case K::Subscript: case K::Asm: case K::Throw: case K::New: case K::Delete: case K::Lambda:
    case K::Goto: case K::Try: case K::Other:  // (Other: what the analysis cannot see into)
      return false;
    case K::Unary:
      if (n.op == "*") return false;
      break;
    case K::MemberRef:
      if (n.arrow) return false;
      if (!n.kids.empty() && is_ctx_ref(n.kids[0]))
        return n.name == "block_idx" || n.name == "block_dim" || n.name == "grid_dim" ||
               (thread && n.name == "thread_idx");
      break;
    case K::DeclRef:
      if (n.ref_kind == K::Var && !own.count(n.ref) && !n.is_const) return false;  // a global that may change
      break;
    case K::Var:
      if (n.is_static) return false;
      break;
    case K::Binary: case K::CompoundAssign:
      if ((n.kind == K::CompoundAssign || n.op == "=") && !n.kids.empty()) {
        const Node& l = strip(n.kids[0]);
        if (l.kind != K::DeclRef || !own.count(l.ref)) return false;
      }
      break;
    case K::Call:
      if (n.ref_file == kPrelude && (is_barrier_name(n.name) || is_warp_name(n.name))) return false;
      if (!n.ref_file.empty() && !pure_function(a, n.ref, thread)) return false;  // (no file: a compiler builtin)
      break;
    default:
      break;
  }
  for (const Node& k : n.kids)
    if (!pure_node(a, k, own, thread)) return false;
  return true;
}

void collect_own(const Node& n, std::set<std::string>& own) {
  if ((n.kind == K::Var || n.kind == K::Param) && !n.is_static && !n.usr.empty()) own.insert(n.usr);
  for (const Node& k : n.kids) collect_own(k, own);
}

bool pure_function(const Analysis& a, const std::string& usr, bool thread) {
  const std::string key = (thread ? "t:" : "b:") + usr;
  auto m = a.pure_memo.find(key);
  if (m != a.pure_memo.end()) return m->second == 1;
  auto f = a.tree->functions.find(usr);
  if (f == a.tree->functions.end()) return false;  // no definition seen: anything may happen in it
  const Function& fn = f->second;
  if (fn.system) return pure_library_function(fn.def.name.empty() ? "" : fn.def.name) ||
                        pure_library_function(usr.substr(usr.rfind('@') + 1));
  if (!fn.has_body) return false;
  a.pure_memo[key] = 2;
  std::set<std::string> own;
  collect_own(fn.def, own);
  const bool r = pure_node(a, fn.def, own, thread);
  a.pure_memo[key] = r ? 1 : 0;
  return r;
}

}  // namespace

bool Analysis::pure_call(const Node& call, bool thread_index) const {
  return call.ref_file.empty() || pure_function(*this, call.ref, thread_index);
}

bool Analysis::touches_thread_index(const Node& call) const {
  // A compiler builtin, or the C or C++ library's (sqrtf: declared in a system
  // header, its definition unseen): neither knows the emulator's context.
  if (call.ref_file.empty() || call.ref_system) return false;
  auto m = touch_memo.find(call.ref);
  if (m != touch_memo.end()) return m->second != 0;
  auto f = tree->functions.find(call.ref);
  if (f == tree->functions.end() || (!f->second.system && !f->second.has_body)) return true;  // unseen
  if (f->second.system) return false;  // the library's: it knows nothing of the emulator
  touch_memo[call.ref] = 0;            // (recursion: not through itself)
  bool r = false;
  std::function<void(const Node&)> walk = [&](const Node& n) {
    if (r) return;
    if (n.kind == K::MemberRef && !n.kids.empty() && is_ctx_ref(n.kids[0]))
      r = !(n.name == "block_idx" || n.name == "block_dim" || n.name == "grid_dim");
    if (n.kind == K::Call && touches_thread_index(n)) r = true;
    for (const Node& k : n.kids) walk(k);
  };
  walk(f->second.def);
  touch_memo[call.ref] = r ? 1 : 0;
  return r;
}

bool Analysis::uniform_expr(const Node& e) const {
  switch (e.kind) {
    case K::Literal: case K::SizeOf:
      return true;
    case K::DeclRef:
      if (e.ref_kind == K::Param) return true;  // the kernel's parameters (never changed: checked)
      if (e.ref_kind == K::Var) return locals.count(e.ref) ? uniform.count(e.ref) > 0 : e.is_const;
      return e.ref_kind == K::Function || e.ref_kind == K::Other;  // functions, enumerators, template constants
    case K::MemberRef:
      if (e.arrow || e.kids.empty()) return false;
      if (is_ctx_ref(e.kids[0])) return e.name == "block_idx" || e.name == "block_dim" || e.name == "grid_dim";
      return uniform_expr(e.kids[0]);
    case K::Unary:
      if (e.op == "*" || e.op == "&" || e.op == "++" || e.op == "--") return false;
      break;
    case K::Binary:
      if (e.op == "=") return false;
      break;
    case K::CompoundAssign: case K::Subscript: case K::Lambda: case K::This: case K::New: case K::Throw:
    case K::Other:
      return false;
    case K::Call:
      if (is_warp_call(e) || (e.ref_file == kPrelude && is_barrier_name(e.name))) return false;
      if (!pure_call(e, false)) return false;
      break;
    default:
      break;
  }
  for (const Node& k : e.kids)
    if (!uniform_expr(k)) return false;
  return true;
}

namespace {

// One pass of the uniform-variable fixed point: which locals lose their
// uniformity given the current set. A local stays uniform when every
// assignment to it is a whole statement (or a declaration's initialiser)
// reached by every live thread alike, with a uniform value, and its address
// never escapes.
class UniformPass {
 public:
  explicit UniformPass(Analysis& a) : a_(a) {}
  std::set<std::string> lost;

  void statement(const Node& s, bool ctx) {
    switch (s.kind) {
      case K::Compound:
        for (const Node& k : s.kids) statement(k, ctx);
        return;
      case K::DeclStmt:
        for (const Node& v : s.kids) declaration(v, ctx);
        return;
      case K::ExprStmt:
        expression(s.kids[0], ctx, true);
        return;
      case K::If:
        expression(s.kids[0], ctx, false);
        for (size_t i = 1; i < s.kids.size(); ++i) statement(s.kids[i], ctx && a_.uniform_expr(s.kids[0]));
        return;
      case K::For: case K::While: case K::Do:
        loop(s, ctx);
        return;
      case K::Return:
        for (const Node& k : s.kids) expression(k, ctx, false);
        return;
      default:
        for (const Node& k : s.kids) k.kind >= K::DeclRef ? expression(k, false, false) : statement(k, false);
        return;
    }
  }

 private:
  void loop(const Node& s, bool ctx) {
    const Node* cond = s.kind == K::For ? &s.kids[1] : s.kind == K::While ? &s.kids[0] : &s.kids[1];
    const Node& body = s.kind == K::For ? s.kids[3] : s.kind == K::While ? s.kids[1] : s.kids[0];
    if (s.kind == K::For) s.kids[0].kind == K::DeclStmt ? statement(s.kids[0], ctx) : expression(s.kids[0], ctx, true);
    const bool inner = ctx && (cond->kind == K::Null || a_.uniform_expr(*cond)) && !divergent_exit(body, true);
    if (cond->kind != K::Null) expression(*cond, inner, false);
    if (s.kind == K::For && s.kids[2].kind != K::Null) expression(s.kids[2], inner, true);
    statement(body, inner);
  }

  // A break or continue of this loop under a condition that can differ between
  // threads. Inside a switch a break is the switch's, a continue still this
  // loop's, and the switch's value decides as an if's condition does.
  bool divergent_exit(const Node& n, bool ctx, bool in_switch = false) {
    switch (n.kind) {
      case K::Break: return !ctx && !in_switch;
      case K::Continue: return !ctx;
      case K::For: case K::While: case K::Do: case K::Lambda: return false;  // their own
      case K::If: case K::Switch: {
        const bool c = ctx && a_.uniform_expr(n.kids[0]);
        for (size_t i = 1; i < n.kids.size(); ++i)
          if (divergent_exit(n.kids[i], c, in_switch || n.kind == K::Switch)) return true;
        return false;
      }
      default:
        for (const Node& k : n.kids)
          if (divergent_exit(k, ctx, in_switch)) return true;
        return false;
    }
  }

  void declaration(const Node& v, bool ctx) {
    if (v.kind != K::Var) return;
    const Node* init = nullptr;
    for (const Node& k : v.kids)
      if (k.kind >= K::DeclRef) init = &k;
    if (init) {
      expression(*init, ctx, false);
      if (v.is_reference) escape(*init);  // a reference: what it names may change through it
    }
    if (!ctx || v.is_reference || v.is_static || (init && !a_.uniform_expr(*init))) lose(v.usr);
  }

  // A local whose address or reference is taken can change behind the analysis' back.
  void escape(const Node& e) {
    const Node& s = strip(e);
    if (s.kind == K::DeclRef && a_.locals.count(s.ref)) lose(s.ref);
    if (s.kind == K::MemberRef && !s.arrow && !s.kids.empty()) escape(s.kids[0]);
    if (s.kind == K::Subscript && !s.kids.empty()) escape(s.kids[0]);
  }

  // The local an assignment changes (x, x.f, x[i] of a local array), or "".
  std::string assigned(const Node& lhs) {
    const Node& s = strip(lhs);
    if (s.kind == K::DeclRef) return a_.locals.count(s.ref) ? s.ref : "";
    if (s.kind == K::MemberRef && !s.arrow && !s.kids.empty()) return assigned(s.kids[0]);
    if (s.kind == K::Subscript && !s.kids.empty() && strip(s.kids[0]).is_array) {
      if (!a_.uniform_expr(s.kids[1])) {
        const std::string r = assigned(s.kids[0]);
        if (!r.empty()) lose(r);
      }
      return assigned(s.kids[0]);
    }
    return "";
  }

  void expression(const Node& e, bool ctx, bool top) {
    if (e.kind == K::Null) return;
    if (e.kind == K::Binary || e.kind == K::CompoundAssign) {
      if (e.kind == K::CompoundAssign || e.op == "=") {
        const std::string v = assigned(e.kids[0]);
        if (!v.empty() && !(ctx && top && a_.uniform_expr(e.kids[1]))) lose(v);
        expression(e.kids[0], ctx, false);
        expression(e.kids[1], ctx, false);
        return;
      }
      const bool cond = e.op == "&&" || e.op == "||";
      expression(e.kids[0], ctx, false);
      expression(e.kids[1], cond ? ctx && a_.uniform_expr(e.kids[0]) : ctx, false);
      return;
    }
    if (e.kind == K::Unary && (e.op == "++" || e.op == "--")) {
      const std::string v = assigned(e.kids[0]);
      if (!v.empty() && !(ctx && top)) lose(v);
    }
    if (e.kind == K::Unary && e.op == "&") escape(e.kids[0]);
    if (e.kind == K::Conditional) {
      expression(e.kids[0], ctx, false);
      const bool c = ctx && a_.uniform_expr(e.kids[0]);
      for (size_t i = 1; i < e.kids.size(); ++i) expression(e.kids[i], c, false);
      return;
    }
    if (e.kind == K::Call) call(e, ctx);
    if (e.kind == K::Lambda) return lambda(e);
    for (const Node& k : e.kids) expression(k, ctx, false);
  }

  void call(const Node& c, bool) {
    // Arguments bound to non-const references, and objects a method is called on, may change.
    const size_t first = c.kids.size() > c.param_ref.size() ? c.kids.size() - c.param_ref.size() : 0;
    for (size_t i = first; i < c.kids.size(); ++i)
      if (c.param_ref[i - first] == "ref") escape(c.kids[i]);
    if (!c.kids.empty()) {
      const Node& callee = strip(c.kids[0]);
      if (callee.kind == K::MemberRef && !callee.arrow && !c.const_method && !callee.kids.empty())
        escape(callee.kids[0]);
    }
  }

  void lambda(const Node& l) {
    std::function<void(const Node&)> all = [&](const Node& n) {
      if (n.kind == K::DeclRef && a_.locals.count(n.ref)) lose(n.ref);
      for (const Node& k : n.kids) all(k);
    };
    all(l);
  }

  void lose(const std::string& usr) {
    if (a_.uniform.count(usr)) lost.insert(usr);
  }

  Analysis& a_;
};

}  // namespace

void collect_locals(const Node& n, Analysis& a) {
  if (n.kind == K::Var && !n.usr.empty()) a.locals[n.usr] = &n;
  for (const Node& k : n.kids) collect_locals(k, a);
}

// The fixed point: start from every local uniform, drop what an assignment disproves, repeat.
void find_uniform(Analysis& a) {
  if (a.locals.empty()) {  // the first time: every local starts uniform
    collect_locals(*a.body, a);
    for (const auto& [usr, v] : a.locals)
      if (!v->is_static) a.uniform.insert(usr);
  }
  for (;;) {
    UniformPass p(a);
    p.statement(*a.body, true);
    if (p.lost.empty()) return;
    for (const std::string& u : p.lost) a.uniform.erase(u);
  }
}

}  // namespace cv::emu::fission

// analyse(): the roles of sync-level statements and the fast path's limits (fission_plan.h).
#include <functional>
#include <set>

#include "usercode/emu/fission_plan.h"

namespace cv::emu::fission {

void find_uniform(Analysis& a);

namespace {

bool is_barrier_call(const Node& e) {
  const Node& s = strip(e);
  return s.kind == K::Call && s.ref_file == "cudaviz_emu.h" && is_barrier_name(s.name);
}

// Every node, depth first, not into lambdas (their code runs where they are called).
bool holds(const Node& n, K kind) {
  bool r = false;
  each(n, [&](const Node& x) { r = r || x.kind == kind; }, false);
  return r;
}

// The local or parameter an assignment to `lhs` changes (x, x.f, x[i] of a local array), or null.
const Node* changed_root(const Node& lhs) {
  const Node& s = strip(lhs);
  if (s.kind == K::DeclRef && (s.ref_kind == K::Var || s.ref_kind == K::Param)) return &s;
  if (s.kind == K::MemberRef && !s.arrow && !s.kids.empty()) return changed_root(s.kids[0]);
  if (s.kind == K::Subscript && !s.kids.empty() && strip(s.kids[0]).is_array) return changed_root(s.kids[0]);
  return nullptr;
}

class Checker {
 public:
  explicit Checker(Analysis& a) : a_(a) {}

  // false (with a.why, a.line) when the kernel cannot be split
  bool sequence(const Node& block, bool in_sync_loop) {
    if (block.kind != K::Compound) return statement(block, in_sync_loop);
    for (const Node& s : block.kids)
      if (!statement(s, in_sync_loop)) return false;
    return true;
  }

  bool fail(const std::string& why, int line) {
    a_.why = why;
    a_.line = line;
    return false;
  }

 private:
  bool statement(const Node& s, bool in_sync_loop);
  bool sync_statement(const Node& s, bool in_sync_loop);
  bool callee_sync(const Node& s);

  Analysis& a_;
};

bool Checker::callee_sync(const Node& s) {
  bool found = false;
  each(s, [&](const Node& n) {
    if (found || n.kind != K::Call || n.ref_file == "cudaviz_emu.h") return;
    auto f = a_.tree->functions.find(n.ref);
    if (f != a_.tree->functions.end() && f->second.has_body && !f->second.system &&
        a_.contains_sync(f->second.def)) {
      found = true;
      fail("the function '" + n.name + "' called at line " + std::to_string(n.line) +
               " holds a barrier or a warp operation (the fast path splits only the kernel's own body)",
           n.line);
    }
  }, false);
  return found;
}

bool Checker::statement(const Node& s, bool in_sync_loop) {
  if (!a_.contains_sync(s) && a_.role(s) == Role::Nest) {  // a loop the same for the block, turned inside out
    a_.nested_loops = true;
    return sync_statement(s, in_sync_loop);
  }
  if (!a_.contains_sync(s)) {
    const Role r = a_.role(s);
    if (r == Role::Thread) {
      if (in_sync_loop && escapes(s))
        return fail("a break or continue at line " + std::to_string(s.line) +
                        " leaves a loop that holds a barrier for some threads only",
                    s.line);
      if (holds(s, K::Return)) a_.thread_exits = true;
    }
    return true;
  }
  a_.has_sync = true;
  if (callee_sync(s)) return false;
  return sync_statement(s, in_sync_loop);
}

bool Checker::sync_statement(const Node& s, bool in_sync_loop) {
  const std::string at = " at line " + std::to_string(s.line);
  switch (s.kind) {
    case K::Compound:
      return sequence(s, in_sync_loop);
    case K::ExprStmt:
    case K::DeclStmt: {
      if (s.kind == K::ExprStmt && is_barrier_call(s.kids[0])) return true;
      int barriers = 0, warps = 0;
      each(s, [&](const Node& n) {
        if (n.kind == K::Call && n.ref_file == "cudaviz_emu.h") {
          barriers += is_barrier_name(n.name);
          warps += is_warp_name(n.name);
        }
      }, false);
      if (barriers) return fail("__syncthreads()" + at + " is part of a larger expression", s.line);
      if (static_cast<size_t>(warps) != a_.warp_calls(s).size())
        return fail("a warp operation" + at + " sits inside another's operands", s.line);
      if (s.kind == K::DeclStmt && s.kids.size() > 1)
        return fail("a warp operation" + at + " initialises one of several variables declared together", s.line);
      if (!a_.warp_unconditional(s)) return fail("a warp operation" + at + " is evaluated for some threads only (&&, || or ?:)", s.line);
      return true;
    }
    case K::If: {
      if (!a_.uniform_expr(s.kids[0]))
        return fail("a barrier or warp operation sits under the if" + at +
                        ", whose condition can differ between the threads of a block",
                    s.line);
      for (size_t i = 1; i < s.kids.size(); ++i)
        if (!sequence(s.kids[i], in_sync_loop)) return false;
      return true;
    }
    case K::For: case K::While: case K::Do: {
      const bool is_for = s.kind == K::For;
      const Node& cond = is_for ? s.kids[1] : s.kind == K::While ? s.kids[0] : s.kids[1];
      const Node& body = is_for ? s.kids[3] : s.kind == K::While ? s.kids[1] : s.kids[0];
      bool head = cond.kind == K::Null || a_.uniform_expr(cond);
      if (is_for) {
        head = head && (s.kids[2].kind == K::Null || a_.uniform_effect(s.kids[2]));
        head = head && (s.kids[0].kind == K::Null ||
                        (s.kids[0].kind == K::DeclStmt ? a_.uniform_statement(s.kids[0])
                                                       : a_.uniform_effect(s.kids[0])));
      }
      if (!head)
        return fail("a barrier or warp operation sits in the loop" + at +
                        ", whose condition or step can differ between the threads of a block",
                    s.line);
      return sequence(body, true);
    }
    default:
      return fail("a barrier or warp operation" + at + " sits in a statement the fast path cannot split " +
                      "(a switch, a label, a return value, ...)",
                  s.line);
  }
}

}  // namespace

bool Analysis::warp_unconditional(const Node& s) const {
  // The warp call must not sit in the right of && / || or a branch of ?:.
  std::function<bool(const Node&, bool)> ok = [&](const Node& n, bool cond) {
    if (is_warp_call(n)) return !cond;
    if (n.kind == K::Conditional) {
      for (size_t i = 0; i < n.kids.size(); ++i)
        if (!ok(n.kids[i], cond || i > 0)) return false;
      return true;
    }
    if (n.kind == K::Binary && (n.op == "&&" || n.op == "||"))
      return ok(n.kids[0], cond) && ok(n.kids[1], true);
    for (const Node& k : n.kids)
      if (!ok(k, cond)) return false;
    return true;
  };
  return ok(s, false);
}

Role Analysis::role(const Node& s) const {
  if (contains_sync(s)) {
    if (s.kind == K::ExprStmt && is_barrier_call(s.kids[0])) return Role::Barrier;
    if (s.kind == K::ExprStmt || s.kind == K::DeclStmt) return Role::Warp;
    return Role::Nest;
  }
  if (uniform_statement(s)) return Role::Uniform;
  return turned(s) ? Role::Nest : Role::Thread;
}

// A loop whose head is the same for the whole block (`for (unsigned j = 0; j <
// n; ++j)`) and whose body every thread runs to the end, turned inside out:
// the loop once, its body a loop over the threads. Each thread still runs its
// iterations in order; between threads there is no order without a barrier,
// so nothing a race-free kernel computes changes, and the compiler gets a loop
// over threads it can vectorise (n-body's inner loop).
bool Analysis::turned(const Node& s) const {
  if (s.kind != K::For && s.kind != K::While) return false;
  const Node& body = s.kids.back();
  if (s.kind == K::While && !uniform_expr(s.kids[0])) return false;
  if (s.kind == K::For &&
      !((s.kids[0].kind == K::Null ||
         (s.kids[0].kind == K::DeclStmt ? uniform_statement(s.kids[0]) : uniform_effect(s.kids[0]))) &&
        (s.kids[1].kind == K::Null || uniform_expr(s.kids[1])) &&
        (s.kids[2].kind == K::Null || uniform_effect(s.kids[2]))))
    return false;
  bool plain = !escapes(body);  // no break / continue of its own, no return, no static
  std::set<std::string> inside;
  each(body, [&](const Node& n) {
    plain = plain && n.kind != K::Return && n.kind != K::Goto && !(n.kind == K::Var && n.is_static) &&
            n.kind != K::Lambda;
    if (n.kind == K::Var) inside.insert(n.usr);
  }, false);
  // What it reads of the thread's own locals must be keepable per thread (else fibers would be the price).
  each(body, [&](const Node& n) {
    if (!plain || n.kind != K::DeclRef || !locals.count(n.ref) || inside.count(n.ref) || uniform.count(n.ref)) return;
    const Node& v = *locals.at(n.ref);
    plain = v.is_static || (v.is_pod && v.size > 0 && !v.is_reference && !v.type_in_body && n.ref_offset);
  }, false);
  return plain;
}

bool Analysis::uniform_effect(const Node& e) const {
  if (e.kind == K::Binary && e.op == ",") return uniform_effect(e.kids[0]) && uniform_effect(e.kids[1]);
  if ((e.kind == K::Binary && e.op == "=") || e.kind == K::CompoundAssign) {
    const Node* r = changed_root(e.kids[0]);
    if (!r || r->ref_kind != K::Var || !uniform.count(r->ref)) return false;
    const Node& l = strip(e.kids[0]);
    if (l.kind == K::Subscript && !uniform_expr(l.kids[1])) return false;
    return uniform_expr(e.kids[1]);
  }
  if (e.kind == K::Unary && (e.op == "++" || e.op == "--")) {
    const Node* r = changed_root(e.kids[0]);
    return r && r->ref_kind == K::Var && uniform.count(r->ref);
  }
  return uniform_expr(e);
}

bool Analysis::uniform_statement(const Node& s) const {
  auto all = [&](size_t from) {
    for (size_t i = from; i < s.kids.size(); ++i)
      if (!uniform_statement(s.kids[i])) return false;
    return true;
  };
  switch (s.kind) {
    case K::Null: case K::Break: case K::Continue:
      return true;
    case K::Return:
      return s.kids.empty();
    case K::DeclStmt:
      for (const Node& v : s.kids)
        if (v.kind != K::Var || (!v.is_static && !uniform.count(v.usr))) return false;
      return true;
    case K::ExprStmt:
      return uniform_effect(s.kids[0]);
    case K::Compound:
      return all(0);
    case K::If:
      return uniform_expr(s.kids[0]) && all(1);
    case K::While:
      return uniform_expr(s.kids[0]) && uniform_statement(s.kids[1]);
    case K::Do:
      return uniform_expr(s.kids[1]) && uniform_statement(s.kids[0]);
    case K::For:
      return (s.kids[0].kind == K::Null ||
              (s.kids[0].kind == K::DeclStmt ? uniform_statement(s.kids[0]) : uniform_effect(s.kids[0]))) &&
             (s.kids[1].kind == K::Null || uniform_expr(s.kids[1])) &&
             (s.kids[2].kind == K::Null || uniform_effect(s.kids[2])) && uniform_statement(s.kids[3]);
    default:
      return false;
  }
}

bool Analysis::params_unchanged() {
  std::string bad;
  int line = 0;
  auto param = [&](const Node* r, const Node& at) {
    if (r && r->ref_kind == K::Param && bad.empty()) bad = r->name, line = at.line;
  };
  each(*body, [&](const Node& n) {
    if ((n.kind == K::Binary && n.op == "=") || n.kind == K::CompoundAssign) param(changed_root(n.kids[0]), n);
    if (n.kind == K::Unary && (n.op == "++" || n.op == "--" || n.op == "&")) param(changed_root(n.kids[0]), n);
    if (n.kind == K::Var && n.is_reference)
      for (const Node& k : n.kids) param(changed_root(k), n);
    if (n.kind == K::Call) {
      const size_t first = n.kids.size() > n.param_ref.size() ? n.kids.size() - n.param_ref.size() : 0;
      for (size_t i = first; i < n.kids.size(); ++i)
        if (n.param_ref[i - first] == "ref") param(changed_root(n.kids[i]), n);
      const Node& callee = n.kids.empty() ? n : strip(n.kids[0]);
      if (callee.kind == K::MemberRef && !callee.arrow && !n.const_method && !callee.kids.empty())
        param(changed_root(callee.kids[0]), n);
    }
  }, false);
  if (bad.empty()) return true;
  why = "the kernel changes (or may change) its parameter '" + bad + "' at line " + std::to_string(line);
  this->line = line;
  return false;
}

namespace {

// Locals a statement assigns (=, op=, ++, --) that are declared outside it.
void assigned_outside(const Analysis& a, const Node& s, std::set<std::string>& out) {
  std::set<std::string> inside;
  each(s, [&](const Node& n) {
    if (n.kind == K::Var) inside.insert(n.usr);
  }, false);
  each(s, [&](const Node& n) {
    const Node* r = nullptr;
    if (((n.kind == K::Binary && n.op == "=") || n.kind == K::CompoundAssign ||
         (n.kind == K::Unary && (n.op == "++" || n.op == "--"))) && !n.kids.empty())
      r = changed_root(n.kids[0]);
    if (r && r->ref_kind == K::Var && a.locals.count(r->ref) && !inside.count(r->ref)) out.insert(r->ref);
  }, false);
}

// Statements that run per thread change what they assign once per thread: a
// local they assign that lives outside them cannot be one value for the block.
bool drop_thread_assigned(Analysis& a, const Node& block) {
  bool changed = false;
  auto visit = [&](const Node& s) {
    const Role r = a.role(s);
    if (r == Role::Nest) {
      for (const Node& k : s.kids)
        if (k.kind != K::Null && k.kind < K::DeclRef) changed = drop_thread_assigned(a, k) || changed;
      return;
    }
    if (r != Role::Thread && r != Role::Warp) return;
    std::set<std::string> v;
    assigned_outside(a, s, v);
    for (const std::string& u : v) changed = a.uniform.erase(u) > 0 || changed;
  };
  if (block.kind == K::Compound)
    for (const Node& s : block.kids) visit(s);
  else
    visit(block);
  return changed;
}

}  // namespace

Analysis analyse(const Tree& tree, const std::string& kernel_usr) {
  Analysis a;
  a.tree = &tree;
  auto f = tree.functions.find(kernel_usr);
  if (f == tree.functions.end() || !f->second.has_body) {
    a.why = "the kernel's body was not found";
    return a;
  }
  for (const Node& k : f->second.def.kids) {
    if (k.kind == K::Param) a.params.push_back(&k);
    if (k.kind == K::Compound) a.body = &k;
  }
  Checker c(a);
  bool bad = false;
  each(*a.body, [&](const Node& n) {
    if (bad) return;
    if (n.kind == K::Goto || n.kind == K::Label) bad = !c.fail("a goto or label at line " + std::to_string(n.line), n.line);
    else if (n.kind == K::Asm || n.kind == K::Try) bad = !c.fail("asm or try at line " + std::to_string(n.line), n.line);
  }, false);
  if (bad) return a;
  if (!a.params_unchanged()) return a;
  do find_uniform(a);
  while (drop_thread_assigned(a, *a.body));
  a.ok = c.sequence(*a.body, false);
  return a;
}

}  // namespace cv::emu::fission

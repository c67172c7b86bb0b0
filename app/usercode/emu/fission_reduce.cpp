// Searches and shared counters in a thread's range loop (fission_reduce.h).
#include "usercode/emu/fission_reduce.h"

#include <algorithm>
#include <set>
#include <string>

namespace cv::emu::fission {
namespace {

bool is_access_of(const RangeLoop& r, const Node& call) {
  return std::any_of(r.accesses.begin(), r.accesses.end(),
                     [&](const RangeLoop::Access& x) { return x.at.call == &call; });
}

// `e` may be evaluated at any step of `r`, any number of times, at no risk and
// to no effect: locals, parameters, arithmetic, pure calls and the loop's
// proven accesses; no store, no other memory, no division by a variable.
bool harmless(const Analysis& a, const RangeLoop& r, const Node& e) {
  const bool ok = e.kind == K::DeclRef || (e.kind == K::Call && (is_access_of(r, e) || a.pure_call(e, true))) ||
                  pure_operator(e, a.tree->text);
  return ok && std::all_of(e.kids.begin(), e.kids.end(), [&](const Node& k) { return harmless(a, r, k); });
}

bool reads_any(const Node& n, const std::set<std::string>& usrs) {
  bool r = false;
  each(n, [&](const Node& k) { r = r || (k.kind == K::DeclRef && usrs.count(k.ref)); });
  return r;
}

// The statements of `body`: what a compound holds, an if's branches, a loop's body.
void statements_of(const Node& n, std::set<const Node*>& out) {
  if (n.kind == K::Compound)
    for (const Node& k : n.kids) out.insert(&k);
  if (n.kind == K::If && (n.kids.size() == 2 || n.kids.size() == 3))
    for (size_t i = 1; i < n.kids.size(); ++i) out.insert(&n.kids[i]);
  if ((n.kind == K::For || n.kind == K::While) && !n.kids.empty()) out.insert(&n.kids.back());
  if (n.kind == K::Do && !n.kids.empty()) out.insert(&n.kids.front());
  for (const Node& k : n.kids) statements_of(k, out);
}

// `t` is S[e] with S a __shared__ (or static) array of the kernel: its declaration.
const Node* shared_element(const Analysis& a, const Node& t) {
  const Node& s = strip(t);
  if (s.kind != K::Subscript || s.kids.size() != 2) return nullptr;
  const Node& base = strip(s.kids[0]);
  if (base.kind != K::DeclRef || base.ref_kind != K::Var) return nullptr;
  auto it = a.locals.find(base.ref);
  return it != a.locals.end() && it->second->is_static && it->second->is_array ? it->second : nullptr;
}

// A store's target that cannot be S's memory: a thread's own local (or its
// member or element), another shared array's element, a span parameter's element.
bool other_memory(const Analysis& a, const Node& target, const std::string& shared_usr) {
  if (const Node* r = root_local(target)) {
    auto it = a.locals.find(r->ref);
    return it != a.locals.end() && r->ref != shared_usr && (!it->second->is_static || it->second->is_array);
  }
  const Node* t = &strip(target);
  while (((t->kind == K::MemberRef && !t->arrow) || (t->kind == K::Subscript && strip(t->kids.at(0)).is_array)) &&
         !t->kids.empty())
    t = &strip(t->kids[0]);
  return t->kind == K::Call && t->name == "operator[]" && !t->kids.empty() && span_parameter(strip(t->kids[0]));
}

}  // namespace

// long: the body's two shapes (declarations then the `if`) and the checks on each part.
bool search_loop(const Analysis& a, const RangeLoop& r, SearchLoop& out) {
  if (r.inclusive) return false;
  const Node& body = r.loop->kids[3];
  std::vector<const Node*> parts;
  if (body.kind == K::Compound)
    for (const Node& k : body.kids) parts.push_back(&k);
  else
    parts.push_back(&body);
  if (parts.empty() || parts.back()->kind != K::If) return false;
  SearchLoop s;
  std::set<std::string> own = {r.var->usr};  // the loop's variable and the body's locals
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    const Node& d = *parts[i];
    if (d.kind != K::DeclStmt || d.kids.empty()) return false;
    for (const Node& v : d.kids) {
      if (v.kind != K::Var || v.is_static || v.is_reference || v.is_array || v.kids.empty() ||
          v.kids.back().kind < K::DeclRef || !harmless(a, r, v.kids.back()))
        return false;
      own.insert(v.usr);
    }
    s.locals.push_back(&d);
  }
  const Node& f = *parts.back();
  if (f.kids.size() != 2 || !harmless(a, r, f.kids[0])) return false;
  s.cond = &f.kids[0];
  const Node& then = f.kids[1];
  if (then.kind == K::Break) {
    out = s;
    return true;
  }
  if (then.kind != K::Compound || then.kids.empty() || then.kids.back().kind != K::Break) return false;
  for (size_t i = 0; i + 1 < then.kids.size(); ++i) {
    const Node& st = then.kids[i];
    bool plain = true;
    each(st, [&](const Node& n) {
      plain = plain && n.kind != K::Break && n.kind != K::Continue && n.kind != K::Return && n.kind != K::Goto &&
              n.kind != K::Label && n.kind != K::For && n.kind != K::While && n.kind != K::Do &&
              n.kind != K::Switch && n.kind != K::Lambda;
    });
    if (!plain || reads_any(st, own)) return false;
    s.then.push_back(&st);
  }
  out = s;
  return true;
}

// long: each store, call and reference of the body checked against the one shared element.
bool shared_counter(const Analysis& a, const RangeLoop& r, SharedCounter& out) {
  const Node& body = r.loop->kids[3];
  std::set<const Node*> statements = {&body};
  statements_of(body, statements);
  // The updates: whole statements `S[e]++`, `++S[e]`, `--`, `S[e] += x`, `-=`.
  SharedCounter c;
  const Node* shared = nullptr;
  std::string index;
  bool ok = true;
  for (const Node* st : statements) {
    const Node& u = st->kind == K::ExprStmt && st->kids.size() == 1 ? st->kids[0] : *st;
    const bool step = u.kind == K::Unary && (u.op == "++" || u.op == "--") && u.kids.size() == 1;
    const bool add = u.kind == K::CompoundAssign && (u.op == "+=" || u.op == "-=") && u.kids.size() == 2;
    if (!step && !add) continue;
    const Node* decl = shared_element(a, u.kids[0]);
    if (!decl) continue;
    const Node& slot = strip(u.kids[0]);
    if (shared && (decl != shared || between(a.tree->text, slot.kids[1].begin, slot.kids[1].end) != index)) return false;
    if (!shared) {
      shared = decl, index = between(a.tree->text, slot.kids[1].begin, slot.kids[1].end);
      c.slot = &slot;
    }
    c.updates.push_back({&u, add ? &u.kids[1] : nullptr, u.op == "++" || u.op == "+="});
  }
  if (!shared || !integer_type(c.slot->type)) return false;
  // e: the same at every step (nothing the body changes, not the loop's variable).
  std::set<std::string> changed = changed_locals({&body});
  changed.insert(r.var->usr);
  if (!recomputable(a, c.slot->kids[1], changed, false)) return false;
  std::set<const Node*> bases, update_nodes;
  for (const SlotUpdate& u : c.updates) {
    bases.insert(&strip(strip(u.update->kids[0]).kids[0]));
    update_nodes.insert(u.update);
  }
  // Nothing else reaches S: no other reference, no store through a pointer, no call with effects.
  each(body, [&](const Node& n) {
    if (!ok) return;
    if (n.kind == K::DeclRef && n.ref == shared->usr && !bases.count(&n)) ok = false;
    if (n.kind == K::Return || n.kind == K::Goto || n.kind == K::Label || n.kind == K::Lambda || n.kind == K::Asm ||
        n.kind == K::New || n.kind == K::Delete || n.kind == K::Throw)
      ok = false;
    if (n.kind == K::Call && !(n.name == "operator[]" && !n.kids.empty() && span_parameter(strip(n.kids[0]))) &&
        !a.pure_call(n, true))
      ok = false;
    const bool store = (n.kind == K::Binary && n.op == "=") || n.kind == K::CompoundAssign ||
                       (n.kind == K::Unary && (n.op == "++" || n.op == "--"));
    if (store && !update_nodes.count(&n) && (n.kids.empty() || !other_memory(a, n.kids[0], shared->usr))) ok = false;
  });
  if (!ok) return false;
  out = c;
  return true;
}

}  // namespace cv::emu::fission

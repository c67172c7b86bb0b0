#pragma once
// Span accesses checked once a region instead of once a thread (docs/emulator.md,
// "Accesses checked ahead"): `P[E]` where P is a span parameter and E is the
// same for every thread and can be computed before the region's loop over
// threads: it reads parameters, literals, the block's values and uniform
// locals the region does not change, and holds no call, division or access.
// The emitter tests every such access once before the loop; when all are in
// range the loop runs them unchecked (n-body's inner loop, turned inside out,
// then vectorises), else the loop runs as written and a bad access is named
// as before. And a thread's own loop over an index (`for (T i = S; i < B;
// ++i)`) whose span accesses are `P[i]`, `P[i + c]` or `P[i - c]`: one test
// before the loop of the range i takes, then the loop without those checks
// (sum3's `v[k]` up to a bound that is not the span's own size). Pure: the
// analysis and the statements in, the accesses out.
#include <set>
#include <string>
#include <vector>

#include "usercode/emu/fission_plan.h"

namespace cv::emu::fission {

struct AheadAccess {
  const Node* call = nullptr;   // the span's operator[] or at() call
  const Node* span = nullptr;   // its parameter (K::DeclRef)
  const Node* index = nullptr;  // E
};

// `P[E]` or `P.at(E)` of a span parameter P, as spelt (the unchecked copy
// replaces the text between P and E, and after E).
bool span_access(const Node& call, const std::string& text, AheadAccess& out);

// The accesses of `statements` (a region's, in order) that can be checked
// ahead, in source order; at most `limit` (none past it are taken).
std::vector<AheadAccess> ahead_accesses(const Analysis& a, const std::vector<const Node*>& statements,
                                        size_t limit = 16);

// A region's accesses whose index each thread can compute before the region
// runs (thread_value, fission_once.h): a pass over the block's threads tests
// them all, and when every one is in range the region runs them unchecked.
// Indices read no local the region changes, and divide only by literals.
// The region's last statement `if (c) S` (no else), c such a value and S
// only accesses (of these) and assignments: the pass tests c too, and where
// it holds for every thread a copy runs S without the test (a masked loop,
// a backward load under `if (i < n)`, does not vectorise).
struct ThreadAccesses {
  std::vector<AheadAccess> accesses;
  std::vector<const Node*> computed;  // const locals the pass declares again, in order
  const Node* all_if = nullptr;       // that `if`, when it qualifies
};
ThreadAccesses thread_accesses(const Analysis& a, const std::vector<const Node*>& statements,
                               const std::vector<AheadAccess>& skip, size_t limit = 16);

// A thread's loop whose accesses follow from its index and its bounds.
struct RangeLoop {
  const Node* loop = nullptr;   // K::For
  const Node* var = nullptr;    // its one variable (K::Var, an integer), never changed by the body
  const Node* start = nullptr;  // the variable's initialiser
  const Node* bound = nullptr;  // the condition's other side: no call, access or effect, unchanged by the body
  bool inclusive = false;       // `<=` (else `<`)
  struct Access {
    AheadAccess at;              // P[i + offset] (span_access)
    long long offset = 0;
  };
  std::vector<Access> accesses;  // at least one
};

// What the checks above share with fission_reduce.h:
// locals the statements may change or declare;
std::set<std::string> changed_locals(const std::vector<const Node*>& statements);
// `e` computed again elsewhere gives what it gives where it stands (no call,
// memory or effect, no local in `changed`; with `uniform`, only uniform locals);
bool recomputable(const Analysis& a, const Node& e, const std::set<std::string>& changed, bool uniform);
// `e` is a literal, sizeof, parentheses, a cast, `?:`, a member through `.`, a
// unary - + ~ ! or a binary operator other than = and , that divides only by a
// non-zero literal: a node computing again changes nothing (its kids aside);
bool pure_operator(const Node& e, const std::string& text);
// the local an assignment, step or address-of reaches through members and
// array elements (its K::DeclRef), or nullptr;
const Node* root_local(const Node& e);
// the text between two offsets without white space;
std::string between(const std::string& text, unsigned b, unsigned e);
// `n` names a span parameter (by value); `e` divides by something other than a literal.
bool span_parameter(const Node& n);
bool divides_by_variable(const Node& e, const std::string& text);
// `index` is i, i + c, c + i or i - c (c an integer literal) for the variable `usr`: c, or false.
bool index_offset(const Node& index, const std::string& usr, const std::string& text, long long& offset);

// `s` as such a loop: `for (T i = S; i < B; ++i)` (or `i <= B`, `B > i`,
// `i++`, `i += 1`), no goto or label in its body, which changes neither `i`
// nor anything B reads.
bool range_loop(const Analysis& a, const Node& s, RangeLoop& out);

}  // namespace cv::emu::fission

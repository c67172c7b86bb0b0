#pragma once
// Two shapes of a thread's range loop (fission_ahead.h, range_loop) that GCC
// will not vectorise as written but can once they read as reductions
// (docs/emulator.md, "Searches and shared counters"). Both are for the loop's
// copy whose accesses were proven in range before it; the fast path runs a
// block's threads one after another on one worker, so while a thread's loop
// runs no other thread touches the block's shared memory.
//
// A search: `for (i ...) { const T v = ...; if (C) { S; break; } }`. The
// early exit keeps the loop scalar. C has no effect and reads nothing but
// locals, parameters and the loop's proven accesses, so evaluating it past
// the first hit changes nothing and cannot fault: the copy ORs C over chunks
// of the range (vectorised), stops after the chunk with a hit, then runs S
// once. S must not read i or the loop's own locals, nor leave anything but
// the loop.
//
// A shared counter: `S[e]++`, `S[e] += x` (integer elements of a __shared__
// array, e the same at every step). A store to memory at each hit keeps the
// loop scalar: the copy counts in a local and adds it to S[e] once after the
// loop unless the sum is 0 (an element the loop never reached is not touched).
// Nothing else in the loop may reach S.
// Pure: the analysis in, an answer out.
#include <vector>

#include "usercode/emu/fission_ahead.h"

namespace cv::emu::fission {

struct SearchLoop {
  std::vector<const Node*> locals;  // the body's declarations before the `if` (K::DeclStmt)
  const Node* cond = nullptr;       // C
  std::vector<const Node*> then;    // S: the `if`'s statements before its `break`
};

// The loop `r` (a range loop, `i < B`) as such a search.
bool search_loop(const Analysis& a, const RangeLoop& r, SearchLoop& out);

struct SlotUpdate {
  const Node* update = nullptr;  // the statement: K::Unary (++, --) or K::CompoundAssign (+=, -=)
  const Node* value = nullptr;   // x of `+= x` / `-= x`; nullptr for ++ and --
  bool add = true;               // ++ and += (else -- and -=)
};
struct SharedCounter {
  const Node* slot = nullptr;  // S[e], the first one (K::Subscript)
  std::vector<SlotUpdate> updates;
};

// The loop `r`'s updates of one shared element, when it is such a counter.
bool shared_counter(const Analysis& a, const RangeLoop& r, SharedCounter& out);

}  // namespace cv::emu::fission

#pragma once
// Loops a thread runs at most once (docs/emulator.md, "Grid-stride loops run
// once"): the fast path's per-thread `for (T i = INIT; i < BOUND; i += STEP)`
// whose start follows from the thread's and block's coordinates and whose
// bound and step are the block's. A grid that covers its data (the usual
// launch) runs such a loop once per thread, but a loop whose trip count the
// compiler cannot know keeps the loop over threads scalar. The emitter tests,
// once a block, whether every thread would leave after its first trip, and
// then runs the region with each such loop as an `if` (which vectorises);
// otherwise as written. Pure: the analysis in, an answer out.
#include <string>
#include <vector>

#include "usercode/emu/fission_plan.h"

namespace cv::emu::fission {

struct OnceLoop {
  const Node* loop = nullptr;         // K::For: kids init (one variable), cond, inc, body
  std::vector<const Node*> computed;  // const locals its start reads, in declaration order (K::Var)
};

// `s` as a loop the emitter may run as an `if` when no thread of the block
// takes a second trip: its variable is an integer declared in its head, read
// but never changed by its body; its start reads only parameters, the
// block's values, the coordinates, pure calls and const locals computed from
// those alone; its condition compares the variable (`<`, `<=`, `!=`) with a
// value of the block; its step adds one (`++i`, `i += STEP`) and nothing of
// either has an effect; its body has no break or continue of its own.
bool once_loop(const Analysis& a, const Node& s, OnceLoop& out);

// A test of the block's values alone that no thread takes a second trip,
// which spares the pass over the threads: `i < B` (or `i <= B`) and
// `i += S` with i, B and S of unsigned types and B and S reading
// parameters, literals, the block's values and such locals. Then S >= B (S > B for `<=`)
// and S <= max(T) / 2 mean that every i the test lets in is below B, so
// i + S neither wraps in T nor stays under B: one trip (the grid covers the
// data, the usual launch). Any other loop keeps the pass.
struct WideStep {
  const Node* bound = nullptr;  // B
  const Node* step = nullptr;   // S
  bool inclusive = false;       // `<=`
  std::string type;             // T, as the variable's canonical type spells it
  // Locals B and S read: const, the block's (uniform), each initialised from
  // parameters and the block's values alone (`const auto n = in.size;`), so
  // the test declares them again.
  std::vector<const Node*> locals;
};
bool wide_step(const Analysis& a, const OnceLoop& o, WideStep& out);

// An index in the body of the once loop `o` that each thread can compute
// before the region: it reads the loop's variable (as its start), the
// coordinates, the parameters, the block's values, pure calls and const
// locals computed from those alone (added to `computed`, in declaration
// order), and divides only by literals. In the copy where every thread makes
// its one trip (the pass found each condition true), such an access tested
// by the pass runs without its check.
bool once_index(const Analysis& a, const OnceLoop& o, const Node& index, std::vector<const Node*>& computed);

// `e` without effects, reading only the parameters, the block's values, pure
// calls, the thread's coordinates and const locals computed from those alone
// (added to `computed`, once each, in declaration order): a value a pass
// over the block's threads can compute ahead of the region (fission_ahead.h).
bool thread_value(const Analysis& a, const Node& e, std::vector<const Node*>& computed);

}  // namespace cv::emu::fission

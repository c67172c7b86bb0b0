#pragma once
// Loops in a function's PTX (docs/guard.md "Loops proven once"): a label
// and the branch back to it at the end of a contiguous run of pieces. The
// guard versions a loop it can prove (loop_proof.h) only when the loop has
// one way in (its header: fall-through or branches from outside), no other
// way back to the header than its last statement, only forward branches
// inside (no inner loop), and no { } block, jump table or instruction that
// a whole warp or block must meet at one and the same instruction (a thread
// that takes the proven copy and one that takes the guarded copy may meet
// at a barrier made non-aligned or at a warp shuffle, not at those).
#include <string>
#include <vector>

#include "usercode/guard/ptx_text.h"

namespace cv::usercode::guard {

struct Loop {
  size_t header = 0;  // piece index of the header label
  size_t latch = 0;   // piece index of the branch back to it (the loop's last statement)
  std::string label;  // the header's name, without ':'
  bool versionable = false;
  std::string why_not;  // when not versionable, in words (for tests and guard_dump)
};

// The loops whose header and latch lie in pieces [begin, end), in order.
std::vector<Loop> find_loops(const std::vector<Piece>& pieces, size_t begin, size_t end);

// The label a branch instruction jumps to ("" when `ins` is not a branch).
std::string branch_target(const Instruction& ins);
// A label piece's name, without the ':'.
std::string label_name(const Piece& p);
// True for instructions a whole warp or block must meet at one place.
bool warp_wide(const std::string& root);
// Of those, the ones threads may meet at from two copies of a loop (sm_70
// and later): CTA barriers once made non-aligned (`barrier.sync` counts
// arrivals per barrier, whichever instruction they come from) and the
// warp-level .sync forms, which synchronise by their member mask. Not
// activemask, elect, mma and the like, whose result or legality depends on
// which threads sit at the very same instruction.
bool copies_may_meet(const Instruction& ins);
// A CTA barrier statement as its non-aligned `barrier` form (the statement
// unchanged when it is not one).
std::string unaligned_barrier(const std::string& stmt);

// Static figures of the hot code: instructions and branches inside loops
// that contain no other loop, over every function of `ptx`. In guarded PTX
// the guarded copy of a proven loop and the guard's own table loops are
// left out: the figures are of the code that runs when nothing fails.
struct LoopFigures {
  size_t loops = 0, instructions = 0, branches = 0;
};
LoopFigures innermost_loop_figures(const std::string& ptx);

}  // namespace cv::usercode::guard

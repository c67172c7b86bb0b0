#pragma once
// Loops proven once (docs/guard.md): for a loop that find_loops() says can
// be versioned, the PTX that checks, before the loop runs, every address
// its accesses will use, when those addresses follow from the loop's
// induction variables (registers stepped by a constant or a loop-invariant
// register once an iteration) and its trip count (from the branch back to
// the header: `setp.lt.s32 %p, %r_i, %r_n; @%p bra L`). The rewriter then
// emits the loop twice: the proven accesses run unguarded in the copy taken
// when the check passes; the other copy checks every access as usual.
#include <optional>
#include <string>
#include <vector>

#include "usercode/guard/ptx_loops.h"
#include "usercode/guard/ptx_text.h"

namespace cv::usercode::guard {

// A memory access in the loop, as the rewriter sees it.
struct LoopAccess {
  size_t piece = 0;
  std::string space;   // "global", "shared", "local" (generic accesses are not proven)
  std::string base;    // the address register
  bool base32 = false;
  long long offset = 0;
  unsigned width = 0;
  int root = -1;  // the kernel parameter its pointer comes from (access_roots.h)
};

// Fresh scratch registers for one function's loop checks: %cvl_d (64-bit),
// %cvl_r (32-bit), %cvl_p (predicates).
struct LoopScratch {
  unsigned d = 0, r = 0, p = 0, labels = 0;
  std::string declarations() const;  // "" when none was used
};

// In LoopProof::check, the label of the guarded copy (the rewriter names it).
constexpr const char* kSlowLabel = "$cvg_SLOW";

struct LoopProof {
  std::vector<size_t> proven;  // piece indexes of the accesses the check covers
  std::string check;           // PTX that leaves `ok` true when all of them stay inside
  std::string ok;              // the predicate register
  bool needs_window = false;   // uses the shared / local window registers
  bool trip_count = false;     // the trip count was derived (else only loop-invariant addresses)
};

// The check for `loop`, or nullopt when none of `accesses` can be proven.
std::optional<LoopProof> prove_loop(const std::vector<Piece>& pieces, const Loop& loop,
                                    const std::vector<LoopAccess>& accesses, LoopScratch& scratch);

}  // namespace cv::usercode::guard

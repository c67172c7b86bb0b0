#pragma once
// Accesses the guard can check at once (docs/guard.md "Grouped checks"): in a
// straight run of code (no label, branch, call, block, barrier or warp-wide
// instruction between), the
// accesses through one base register that nothing writes in between, at
// constant offsets that are multiples of their widths, such as an unrolled
// loop's tile[k], tile[k+1], ... One check of their whole range and of the
// base's alignment covers all of them; the guard then runs the run's code
// twice over: once with no per-access checks, taken when the group's check
// passes, once with every access guarded as usual.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "usercode/guard/ptx_text.h"

namespace cv::usercode::guard {

// What the rewriter knows of one memory instruction that could join a group.
struct GroupMember {
  std::string space;   // "global", "shared" or "local" (never generic)
  std::string base;    // the address register
  bool base32 = false;
  long long offset = 0;
  unsigned width = 0;
};

struct AccessGroup {
  size_t first = 0, last = 0;      // piece indexes of its first and last member
  std::vector<size_t> members;     // piece indexes, in order
  std::string space, base;
  bool base32 = false;
  long long lo = 0, hi = 0;        // [base + lo, base + hi) holds every member's bytes
  unsigned align = 1;              // the base must be a multiple of it
};

// The groups in pieces [begin, end) of one function body, not overlapping,
// each of at least two members, larger ones first. `member` says whether an
// instruction (at its piece index) may join one, and how.
std::vector<AccessGroup> find_groups(
    const std::vector<Piece>& pieces, size_t begin, size_t end,
    const std::function<std::optional<GroupMember>(size_t, const Instruction&)>& member);

// True when `ins` may write register `reg` (its destinations: the first
// operand of every instruction that has one).
bool may_write(const Instruction& ins, const std::string& reg);

}  // namespace cv::usercode::guard

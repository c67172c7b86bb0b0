#pragma once
// Explain's raw material: every recorded access and branch of one worker's
// blocks (no locks: each parallel_for chunk fills its own), merged and
// analysed after the launch (explain_analysis.h).
#include <cstdint>
#include <map>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace cv::emu {

constexpr uint8_t kSharedSpace = 255;

struct Event {
  uint64_t address;  // global: byte offset into the buffer; shared: offset into the module's TLS block
  uint64_t where;    // a code address (pc), or kLineTag | line when the line is known
  uint32_t block;    // linear block index
  uint32_t thread;   // linear thread index in the block
  uint32_t bepoch;   // barriers the thread had passed
  uint32_t wepoch;   // warp synchronisations (and barriers) the thread had passed
  uint32_t bytes;
  uint8_t kind;      // cv_emu::EventKind
  uint8_t space;     // buffer index, or kSharedSpace
};
constexpr uint64_t kLineTag = 1ull << 63;

struct BranchMasks {
  uint32_t taken = 0, not_taken = 0;
};
// One warp-wide evaluation of an `if`: the k-th time the warp's lanes reach
// it (a lane's k-th evaluation meets the others' k-th, as in lockstep).
struct BranchKey {
  int line;
  uint32_t block, warp, k;
  bool operator<(const BranchKey& o) const {
    return std::tie(line, block, warp, k) < std::tie(o.line, o.block, o.warp, o.k);
  }
};
inline uint64_t lane_key(int line, uint32_t block, uint32_t thread) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(line) & 0xfffff) << 44) |
         (static_cast<uint64_t>(block) << 12) | (thread & 0xfff);
}
using BranchMap = std::map<BranchKey, BranchMasks>;

struct WorkerRecord {
  std::vector<Event> events;
  BranchMap branches;
  std::unordered_map<uint64_t, uint32_t> evaluations;  // lane_key -> times reached
  bool truncated = false;
};

}  // namespace cv::emu

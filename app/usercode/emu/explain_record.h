#pragma once
// Explain's raw material: every recorded access and branch of one worker's
// blocks (no locks: each parallel_for chunk fills its own), merged and
// analysed after the launch (explain_analysis.h).
#include <array>
#include <cstdint>
#include <map>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace cv::emu {

constexpr uint8_t kSharedSpace = 255;

struct Event {
  uint64_t address;  // global: byte offset into the buffer; shared: offset into the module's TLS block
  uint64_t where;    // a call stack: its index in the worker's StackTable (after merging, the launch's)
  uint32_t block;    // linear block index
  uint32_t thread;   // linear thread index in the block
  uint32_t bepoch;   // barriers the thread had passed
  uint32_t wepoch;   // warp synchronisations (and barriers) the thread had passed
  uint32_t bytes;
  uint8_t kind;      // cv_emu::EventKind
  uint8_t space;     // buffer index, or kSharedSpace
};

// The code addresses of an access: the return address in the code that made
// it, then those of the calls around it, while they are in the kernel's
// module (0 past the last). Each maps to the student's lines (pc_lines.h).
constexpr int kMaxFrames = 6;
using CallStack = std::array<uint64_t, kMaxFrames>;
struct CallStackHash {
  size_t operator()(const CallStack& s) const {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint64_t pc : s) h = (h ^ pc) * 0x100000001b3ull;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};
// Distinct call stacks, numbered in the order first seen.
class StackTable {
 public:
  uint32_t intern(const CallStack& s) {
    auto [it, fresh] = ids_.emplace(s, static_cast<uint32_t>(stacks_.size()));
    if (fresh) stacks_.push_back(s);
    return it->second;
  }
  const std::vector<CallStack>& stacks() const { return stacks_; }

 private:
  std::unordered_map<CallStack, uint32_t, CallStackHash> ids_;
  std::vector<CallStack> stacks_;
};

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
  StackTable stacks;
  BranchMap branches;
  std::unordered_map<uint64_t, uint32_t> evaluations;  // lane_key -> times reached
  bool truncated = false;
};

}  // namespace cv::emu

#pragma once
// The verdict schedule (docs/emulator.md, "Races on the CPU as on the GPU"):
// a correctness check's launch runs a worker's blocks a few at a time,
// interleaved, as fibers whose turn ends at every load or store of shared or
// writable global memory (the verdict build's instrumented accesses call
// BlockStepper::park), in an order shuffled afresh each round. So two threads
// that both read a total before either writes it back lose an update, in one
// block or across blocks, as on a GPU; a race-free kernel gives its answer.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "usercode/emu/block_stepper.h"

namespace cv::emu {

// Bytes of the worker's thread-local block that hold the module's __shared__
// variables: saved and restored as blocks take turns on one worker.
struct MemoryRange {
  uintptr_t lo = 0, hi = 0;
};

struct BlockFailure {
  unsigned long long block = 0;
  BlockError error;
};

class VerdictInterleaver {
 public:
  static constexpr unsigned kBlocksAtOnce = 4;
  explicit VerdictInterleaver(size_t stack_bytes);
  // Blocks [first, last) of the launch (ctx's grid and block dimensions set).
  // `turn(r)` is called before stepper r's threads run (the access hook parks
  // the current one); `go_on(b)` false skips block b (an earlier one failed).
  std::optional<BlockFailure> run(const cv_emu::Entry& e, void** params, cv_emu::Ctx* ctx,
                                  unsigned long long first, unsigned long long last,
                                  const std::vector<MemoryRange>& shared, uint64_t seed,
                                  const std::function<void(BlockStepper*)>& turn,
                                  const std::function<bool(unsigned long long)>& go_on,
                                  std::atomic<unsigned long long>* blocks_done = nullptr);
  size_t stack_bytes() const { return stack_bytes_; }

 private:
  size_t stack_bytes_;
  std::vector<std::unique_ptr<BlockStepper>> steppers_;
};

}  // namespace cv::emu

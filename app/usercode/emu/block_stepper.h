#pragma once
// One worker thread's emulated block: its threads as fibers, switched at
// __syncthreads() and at warp operations. A round resumes every runnable
// thread until it blocks; then warp collectives whose lanes have all arrived
// complete, or, when every thread waits at a barrier, the barrier opens.
// When nothing can move, the block is stuck: the error names the line, how
// many threads reached it and the block (never a hang).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "usercode/emu/fiber.h"
#include "usercode/emu/prelude/cudaviz_emu_abi.h"

namespace cv::emu {

struct BlockError {
  std::string kind;     // "barrier", "warp", "trap"
  std::string message;  // a sentence
  int line = 0;
};

class BlockStepper;

struct Lane {
  enum State : uint8_t { Runnable, AtBarrier, AtWarp, Done, Aborted, Parked };
  FiberContext ctx;
  BlockStepper* owner = nullptr;
  cv_emu::Dim tid{0, 0, 0};
  unsigned linear = 0;
  State state = Runnable;
  bool fresh = true;  // needs prepare_fiber before its next start
  int line = 0;       // where it waits
  uint32_t bepoch = 0, wepoch = 0;  // barriers / warp syncs passed (explain's ordering)
};

std::string dim_text(const cv_emu::Dim& d);  // "(3,0,0)"

// The words for a barrier that `reached` of `threads` threads of `block`
// reached while `done` others had finished (fibers and the fast path alike).
std::string barrier_not_reached(int line, unsigned reached, unsigned threads, unsigned done, const cv_emu::Dim& block);

// The fast path's warp operation: every thread of the block (`threads`) that
// has not left (`done`, null: none has) posted its slot at the same call.
// Completes each warp's collective as the fibers' scheduler does, or says
// what is wrong with a mask (the same words).
std::optional<BlockError> fission_warps(cv_emu::LaneSlot* slots, const unsigned char* done, unsigned threads,
                                        const cv_emu::Dim& block);

class BlockStepper {
 public:
  explicit BlockStepper(size_t stack_bytes);
  // Runs one block; ctx's block_idx, block_dim, grid_dim and hooks are set.
  std::optional<BlockError> run(const cv_emu::Entry& e, void** params, cv_emu::Ctx* ctx);
  // The same in steps, so a verdict schedule can interleave several blocks
  // (verdict_interleaver.h): start, then step() until it is not Going. A nonzero
  // seed shuffles the order threads take their turns in, afresh each round.
  enum class Step { Going, Done, Failed };
  void start(const cv_emu::Entry& e, void** params, cv_emu::Ctx* ctx, uint64_t shuffle_seed);
  Step step(std::optional<BlockError>& err);
  // Called on a fiber (a verdict schedule's memory access): the thread stops
  // until the next round, so others run between its load and its store.
  void park();
  Lane* current() const { return current_; }
  // Called on a fiber by the hooks: wait at a barrier / at a warp operation.
  void wait_barrier(int line);
  void wait_warp(int line);
  // Ends the block from a fiber (__trap, assert): never returns to the kernel.
  [[noreturn]] void abort_block(BlockError e);
  size_t stack_bytes() const { return stack_bytes_; }

 private:
  static void fiber_main(void* lane);
  void enter(Lane& l);              // make l the running thread (ctx, fresh start)
  void block_and_pass(Lane& l);     // l stops: continue the next runnable lane of this round, else the scheduler
  void set_state(Lane& l, Lane::State s);
  void ensure(size_t threads);
  bool complete_warps(unsigned threads, std::optional<BlockError>& err);
  void shuffle();
  Step finish(std::optional<BlockError> err, std::optional<BlockError>& out);
  std::optional<BlockError> stuck(unsigned threads);

  size_t stack_bytes_;
  FiberContext sched_;
  std::unique_ptr<FiberStacks> stacks_;
  std::vector<Lane> lanes_;
  std::vector<cv_emu::LaneSlot> slots_;
  Lane* current_ = nullptr;
  unsigned threads_ = 0;
  unsigned count_[6] = {0, 0, 0, 0, 0, 0};  // lanes in each Lane::State
  std::vector<unsigned> order_, pos_;  // the round's order of lanes, and each lane's place in it
  uint64_t seed_ = 0;
  uint32_t warp_waiting_[32] = {}, warp_done_[32] = {};  // per warp: lanes at a warp operation / finished
  cv_emu::Ctx* ctx_ = nullptr;
  const cv_emu::Entry* entry_ = nullptr;
  void** params_ = nullptr;
  std::optional<BlockError> abort_;
};

}  // namespace cv::emu

// VerdictInterleaver: a few blocks at once, each thread's turn ending at its
// shared or writable memory accesses (verdict_interleaver.h).
#include "usercode/emu/verdict_interleaver.h"

#include <cstring>

namespace cv::emu {
namespace {

cv_emu::Dim block_dims(unsigned long long b, const cv_emu::Dim& g) {
  return {static_cast<unsigned>(b % g.x), static_cast<unsigned>((b / g.x) % g.y),
          static_cast<unsigned>(b / (static_cast<unsigned long long>(g.x) * g.y))};
}

// One block's copy of the shared variables while another block's are in place.
struct Image {
  std::vector<char> bytes;
  void save(const std::vector<MemoryRange>& rs) {
    size_t at = 0;
    for (const MemoryRange& r : rs) at += r.hi - r.lo;
    bytes.resize(at);
    at = 0;
    for (const MemoryRange& r : rs) {
      std::memcpy(bytes.data() + at, reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
      at += r.hi - r.lo;
    }
  }
  void restore(const std::vector<MemoryRange>& rs) const {
    size_t at = 0;
    for (const MemoryRange& r : rs) {
      std::memcpy(reinterpret_cast<void*>(r.lo), bytes.data() + at, r.hi - r.lo);
      at += r.hi - r.lo;
    }
  }
};

uint64_t next(uint64_t& s) {
  s ^= s << 13, s ^= s >> 7, s ^= s << 17;
  return s;
}

}  // namespace

VerdictInterleaver::VerdictInterleaver(size_t stack_bytes) : stack_bytes_(stack_bytes) {
  for (unsigned i = 0; i < kBlocksAtOnce; ++i) steppers_.push_back(std::make_unique<BlockStepper>(stack_bytes));
}

std::optional<BlockFailure> VerdictInterleaver::run(const cv_emu::Entry& e, void** params, cv_emu::Ctx* ctx,
                                               unsigned long long first, unsigned long long last,
                                               const std::vector<MemoryRange>& shared, uint64_t seed,
                                               const std::function<void(BlockStepper*)>& turn,
                                               const std::function<bool(unsigned long long)>& go_on,
                                               std::atomic<unsigned long long>* blocks_done) {
  std::optional<BlockFailure> failed;
  uint64_t s = seed | 1;
  std::vector<Image> images(kBlocksAtOnce);
  for (unsigned long long b0 = first; b0 < last && go_on(b0); b0 += kBlocksAtOnce) {
    const unsigned count = static_cast<unsigned>(std::min<unsigned long long>(kBlocksAtOnce, last - b0));
    std::vector<unsigned> live;
    for (unsigned i = 0; i < count; ++i) {
      ctx->block_idx = block_dims(b0 + i, ctx->grid_dim);
      steppers_[i]->start(e, params, ctx, next(s) | 1);
      images[i].save(shared);  // each block starts from what shared memory holds now
      live.push_back(i);
    }
    int in_place = -1;  // whose shared variables the worker holds
    // Cycles: every live block takes one round, in an order shuffled each
    // cycle, so blocks that run the same code stay in step and their threads'
    // reads and writes of the same word meet.
    while (!live.empty()) {
      for (size_t j = live.size(); j > 1; --j) std::swap(live[j - 1], live[next(s) % j]);
      std::vector<unsigned> still;
      for (const unsigned i : live) {
        if (in_place != static_cast<int>(i)) {
          if (in_place >= 0) images[static_cast<unsigned>(in_place)].save(shared);
          images[i].restore(shared);
          in_place = static_cast<int>(i);
        }
        ctx->block_idx = block_dims(b0 + i, ctx->grid_dim);
        turn(steppers_[i].get());
        std::optional<BlockError> err;
        const BlockStepper::Step st = steppers_[i]->step(err);
        if (st == BlockStepper::Step::Going) still.push_back(i);
        else if (st == BlockStepper::Step::Failed && (!failed || b0 + i < failed->block))
          failed = BlockFailure{b0 + i, *err};
        else if (st == BlockStepper::Step::Done && blocks_done)
          blocks_done->fetch_add(1, std::memory_order_relaxed);
      }
      live.swap(still);
    }
    turn(nullptr);
    if (failed) break;
  }
  return failed;
}

}  // namespace cv::emu

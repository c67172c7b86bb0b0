#include "usercode/emu/block_stepper.h"

#include <cstdio>
#include <stdexcept>

#include "usercode/emu/warp_ops.h"

namespace cv::emu {
namespace {

const char* op_name(int op) {
  switch (op) {
    case cv_emu::kShfl: return "__shfl_sync()";
    case cv_emu::kShflUp: return "__shfl_up_sync()";
    case cv_emu::kShflDown: return "__shfl_down_sync()";
    case cv_emu::kShflXor: return "__shfl_xor_sync()";
    case cv_emu::kBallot: return "__ballot_sync()";
    case cv_emu::kAny: return "__any_sync()";
    case cv_emu::kAll: return "__all_sync()";
    case cv_emu::kSyncWarp: return "__syncwarp()";
    case cv_emu::kActiveMask: return "__activemask()";
  }
  return "a warp operation";
}

// "16-31" / "3, 5, 9-12"
std::string lane_list(unsigned mask) {
  std::string s;
  for (unsigned l = 0; l < 32;) {
    if (!(mask >> l & 1u)) {
      ++l;
      continue;
    }
    unsigned e = l;
    while (e + 1 < 32 && (mask >> (e + 1) & 1u)) ++e;
    if (!s.empty()) s += ", ";
    s += std::to_string(l) + (e > l ? "-" + std::to_string(e) : "");
    l = e + 1;
  }
  return s;
}

std::string hex(unsigned m) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", m);
  return b;
}

// Lane l of warp w waits with slot s: what is wrong with its mask, if anything.
std::optional<BlockError> mask_error(const cv_emu::LaneSlot& s, unsigned l, unsigned w, unsigned present,
                                     unsigned exited, unsigned n, const cv_emu::Dim& bi);

}  // namespace

std::string dim_text(const cv_emu::Dim& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

BlockStepper::BlockStepper(size_t stack_bytes)
    : stack_bytes_(stack_bytes), lanes_(1024), slots_(1024), order_(1024), pos_(1024) {
  for (unsigned i = 0; i < 1024; ++i) order_[i] = pos_[i] = i;
  for (Lane& l : lanes_) l.owner = this;
  set_thread_stack(sched_);  // a BlockStepper lives on one thread (thread_local)
}

void BlockStepper::ensure(size_t threads) {
  if (stacks_ && stacks_->count() >= threads) return;
  stacks_ = std::make_unique<FiberStacks>(threads, stack_bytes_);
  for (size_t i = 0; i < threads; ++i) {
    lanes_[i].ctx.stack_lo = stacks_->low(i);
    lanes_[i].ctx.stack_bytes = stacks_->bytes();
    lanes_[i].fresh = true;
  }
}

void BlockStepper::fiber_main(void* arg) {
  fiber_started();
  Lane& lane = *static_cast<Lane*>(arg);
  BlockStepper& r = *lane.owner;
  for (;;) {
    try {
      r.entry_->call(r.params_);
    } catch (const std::exception& e) {
      r.abort_block({"trap", std::string("the kernel threw: ") + e.what(), 0});
    } catch (...) {
      r.abort_block({"trap", "the kernel threw an exception", 0});
    }
    r.set_state(lane, Lane::Done);
    r.block_and_pass(lane);
  }
}

void BlockStepper::set_state(Lane& l, Lane::State s) {
  --count_[l.state];
  ++count_[s];
  const unsigned w = l.linear >> 5, bit = 1u << (l.linear & 31);
  if (l.state == Lane::AtWarp) warp_waiting_[w] &= ~bit;
  if (s == Lane::AtWarp) warp_waiting_[w] |= bit;
  if (s == Lane::Done) warp_done_[w] |= bit;
  l.state = s;
}

void BlockStepper::enter(Lane& l) {
  current_ = &l;
  ctx_->thread_idx = l.tid;
  ctx_->slot = &slots_[l.linear];
  if (l.fresh) {
    prepare_fiber(l.ctx, &fiber_main, &l);
    l.fresh = false;
  }
}

// A round runs the runnable lanes in the round's order (index order, or
// shuffled in a verdict schedule), each passing control straight to the next
// (one switch per thread), the last back to the scheduler.
void BlockStepper::block_and_pass(Lane& l) {
  for (unsigned k = pos_[l.linear] + 1; k < threads_; ++k)
    if (Lane& next = lanes_[order_[k]]; next.state == Lane::Runnable) {
      enter(next);
      switch_fiber(l.ctx, next.ctx);
      return;
    }
  current_ = nullptr;
  switch_fiber(l.ctx, sched_);
}

void BlockStepper::wait_barrier(int line) {
  Lane& l = *current_;
  set_state(l, Lane::AtBarrier);
  l.line = line;
  block_and_pass(l);
}

void BlockStepper::wait_warp(int line) {
  Lane& l = *current_;
  set_state(l, Lane::AtWarp);
  l.line = line;
  block_and_pass(l);
}

void BlockStepper::abort_block(BlockError e) {
  if (!abort_) abort_ = std::move(e);
  Lane& l = *current_;
  set_state(l, Lane::Aborted);
  current_ = nullptr;
  switch_fiber(l.ctx, sched_);
  std::abort();  // never resumed
}

std::optional<BlockError> BlockStepper::run(const cv_emu::Entry& e, void** params, cv_emu::Ctx* ctx) {
  start(e, params, ctx, 0);
  std::optional<BlockError> err;
  while (step(err) == Step::Going) {
  }
  return err;
}

void BlockStepper::start(const cv_emu::Entry& e, void** params, cv_emu::Ctx* ctx, uint64_t shuffle_seed) {
  const cv_emu::Dim bd = ctx->block_dim;
  const unsigned n = bd.x * bd.y * bd.z;
  ensure(n);
  entry_ = &e;
  params_ = params;
  ctx_ = ctx;
  threads_ = n;
  seed_ = shuffle_seed;
  abort_.reset();
  for (unsigned i = 0; i < n; ++i) {
    Lane& l = lanes_[i];
    l.linear = i;
    l.tid = {i % bd.x, (i / bd.x) % bd.y, i / (bd.x * bd.y)};
    l.state = Lane::Runnable;
    l.bepoch = l.wepoch = 0;
    order_[i] = pos_[i] = i;
  }
  for (unsigned& c : count_) c = 0;
  count_[Lane::Runnable] = n;
  for (unsigned w = 0; w < 32; ++w) warp_waiting_[w] = warp_done_[w] = 0;
  shuffle();
}

// A new order for the next round (verdict schedules; else index order stays).
void BlockStepper::shuffle() {
  if (!seed_) return;
  for (unsigned i = threads_; i > 1; --i) {
    seed_ ^= seed_ << 13, seed_ ^= seed_ >> 7, seed_ ^= seed_ << 17;  // xorshift64
    std::swap(order_[i - 1], order_[seed_ % i]);
  }
  for (unsigned i = 0; i < threads_; ++i) pos_[order_[i]] = i;
}

BlockStepper::Step BlockStepper::finish(std::optional<BlockError> err, std::optional<BlockError>& out) {
  current_ = nullptr;
  if (err)  // threads left inside the kernel start afresh next time
    for (unsigned i = 0; i < threads_; ++i)
      if (lanes_[i].state != Lane::Done) lanes_[i].fresh = true;
  out = std::move(err);
  return out ? Step::Failed : Step::Done;
}

// One round (every runnable thread until it blocks, parks or ends), then
// what the block's state allows: a barrier opens, warp operations complete.
BlockStepper::Step BlockStepper::step(std::optional<BlockError>& out) {
  const unsigned n = threads_;
  for (unsigned k = 0; k < n; ++k)
    if (Lane& l = lanes_[order_[k]]; l.state == Lane::Runnable) {
      enter(l);
      switch_fiber(sched_, l.ctx);  // back when the round is over
      break;
    }
  if (abort_) return finish(abort_, out);
  if (count_[Lane::Parked]) {  // parked at a memory access: they go on next round
    for (unsigned i = 0; i < n; ++i)
      if (lanes_[i].state == Lane::Parked) set_state(lanes_[i], Lane::Runnable);
    shuffle();
    return Step::Going;
  }
  if (count_[Lane::Runnable]) return Step::Going;  // an abort's leftovers cannot happen; be safe
  if (count_[Lane::Done] == n) return finish(std::nullopt, out);
  if (count_[Lane::AtBarrier] == n) {  // every thread at a barrier: it opens
    for (unsigned i = 0; i < n; ++i) {
      lanes_[i].state = Lane::Runnable;
      ++lanes_[i].bepoch, ++lanes_[i].wepoch;
    }
    count_[Lane::AtBarrier] = 0;
    count_[Lane::Runnable] = n;
    shuffle();
    return Step::Going;
  }
  std::optional<BlockError> err;
  if (count_[Lane::AtWarp] && complete_warps(n, err)) return Step::Going;
  return finish(err ? err : stuck(n), out);
}

void BlockStepper::park() {
  Lane& l = *current_;
  set_state(l, Lane::Parked);
  block_and_pass(l);
}

// Completes every warp operation whose lanes have all arrived; false when none could.
bool BlockStepper::complete_warps(unsigned n, std::optional<BlockError>& err) {
  bool moved = false;
  const cv_emu::Dim bi = ctx_->block_idx;
  for (unsigned w = 0; w * 32 < n; ++w) {
    const unsigned first = w * 32, count = std::min(32u, n - first);
    const unsigned present = count == 32 ? ~0u : (1u << count) - 1;
    cv_emu::LaneSlot* slots = &slots_[first];
    unsigned waiting = warp_waiting_[w];
    const unsigned exited = warp_done_[w];
    for (unsigned l = 0; waiting >> l; ++l) {
      if (!(waiting >> l & 1u)) continue;
      const cv_emu::LaneSlot& s = slots[l];
      unsigned group = 0;
      if (s.op == cv_emu::kActiveMask) {
        // The lanes that are here together: those waiting at this same call.
        for (unsigned j = 0; j < count; ++j)
          if ((waiting >> j & 1u) && slots[j].op == cv_emu::kActiveMask && slots[j].line == s.line)
            group |= 1u << j;
      } else {
        if (std::optional<BlockError> e = mask_error(s, l, w, present, exited, n, bi)) {
          err = std::move(e);
          return false;
        }
        bool ready = (s.mask & waiting) == s.mask;
        for (unsigned j = 0; ready && j < count; ++j)
          if ((s.mask >> j & 1u) && slots[j].op == cv_emu::kActiveMask) ready = false;
        if (!ready) continue;
        group = s.mask;
      }
      complete_collective(slots, group);
      for (unsigned j = 0; j < count; ++j)
        if (group >> j & 1u) {
          set_state(lanes_[first + j], Lane::Runnable);
          ++lanes_[first + j].wepoch;
        }
      waiting &= ~group;
      moved = true;
    }
  }
  return moved;
}

// Nothing can move: name what waits and for whom.
std::optional<BlockError> BlockStepper::stuck(unsigned n) {
  const cv_emu::Dim bi = ctx_->block_idx;
  unsigned at_barrier = 0, done = 0, at_warp = 0;
  int barrier_line = 0, warp_line = 0, warp_op = 0;
  unsigned warp_lane = 0;
  for (unsigned i = 0; i < n; ++i) {
    const Lane& l = lanes_[i];
    if (l.state == Lane::AtBarrier && !at_barrier++) barrier_line = l.line;
    if (l.state == Lane::Done) ++done;
    if (l.state == Lane::AtWarp && !at_warp++) warp_line = l.line, warp_op = slots_[i].op, warp_lane = i;
  }
  if (at_barrier && !at_warp)
    return BlockError{"barrier", barrier_not_reached(barrier_line, at_barrier, n, done, bi), barrier_line};
  if (at_warp) {
    const unsigned w = warp_lane / 32, first = w * 32, count = std::min(32u, n - first);
    const unsigned mask = slots_[warp_lane].mask;
    unsigned missing = 0;
    int other_line = 0;
    for (unsigned j = 0; j < count; ++j)
      if ((mask >> j & 1u) && lanes_[first + j].state != Lane::AtWarp) {
        missing |= 1u << j;
        if (!other_line) other_line = lanes_[first + j].line;
      }
    std::string m = std::string(op_name(warp_op)) + " at line " + std::to_string(warp_line) + " in warp " +
                    std::to_string(w) + " of block " + dim_text(bi) + " waits for lanes " + lane_list(missing) +
                    " named in its mask " + hex(mask) + ", which never reach it";
    if (at_barrier)
      m += " (they wait at __syncthreads() at line " + std::to_string(barrier_line ? barrier_line : other_line) + ")";
    return BlockError{"warp", m, warp_line};
  }
  return BlockError{"barrier", "the block " + dim_text(bi) + " cannot go on", 0};
}

}  // namespace cv::emu

namespace cv::emu {
namespace {

std::optional<BlockError> mask_error(const cv_emu::LaneSlot& s, unsigned l, unsigned w, unsigned present,
                                     unsigned exited, unsigned n, const cv_emu::Dim& bi) {
  auto where = [&] {
    return std::string(op_name(s.op)) + " at line " + std::to_string(s.line) + " in warp " + std::to_string(w) +
           " of block " + dim_text(bi);
  };
  if (s.op == cv_emu::kActiveMask) return std::nullopt;
  if (s.mask & ~present)
    return BlockError{"warp", where() + ": its mask " + hex(s.mask) + " names lanes " + lane_list(s.mask & ~present) +
                                  ", which are not there (the block has " + std::to_string(n) + " threads)", s.line};
  if (!(s.mask >> l & 1u))
    return BlockError{"warp", where() + ": lane " + std::to_string(l) + " calls it with mask " + hex(s.mask) +
                                  ", which does not name the lane itself", s.line};
  if (s.mask & exited)
    return BlockError{"warp", where() + ": its mask " + hex(s.mask) + " names lanes " + lane_list(s.mask & exited) +
                                  ", which finished without reaching it", s.line};
  return std::nullopt;
}

}  // namespace

std::string barrier_not_reached(int line, unsigned reached, unsigned n, unsigned done, const cv_emu::Dim& bi) {
  return "__syncthreads() at line " + std::to_string(line) + " reached by " + std::to_string(reached) + " of " +
         std::to_string(n) + " threads of block " + dim_text(bi) + "; the other " + std::to_string(done) +
         " finished without reaching it (every thread of a block must reach each barrier)";
}

std::optional<BlockError> fission_warps(cv_emu::LaneSlot* all, const unsigned char* done, unsigned n,
                                        const cv_emu::Dim& bi) {
  for (unsigned w = 0; w * 32 < n; ++w) {
    const unsigned first = w * 32, count = std::min(32u, n - first);
    const unsigned present = count == 32 ? ~0u : (1u << count) - 1;
    cv_emu::LaneSlot* slots = all + first;
    unsigned exited = 0;
    for (unsigned j = 0; done && j < count; ++j) exited |= (done[first + j] ? 1u : 0u) << j;
    unsigned waiting = present & ~exited;
    for (unsigned l = 0; waiting >> l; ++l) {
      if (!(waiting >> l & 1u)) continue;
      const cv_emu::LaneSlot& s = slots[l];
      if (std::optional<BlockError> e = mask_error(s, l, w, present, exited, n, bi)) return e;
      const unsigned group = s.op == cv_emu::kActiveMask ? waiting : s.mask;
      if ((group & waiting) != group) {  // lanes it names already met another call with other masks
        return BlockError{"warp", std::string(op_name(s.op)) + " at line " + std::to_string(s.line) + " in warp " +
                                      std::to_string(w) + " of block " + dim_text(bi) + " waits for lanes " +
                                      lane_list(group & ~waiting) + " named in its mask " + hex(s.mask) +
                                      ", which never reach it", s.line};
      }
      complete_collective(slots, group);
      waiting &= ~group;
    }
  }
  return std::nullopt;
}

}  // namespace cv::emu

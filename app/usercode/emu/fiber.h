#pragma once
// Fibers for emulated threads: a stack each and a context switch that saves
// only what the C ABI asks a callee to keep (x86-64: a few registers, the
// SSE and x87 control words), so switching costs a few nanoseconds; other
// machines use ucontext. A fiber's function never returns: it switches away.
#include <cstddef>
#include <memory>
#include <vector>

namespace cv::emu {

struct FiberContext {
  void* sp = nullptr;   // saved stack pointer (x86-64)
  void* uc = nullptr;   // ucontext_t (other machines)
  void* stack_lo = nullptr;
  size_t stack_bytes = 0;
};

// Saves the running context in `from` and continues `to`.
void switch_fiber(FiberContext& from, FiberContext& to);
// A fiber's first instructions call this (AddressSanitizer's bookkeeping).
void fiber_started();
// The calling thread's own stack into c (AddressSanitizer needs the bounds of
// the stack it switches back to; a no-op otherwise).
void set_thread_stack(FiberContext& c);
// Makes `c` (whose stack is set) start entry(arg) when switched to.
void prepare_fiber(FiberContext& c, void (*entry)(void*), void* arg);

// n stacks of `bytes` each in one mapping, with a guard page below each, so
// a deep recursion ends in a fault (the runner's) instead of silent damage.
class FiberStacks {
 public:
  FiberStacks(size_t n, size_t bytes);
  ~FiberStacks();
  FiberStacks(const FiberStacks&) = delete;
  FiberStacks& operator=(const FiberStacks&) = delete;
  void* low(size_t i) const;  // the usable stack's lowest address
  size_t bytes() const { return bytes_; }
  size_t count() const { return n_; }

 private:
  void* base_ = nullptr;
  size_t n_, bytes_, stride_, mapped_;
};

}  // namespace cv::emu

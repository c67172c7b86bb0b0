#include "usercode/emu/fiber.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(__x86_64__)
// cv_emu_switch(void** save_sp, void* new_sp): push the callee-saved
// registers, swap stacks, pop the other side's. The SSE / x87 control words
// are not switched: emulated threads share the worker's (nothing here or in
// a kernel changes them), which keeps a switch at a few nanoseconds.
asm(R"(
.text
.globl cv_emu_switch
.hidden cv_emu_switch
.type cv_emu_switch,@function
cv_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
.size cv_emu_switch,.-cv_emu_switch
.globl cv_emu_fiber_start
.hidden cv_emu_fiber_start
.type cv_emu_fiber_start,@function
cv_emu_fiber_start:
  movq %r12, %rdi
  callq *%r13
  ud2
.size cv_emu_fiber_start,.-cv_emu_fiber_start
)");
extern "C" void cv_emu_switch(void** save_sp, void* new_sp);
extern "C" void cv_emu_fiber_start();
#endif

namespace cv::emu {

void switch_fiber(FiberContext& from, FiberContext& to) {
#if defined(__SANITIZE_ADDRESS__)
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, to.stack_lo, to.stack_bytes);
#endif
#if defined(__x86_64__)
  cv_emu_switch(&from.sp, to.sp);
#else
  if (!from.uc) from.uc = new ucontext_t;
  swapcontext(static_cast<ucontext_t*>(from.uc), static_cast<ucontext_t*>(to.uc));
#endif
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);  // back in `from`
#endif
}

void fiber_started() {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
}

void set_thread_stack(FiberContext& c) {
#if defined(__SANITIZE_ADDRESS__)
  pthread_attr_t a;
  if (pthread_getattr_np(pthread_self(), &a) != 0) return;
  pthread_attr_getstack(&a, &c.stack_lo, &c.stack_bytes);
  pthread_attr_destroy(&a);
#else
  (void)c;
#endif
}

void prepare_fiber(FiberContext& c, void (*entry)(void*), void* arg) {
#if defined(__x86_64__)
  // The frame cv_emu_switch pops: r15, r14, r13, r12, rbx, rbp, return address.
  const uintptr_t top = (reinterpret_cast<uintptr_t>(c.stack_lo) + c.stack_bytes) & ~uintptr_t{15};
  auto* sp = reinterpret_cast<uint64_t*>(top - 72);  // entry sees rsp % 16 == 8, as after a call
  std::memset(sp, 0, 72);
  sp[2] = reinterpret_cast<uint64_t>(entry);  // r13
  sp[3] = reinterpret_cast<uint64_t>(arg);    // r12
  sp[6] = reinterpret_cast<uint64_t>(&cv_emu_fiber_start);
  c.sp = sp;
#else
  auto* uc = static_cast<ucontext_t*>(c.uc ? c.uc : (c.uc = new ucontext_t));
  getcontext(uc);
  uc->uc_stack.ss_sp = c.stack_lo;
  uc->uc_stack.ss_size = c.stack_bytes;
  uc->uc_link = nullptr;
  // makecontext passes ints; split the pointer in two.
  const uintptr_t a = reinterpret_cast<uintptr_t>(arg), e = reinterpret_cast<uintptr_t>(entry);
  makecontext(uc, reinterpret_cast<void (*)()>(+[](unsigned e_hi, unsigned e_lo, unsigned a_hi, unsigned a_lo) {
                auto* f = reinterpret_cast<void (*)(void*)>((uintptr_t{e_hi} << 32) | e_lo);
                f(reinterpret_cast<void*>((uintptr_t{a_hi} << 32) | a_lo));
              }),
              4, unsigned(uint64_t(e) >> 32), unsigned(e), unsigned(uint64_t(a) >> 32), unsigned(a));
#endif
}

FiberStacks::FiberStacks(size_t n, size_t bytes) : n_(n) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  bytes_ = (bytes + page - 1) / page * page;
  stride_ = bytes_ + page;
  mapped_ = stride_ * n;
  base_ = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base_ == MAP_FAILED)
    throw std::runtime_error("mmap of " + std::to_string(mapped_ >> 20) + " MiB of fiber stacks: " +
                             std::strerror(errno));
  for (size_t i = 0; i < n; ++i) mprotect(static_cast<char*>(base_) + i * stride_, page, PROT_NONE);
}

FiberStacks::~FiberStacks() { munmap(base_, mapped_); }

void* FiberStacks::low(size_t i) const {
  return static_cast<char*>(base_) + i * stride_ + (stride_ - bytes_);
}

}  // namespace cv::emu

// cudaviz emulator, verdict builds only (docs/emulator.md, "Races on the CPU
// as on the GPU"): the compiler's thread-sanitizer instrumentation
// (-fsanitize=thread, without its runtime) calls these before every load and
// store of the kernel. A store hands its address to the emulator, whose
// verdict schedule ends the thread's turn there when the memory is shared or
// writable, so other threads run between a read and its write-back; loads
// cost only the call.
#pragma once

extern "C" const int cv_emu_verdict_build = 1;  // Module::verdict_build

#define CV_EMU_VERDICT_FN extern "C" CV_EMU_NO_TSAN __attribute__((visibility("default")))
#define CV_EMU_VERDICT_ACCESS(name, bytes, kind)                                    \
  CV_EMU_VERDICT_FN void name(void* p) {                                           \
    if (kind != cv_emu::kRead) cv_emu_ctx_tls.hooks->access(p, bytes, kind, nullptr, nullptr); \
  }
#define CV_EMU_VERDICT_SIZES(prefix, kind)                                                          \
  CV_EMU_VERDICT_ACCESS(prefix##1, 1, kind) CV_EMU_VERDICT_ACCESS(prefix##2, 2, kind)               \
  CV_EMU_VERDICT_ACCESS(prefix##4, 4, kind) CV_EMU_VERDICT_ACCESS(prefix##8, 8, kind)               \
  CV_EMU_VERDICT_ACCESS(prefix##16, 16, kind)
CV_EMU_VERDICT_SIZES(__tsan_read, cv_emu::kRead)
CV_EMU_VERDICT_SIZES(__tsan_write, cv_emu::kWrite)
CV_EMU_VERDICT_SIZES(__tsan_unaligned_read, cv_emu::kRead)
CV_EMU_VERDICT_SIZES(__tsan_unaligned_write, cv_emu::kWrite)
CV_EMU_VERDICT_SIZES(__tsan_volatile_read, cv_emu::kRead)
CV_EMU_VERDICT_SIZES(__tsan_volatile_write, cv_emu::kWrite)
#undef CV_EMU_VERDICT_SIZES
#undef CV_EMU_VERDICT_ACCESS
CV_EMU_VERDICT_FN void __tsan_read_range(void*, unsigned long) {}
CV_EMU_VERDICT_FN void __tsan_write_range(void* p, unsigned long n) {
  cv_emu_ctx_tls.hooks->access(p, static_cast<unsigned>(n), cv_emu::kWrite, nullptr, nullptr);
}
CV_EMU_VERDICT_FN void __tsan_init() {}
CV_EMU_VERDICT_FN void __tsan_func_entry(void*) {}
CV_EMU_VERDICT_FN void __tsan_func_exit() {}
CV_EMU_VERDICT_FN void __tsan_vptr_update(void**, void*) {}
CV_EMU_VERDICT_FN void __tsan_vptr_read(void**) {}
#undef CV_EMU_VERDICT_FN

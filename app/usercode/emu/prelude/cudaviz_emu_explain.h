// cudaviz emulator, explain builds only (docs/emulator.md, "How explain
// works"): the compiler's thread-sanitizer instrumentation (-fsanitize=thread)
// calls these for every load and store of the kernel; they hand the address
// and the call's place in the code to the emulator, which keeps the ones that
// land in the launch's buffers or in shared memory. Every `if` of your file
// reports which way each thread went.
#pragma once

#define CV_EMU_TSAN extern "C" CV_EMU_NO_TSAN __attribute__((visibility("default")))
#define CV_EMU_ACCESS(name, bytes, kind)                                                          \
  CV_EMU_TSAN void name(void* p) {                                                                 \
    cv_emu_ctx_tls.hooks->access(p, bytes, kind, CV_EMU_CALLER);                  \
  }
#define CV_EMU_SIZES(prefix, kind)                                                                 \
  CV_EMU_ACCESS(prefix##1, 1, kind) CV_EMU_ACCESS(prefix##2, 2, kind)                              \
  CV_EMU_ACCESS(prefix##4, 4, kind) CV_EMU_ACCESS(prefix##8, 8, kind)                              \
  CV_EMU_ACCESS(prefix##16, 16, kind)
CV_EMU_SIZES(__tsan_read, cv_emu::kRead)
CV_EMU_SIZES(__tsan_write, cv_emu::kWrite)
CV_EMU_SIZES(__tsan_unaligned_read, cv_emu::kRead)
CV_EMU_SIZES(__tsan_unaligned_write, cv_emu::kWrite)
CV_EMU_SIZES(__tsan_volatile_read, cv_emu::kRead)
CV_EMU_SIZES(__tsan_volatile_write, cv_emu::kWrite)
#undef CV_EMU_SIZES
#undef CV_EMU_ACCESS
CV_EMU_TSAN void __tsan_read_range(void* p, unsigned long n) {
  cv_emu_ctx_tls.hooks->access(p, static_cast<unsigned>(n), cv_emu::kRead, CV_EMU_CALLER);
}
CV_EMU_TSAN void __tsan_write_range(void* p, unsigned long n) {
  cv_emu_ctx_tls.hooks->access(p, static_cast<unsigned>(n), cv_emu::kWrite, CV_EMU_CALLER);
}
CV_EMU_TSAN void __tsan_init() {}
CV_EMU_TSAN void __tsan_func_entry(void*) {}
CV_EMU_TSAN void __tsan_func_exit() {}
CV_EMU_TSAN void __tsan_vptr_update(void**, void*) {}
CV_EMU_TSAN void __tsan_vptr_read(void**) {}
#undef CV_EMU_TSAN

CV_EMU_NO_TSAN inline bool cv_emu_branch(bool taken, int line) {
  cv_emu_ctx_tls.hooks->branch(line, taken ? 1 : 0);
  return taken;
}
// From here to the end of your file, `if (c)` also reports c (the epilogue undoes it).
#define if(...) if (cv_emu_branch(static_cast<bool>(__VA_ARGS__), __LINE__))

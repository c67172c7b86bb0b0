#pragma once
// The CPU runner's last words: a segfault (or bus error, integer division by
// zero, illegal instruction) in a student's code ends the runner, as before,
// but first a signal handler sends the app one reply frame naming it: the
// signal, the code address in the student's module (the app finds its line),
// the address touched and the nearest buffer's element, and the emulated
// thread and block that ran. Only async-signal-safe work happens in the
// handler: it formats into its own buffer and write()s. In the runner only.
#include <cstdint>
#include <string>
#include <vector>

#include "usercode/wire/launch_abi.h"

namespace cv::usercode::runner {

// Handlers for SIGSEGV, SIGBUS, SIGFPE and SIGILL that reply on `sock`, then end the process.
void install_signal_reply(int sock);
// The module the next launches run (its code's range and load address) and its entry's name.
void set_signal_module(uintptr_t text_lo, uintptr_t text_hi, uintptr_t base, const std::string& kernel);
// The launch's buffers (the first 16), before it runs.
void set_signal_buffers(const std::vector<BufferView>& buffers);

// The reply's JSON for the fault: what the handler writes, from the module
// and buffers set above (app_tests' ErrorLines read it through the runner).
// `where` true when an emulated thread was running (block, thread given).
struct SignalFacts {
  int signal = 0;
  uintptr_t pc = 0, address = 0;
  bool where = false;
  bool batched = false;  // the thread ran batched (emu::current_thread): its place is approximate
  unsigned block[3] = {0, 0, 0}, thread[3] = {0, 0, 0};
};
// Writes at most `cap` bytes (NUL-terminated); returns the length.
size_t signal_reply_json(const SignalFacts& f, char* out, size_t cap);

}  // namespace cv::usercode::runner

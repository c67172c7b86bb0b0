#include "process/stop_signal.h"

#include <atomic>
#include <csignal>

namespace cv {
namespace {

// Written by the handler (on whichever thread the signal lands), read by the
// frame loop: a lock-free atomic is both async-signal-safe and race-free.
std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

void on_stop_signal(int sig) { g_stop_signal = sig; }

}  // namespace

void install_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART | SA_RESETHAND;  // the second signal takes its default action
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int stop_signal() { return g_stop_signal.load(); }

}  // namespace cv

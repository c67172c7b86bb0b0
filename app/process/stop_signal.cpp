#include "process/stop_signal.h"

#include <csignal>

namespace cv {
namespace {

// Written by the handler, read by the frame loop: the one state a signal handler may touch.
volatile std::sig_atomic_t g_stop_signal = 0;

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

int stop_signal() { return g_stop_signal; }

}  // namespace cv

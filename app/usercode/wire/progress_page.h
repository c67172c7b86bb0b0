#pragma once
// How far a CPU launch has come: a page of shared memory (a memfd) the app
// creates and sends to the CPU runner once ("share", kind "progress"); the
// emulator counts the blocks it has finished there, so the app's time limit
// can tell a slow kernel that is still moving from one that is stuck
// (runner_client.cpp). One RAII type per mapping.
#include <atomic>
#include <cstdint>

namespace cv::usercode {

struct ProgressCounters {
  std::atomic<unsigned long long> done{0};   // blocks finished in this launch request (all its reps)
  std::atomic<unsigned long long> total{0};  // blocks it runs
};

class ProgressPage {
 public:
  ProgressPage();                 // a new page (the app's side); throws std::runtime_error
  explicit ProgressPage(int fd);  // the page an fd names (the runner's side; the fd stays the caller's)
  ~ProgressPage();
  ProgressPage(const ProgressPage&) = delete;
  ProgressPage& operator=(const ProgressPage&) = delete;
  ProgressCounters& counters() const { return *counters_; }
  int fd() const { return fd_; }  // -1 on the runner's side

 private:
  int fd_ = -1;
  ProgressCounters* counters_ = nullptr;
};

}  // namespace cv::usercode

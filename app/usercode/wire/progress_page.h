#pragma once
// How far a CPU launch has come: a page of shared memory (a memfd) the app
// creates and sends to the CPU runner once ("share", kind "progress"); the
// emulator counts the blocks it has finished there, so the app's time limit
// can tell a slow kernel that is still moving from one that is stuck
// (runner_client.cpp). One RAII type per mapping.
#include <atomic>
#include <cstdint>

namespace cv::usercode {

// Blocks finished, counted by each worker thread in a slot of its own cache
// line: one counter all workers add to moves its line between cores at every
// block (a third of a shared-memory count's time at 4,096 blocks on 2 cores).
struct BlockCount {
  static constexpr unsigned kSlots = 32;  // workers past it share slots (still atomic)
  struct alignas(64) Slot {
    std::atomic<unsigned long long> n{0};
  };
  Slot slot[kSlots];
  std::atomic<unsigned long long>& of(unsigned worker) { return slot[worker % kSlots].n; }
  void add(unsigned worker, unsigned long long k) { of(worker).fetch_add(k, std::memory_order_relaxed); }
  unsigned long long load() const {
    unsigned long long s = 0;
    for (const Slot& x : slot) s += x.n.load(std::memory_order_relaxed);
    return s;
  }
  void reset() {
    for (Slot& x : slot) x.n.store(0, std::memory_order_relaxed);
  }
};

struct ProgressCounters {
  BlockCount done;                           // blocks finished in this launch request (all its reps)
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

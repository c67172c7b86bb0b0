#pragma once
// The judge's workers for an open challenge: compile and explain on CPU
// threads, and one thread per device, each owning that device's runner
// process (every GPU of the machine, one kernel at a time each; the emulator's
// one runner where there is none). None of them is the UI thread. Each takes
// its stage's next submission from the ChallengeStore in its fair order.
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "challenge/challenge_store.h"
#include "challenge/judge.h"

namespace cv::challenge {

struct QueueShape {
  int devices = 1;          // runners (GPUs; 1 on the CPU)
  int compilers = 1;        // CPU threads compiling
  int explainers = 1;       // CPU threads explaining
};
// From the machine: every CUDA device (cudaGetDeviceCount) on the CUDA
// backend, and the cores left for compiling.
QueueShape machine_shape(Backend backend);

class JudgeQueue {
 public:
  JudgeQueue(std::shared_ptr<ChallengeStore> store, JudgeSettings settings, QueueShape shape);
  ~JudgeQueue();  // stops the workers (a kernel running is cancelled at its next check)
  JudgeQueue(const JudgeQueue&) = delete;
  JudgeQueue& operator=(const JudgeQueue&) = delete;
  const QueueShape& shape() const { return shape_; }
  bool builtins_done() const { return builtins_done_; }

 private:
  void compile_loop();
  void run_loop(int device);
  void explain_loop();

  std::shared_ptr<ChallengeStore> store_;
  JudgeSettings settings_;
  QueueShape shape_;
  std::atomic<bool> stop_{false};
  RunControl control_;
  std::atomic<bool> builtins_done_{false};
  std::vector<std::thread> threads_;
};

}  // namespace cv::challenge

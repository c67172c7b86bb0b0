#include "challenge/judge_queue.h"

#include <cuda_runtime_api.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>

#include "usercode/client/runner_client.h"

namespace cv::challenge {

QueueShape machine_shape(Backend backend) {
  QueueShape q;
  int gpus = 0;
  if (backend == Backend::Cuda && cudaGetDeviceCount(&gpus) == cudaSuccess && gpus > 0) q.devices = gpus;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // The window, the server and the runners keep a core or two.
  q.compilers = std::clamp(cores - 2, 1, 8);
  q.explainers = std::clamp(cores / 4, 1, 4);
  return q;
}

JudgeQueue::JudgeQueue(std::shared_ptr<ChallengeStore> store, JudgeSettings settings, QueueShape shape)
    : store_(std::move(store)), settings_(std::move(settings)), shape_(shape) {
  for (int i = 0; i < std::max(1, shape_.compilers); ++i) threads_.emplace_back([this] { compile_loop(); });
  for (int i = 0; i < std::max(1, shape_.explainers); ++i) threads_.emplace_back([this] { explain_loop(); });
  for (int d = 0; d < std::max(1, shape_.devices); ++d) threads_.emplace_back([this, d] { run_loop(d); });
}

JudgeQueue::~JudgeQueue() {
  stop_ = true;
  control_.cancel = true;
  store_->wake_all();
  for (auto& t : threads_) t.join();
}

namespace {

// Compile and explain run host compilers and the emulator as child processes
// of their thread; a lower priority for the thread (Linux: per thread,
// inherited by its children) keeps the window's frames and the timed runs
// ahead of them on a machine with few cores.
void lower_this_threads_priority() {
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 5);  // best effort
}

}  // namespace

void JudgeQueue::compile_loop() {
  lower_this_threads_priority();
  Submission s;
  while (store_->take(ChallengeStore::Work::Compile, stop_, s)) {
    const JudgeRequest r{store_->settings().template_name, s.source, s.seed};
    Verdict v;
    Compiled c;
    try {
      c = compile_stage(settings_, r);
      compile_failed(c, v);
    } catch (const std::exception& e) {
      v.outcome = Verdict::Outcome::CompileError;
      v.message = e.what();
    }
    v.judge_ms = v.compile_ms = c.compile_ms;
    store_->compiled(s.id, c, v);
  }
}

void JudgeQueue::run_loop(int device) {
  if (device == 0) {  // the reference lines, once, before the first kernel
    try {
      store_->set_builtins(builtin_times(settings_, store_->settings().template_name, &control_));
    } catch (const std::exception&) {
      // cancelled, or none runs here: the board has no reference lines
    }
    builtins_done_ = true;
  }
  std::string why;
  const std::string path = usercode::find_runner(settings_.paths.runner, &why);
  const auto runner = judge_runner(settings_, path, device);
  Submission s;
  while (store_->take(ChallengeStore::Work::Run, stop_, s)) {
    const JudgeRequest r{store_->settings().template_name, s.source, s.seed};
    Verdict v = s.verdict;  // the compile's marks
    const auto t0 = std::chrono::steady_clock::now();
    if (path.empty()) {
      v.outcome = Verdict::Outcome::Failed;
      v.message = why;
    } else {
      run_stage(settings_, r, s.compiled, runner, &control_, v);
    }
    v.run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    v.judge_ms += v.run_ms;
    store_->ran(s.id, v);
  }
}

void JudgeQueue::explain_loop() {
  lower_this_threads_priority();
  Submission s;
  while (store_->take(ChallengeStore::Work::Explain, stop_, s)) {
    Verdict v;
    const auto t0 = std::chrono::steady_clock::now();
    explain_stage(settings_, {store_->settings().template_name, s.source, s.seed}, s.gpu_ptx ? *s.gpu_ptx : std::string(), v);
    v.explain_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    store_->explained(s.id, v);
  }
}

}  // namespace cv::challenge

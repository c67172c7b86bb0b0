#include "parallel_for.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace cv {
namespace {

// Chunks a thread gets on average: enough that a thread the OS deschedules (the
// machine is shared) leaves its share to the others, few enough that claiming
// one (an atomic add) is noise.
constexpr size_t kChunksPerThread = 8;

// How long a thread polls for the next job (a worker) or for the others to
// finish (the caller) before it sleeps on a condition variable. A job of a
// fraction of a millisecond that follows another (a benchmark's reps, a
// kernel's launches in a loop) found the other core asleep: on this VM a core
// woken from idle ran the job at half speed, so two cores took as long as one
// (the emulator's count3 at 1M: 0.25 ms on one core and on two; 0.40 ms for a
// job after a 0.3 ms pause against 0.24 back to back). libgomp's default
// wait policy polls for about the same time before it sleeps.
constexpr std::chrono::microseconds kPoll{500};

// Polls `done` until it holds or kPoll has passed (the callers then wait on
// their condition variable, which tests it again).
template <class Pred>
void poll_until(Pred done) {
  const auto until = std::chrono::steady_clock::now() + kPoll;
  for (unsigned k = 0;; ++k) {
    if (done()) return;
    if ((k & 63) == 0 && std::chrono::steady_clock::now() >= until) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
}

// Each thread owns a run of the chunks and takes them first, then takes what
// is left of the others' (in the same order). With every chunk claimed from
// one shared counter, the blocks a thread ran moved from launch to launch, so
// data one core had just written (a scene's particles, updated in place every
// step) was read from the other's cache: the fountain's whole kernel on the
// emulator took 0.32 ms on two cores against 0.18 on one.
struct alignas(64) Range {
  std::atomic<size_t> next{0};
  size_t end = 0;
};

class Pool {
 public:
  Pool() : ranges_(std::max(1u, std::thread::hardware_concurrency())) {
    for (unsigned i = 1; i < ranges_.size(); ++i) workers_.emplace_back([this, i] { work(i); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> l(m_);
      quit_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }
  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

  void run(size_t n, const std::function<void(size_t, size_t)>& body) {
    std::lock_guard<std::mutex> serial(run_m_);  // one parallel_for at a time
    const size_t chunks = std::min<size_t>(n, threads() * kChunksPerThread);
    if (chunks == 1) return body(0, n);  // nothing to share: no wake-ups
    {
      std::lock_guard<std::mutex> l(m_);
      body_ = &body;
      n_ = n;
      chunks_ = chunks;
      const size_t t = ranges_.size();
      for (size_t i = 0; i < t; ++i) {
        ranges_[i].next.store(chunks * i / t, std::memory_order_relaxed);
        ranges_[i].end = chunks * (i + 1) / t;
      }
      error_ = nullptr;
      ++generation_;
    }
    cv_.notify_all();
    drain(0);
    // Every chunk is claimed; wait for the workers still inside one. Workers
    // join a job only while body_ is set, so none can touch it after this.
    poll_until([&] { return busy_.load(std::memory_order_acquire) == 0; });
    std::unique_lock<std::mutex> l(m_);
    done_cv_.wait(l, [&] { return busy_ == 0; });
    body_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  // Thread `self` claims chunks from its own range, then from the others',
  // each with that range's atomic counter, until none is left; body_, n_,
  // chunks_ and the ranges' ends stay fixed while any thread is in here.
  void drain(size_t self) {
    for (size_t k = 0; k < ranges_.size(); ++k) {
      Range& r = ranges_[(self + k) % ranges_.size()];
      for (;;) {
        const size_t c = r.next.fetch_add(1, std::memory_order_relaxed);
        if (c >= r.end) break;
        const size_t begin = n_ * c / chunks_, end = n_ * (c + 1) / chunks_;
        try {
          (*body_)(begin, end);
        } catch (...) {
          std::lock_guard<std::mutex> l(m_);
          if (!error_) error_ = std::current_exception();
        }
      }
    }
  }
  void work(size_t self) {
    unsigned long long seen = 0;
    for (;;) {
      poll_until([&] { return generation_.load(std::memory_order_acquire) != seen; });
      {
        std::unique_lock<std::mutex> l(m_);
        cv_.wait(l, [&] { return quit_ || generation_ != seen; });
        if (quit_) return;
        seen = generation_;
        if (!body_) continue;  // woke after that job had finished
        ++busy_;
      }
      drain(self);
      std::lock_guard<std::mutex> l(m_);
      if (--busy_ == 0) done_cv_.notify_all();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex m_, run_m_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(size_t, size_t)>* body_ = nullptr;
  size_t n_ = 0, chunks_ = 0;
  // Changed under m_ (the condition variables' predicates), read without it
  // while polling.
  std::atomic<unsigned> busy_{0};  // workers inside drain()
  std::atomic<unsigned long long> generation_{0};
  bool quit_ = false;
  std::exception_ptr error_;
  // The words the threads write per chunk, each range on cache lines of its
  // own, so claims do not invalidate the job description the others keep reading.
  std::vector<Range> ranges_;
};

Pool& pool() {
  static Pool p;
  return p;
}

}  // namespace

void parallel_for(size_t n, const std::function<void(size_t, size_t)>& body) {
  if (n == 0) return;
  pool().run(n, body);
}

unsigned cpu_threads() {
  return pool().threads();
}

}  // namespace cv

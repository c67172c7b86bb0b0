#include "parallel_for.h"

#include <algorithm>
#include <atomic>
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

class Pool {
 public:
  Pool() {
    unsigned n = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 1; i < n; ++i) workers_.emplace_back([this] { work(); });
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
      next_.store(0, std::memory_order_relaxed);
      error_ = nullptr;
      ++generation_;
    }
    cv_.notify_all();
    drain();
    // Every chunk is claimed; wait for the workers still inside one. Workers
    // join a job only while body_ is set, so none can touch it after this.
    std::unique_lock<std::mutex> l(m_);
    done_cv_.wait(l, [&] { return busy_ == 0; });
    body_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  // Claims chunks with an atomic counter until none is left; body_, n_ and
  // chunks_ stay fixed while any thread is in here.
  void drain() {
    for (;;) {
      const size_t c = next_.fetch_add(1, std::memory_order_relaxed);
      if (c >= chunks_) return;
      const size_t begin = n_ * c / chunks_, end = n_ * (c + 1) / chunks_;
      try {
        (*body_)(begin, end);
      } catch (...) {
        std::lock_guard<std::mutex> l(m_);
        if (!error_) error_ = std::current_exception();
      }
    }
  }
  void work() {
    unsigned long long seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> l(m_);
        cv_.wait(l, [&] { return quit_ || generation_ != seen; });
        if (quit_) return;
        seen = generation_;
        if (!body_) continue;  // woke after that job had finished
        ++busy_;
      }
      drain();
      std::lock_guard<std::mutex> l(m_);
      if (--busy_ == 0) done_cv_.notify_all();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex m_, run_m_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(size_t, size_t)>* body_ = nullptr;
  size_t n_ = 0, chunks_ = 0;
  unsigned busy_ = 0;  // workers inside drain()
  unsigned long long generation_ = 0;
  bool quit_ = false;
  std::exception_ptr error_;
  // The one word every thread writes per chunk, on a cache line of its own (the
  // last member of a 64-aligned object) so claims do not invalidate the job
  // description the others keep reading.
  alignas(64) std::atomic<size_t> next_{0};
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

#include "parallel_for.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace cv {
namespace {

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
    const size_t chunks = std::min<size_t>(n, threads() * 4);
    {
      std::lock_guard<std::mutex> l(m_);
      body_ = &body;
      n_ = n;
      chunks_ = chunks;
      next_ = 0;
      done_ = 0;
      error_ = nullptr;
      ++generation_;
    }
    cv_.notify_all();
    drain();
    std::unique_lock<std::mutex> l(m_);
    done_cv_.wait(l, [&] { return done_ == chunks_; });
    body_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void drain() {
    for (;;) {
      size_t c;
      {
        std::lock_guard<std::mutex> l(m_);
        if (!body_ || next_ >= chunks_) return;
        c = next_++;
      }
      size_t begin = n_ * c / chunks_, end = n_ * (c + 1) / chunks_;
      try {
        (*body_)(begin, end);
      } catch (...) {
        std::lock_guard<std::mutex> l(m_);
        if (!error_) error_ = std::current_exception();
      }
      std::lock_guard<std::mutex> l(m_);
      if (++done_ == chunks_) done_cv_.notify_all();
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
      }
      drain();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex m_, run_m_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(size_t, size_t)>* body_ = nullptr;
  size_t n_ = 0, chunks_ = 0, next_ = 0, done_ = 0;
  unsigned long long generation_ = 0;
  bool quit_ = false;
  std::exception_ptr error_;
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

unsigned cpu_threads() { return pool().threads(); }

}  // namespace cv

#pragma once
// Per-client token buckets (the server's rate limits, docs/class_server.md):
// each key (a client's address, a phone's token) may make `burst` requests at
// once and `per_second` after that. Thread-safe; at most `max_keys` keys are
// remembered (full buckets are forgotten first), so a flood of addresses
// cannot grow it without bound.
#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace cv::classvote {

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  RateLimiter(double burst, double per_second, size_t max_keys = 4096)
      : burst_(burst), rate_(per_second), max_keys_(max_keys) {}
  // True when `key` may make one more request now (and counts it).
  bool allow(const std::string& key, Clock::time_point now = Clock::now());
  // True when `key` has a request left now (counts nothing): for limits on
  // failures, checked before the attempt and charged only when it fails.
  bool has_room(const std::string& key, Clock::time_point now = Clock::now());
  // New limits for every key from now on (the teacher raised the joins per minute).
  void set_limits(double burst, double per_second);

 private:
  struct Bucket {
    double tokens;
    Clock::time_point at;
  };
  void forget_full(Clock::time_point now);  // under mu_

  double burst_, rate_;  // under mu_
  const size_t max_keys_;
  std::mutex mu_;
  std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace cv::classvote

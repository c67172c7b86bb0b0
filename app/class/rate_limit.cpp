#include "class/rate_limit.h"

#include <algorithm>

namespace cv::classvote {

bool RateLimiter::allow(const std::string& key, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = buckets_.find(key);
  if (it == buckets_.end()) {
    if (buckets_.size() >= max_keys_) forget_full(now);
    if (buckets_.size() >= max_keys_) return false;  // every one busy: refuse newcomers
    it = buckets_.emplace(key, Bucket{burst_, now}).first;
  }
  Bucket& b = it->second;
  const double dt = std::chrono::duration<double>(now - b.at).count();
  b.tokens = std::min(burst_, b.tokens + std::max(0.0, dt) * rate_);
  b.at = now;
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

bool RateLimiter::has_room(const std::string& key, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = buckets_.find(key);
  if (it == buckets_.end()) return true;
  const double dt = std::chrono::duration<double>(now - it->second.at).count();
  return it->second.tokens + std::max(0.0, dt) * rate_ >= 1;
}

void RateLimiter::set_limits(double burst, double per_second) {
  std::lock_guard<std::mutex> lock(mu_);
  burst_ = burst;
  rate_ = per_second;
}

void RateLimiter::forget_full(Clock::time_point now) {
  for (auto it = buckets_.begin(); it != buckets_.end();) {
    const double dt = std::chrono::duration<double>(now - it->second.at).count();
    if (it->second.tokens + dt * rate_ >= burst_)
      it = buckets_.erase(it);
    else
      ++it;
  }
}

}  // namespace cv::classvote

#include "timing/frame_timers.h"

#include <algorithm>

#include "gl/gl_check.h"

namespace cv {

void History::push(float v) {
  values_[next_] = v;
  next_ = (next_ + 1) % values_.size();
  filled_ = std::min(filled_ + 1, values_.size());
  latest_ = v;
}

float History::median() const {
  if (filled_ == 0) return 0.f;
  std::vector<float> v(values_.begin(), values_.begin() + static_cast<long>(filled_));
  if (filled_ == values_.size()) v = values_;
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

float History::recent_median(size_t k) const {
  const size_t m = std::min(k, filled_);
  if (m == 0) return 0.f;
  std::vector<float> v;
  v.reserve(m);
  for (size_t i = 1; i <= m; ++i) v.push_back(values_[(next_ + values_.size() - i) % values_.size()]);
  std::nth_element(v.begin(), v.begin() + static_cast<long>(m / 2), v.end());
  return v[m / 2];
}

std::vector<float> History::values() const {
  std::vector<float> v;
  v.reserve(filled_);
  // Before the ring wraps the values start at 0; after, at the next slot to write.
  const size_t start = filled_ == values_.size() ? next_ : 0;
  for (size_t i = 0; i < filled_; ++i) v.push_back(values_[(start + i) % values_.size()]);
  return v;
}

float History::max() const { return *std::max_element(values_.begin(), values_.end()); }

void History::clear() {
  std::fill(values_.begin(), values_.end(), 0.f);
  next_ = 0;
  filled_ = 0;
  latest_ = 0.f;
}

CudaTimerRing::CudaTimerRing() : slots_(kSlots) {}

void CudaTimerRing::begin(cudaStream_t s) {
  Slot& slot = slots_[head_];
  if (slot.pending) {  // ring full: drop the oldest result rather than wait for it
    slot.pending = false;
    tail_ = (tail_ + 1) % kSlots;
  }
  slot.start.record(s);
  open_ = true;
}

void CudaTimerRing::end(cudaStream_t s) {
  if (!open_) return;
  Slot& slot = slots_[head_];
  slot.stop.record(s);
  slot.pending = true;
  head_ = (head_ + 1) % kSlots;
  open_ = false;
}

void CudaTimerRing::drop_pending() {
  for (Slot& slot : slots_) slot.pending = false;
  tail_ = head_;
}

std::vector<float> CudaTimerRing::poll() {
  std::vector<float> out;
  while (slots_[tail_].pending && slots_[tail_].stop.ready()) {
    out.push_back(elapsed_ms(slots_[tail_].start, slots_[tail_].stop));
    slots_[tail_].pending = false;
    tail_ = (tail_ + 1) % kSlots;
  }
  return out;
}

GlTimerRing::GlTimerRing() {
  for (auto& q : queries_) q = make_query();
}

void GlTimerRing::begin() {
  if (pending_[head_]) {  // ring full: forget the oldest
    pending_[head_] = false;
    tail_ = (tail_ + 1) % kSlots;
  }
  glBeginQuery(GL_TIME_ELAPSED, queries_[head_].get());
  open_ = true;
}

void GlTimerRing::end() {
  if (!open_) return;
  glEndQuery(GL_TIME_ELAPSED);
  pending_[head_] = true;
  head_ = (head_ + 1) % kSlots;
  open_ = false;
}

std::vector<float> GlTimerRing::poll() {
  std::vector<float> out;
  while (pending_[tail_]) {
    GLint available = 0;
    glGetQueryObjectiv(queries_[tail_].get(), GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available) break;
    GLuint64 ns = 0;
    glGetQueryObjectui64v(queries_[tail_].get(), GL_QUERY_RESULT, &ns);
    out.push_back(static_cast<float>(ns * 1e-6));
    pending_[tail_] = false;
    tail_ = (tail_ + 1) % kSlots;
  }
  check_gl("GL timer query");
  return out;
}

}  // namespace cv

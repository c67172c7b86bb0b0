#pragma once
// Timers that never stall the frame: rings of CUDA event pairs and GL timer
// queries, polled each frame for results that have completed; plus a
// fixed-length history for the plots.
#include <cuda_runtime_api.h>
#include <glad/gl.h>

#include <array>
#include <chrono>
#include <optional>
#include <vector>

#include "common/cuda_resources.h"
#include "gl/gl_objects.h"

namespace cv {

// Fixed-length series for ImGui::PlotLines (oldest first once full).
class History {
 public:
  explicit History(size_t capacity = 240) : values_(capacity, 0.f) {}
  void push(float v);
  const float* data() const { return values_.data(); }
  int size() const { return static_cast<int>(values_.size()); }
  int offset() const { return static_cast<int>(next_); }  // PlotLines values_offset
  float latest() const { return latest_; }
  float max() const;
  // Median of the values pushed so far (at most capacity of them); 0 if none.
  float median() const;
  // Median of the last k values pushed (fewer if fewer were): a rate that follows a change of
  // block within a few frames yet does not jump with one slow frame.
  float recent_median(size_t k) const;
  // The values pushed so far, oldest first (at most capacity of them): for CSV export.
  std::vector<float> values() const;
  void clear();

 private:
  std::vector<float> values_;
  size_t next_ = 0;
  size_t filled_ = 0;
  float latest_ = 0.f;
};

// Frames a rate shown beside a plot (particles/s, samples/s) is the median of.
inline constexpr size_t kRateFrames = 15;

// Up to kSlots intervals in flight; a slot whose end event is still pending is
// skipped (not waited on) when the ring wraps.
class CudaTimerRing {
 public:
  static constexpr int kSlots = 8;
  CudaTimerRing();
  void begin(cudaStream_t s);
  void end(cudaStream_t s);
  // Ends the open interval without a result: what it spanned was timed
  // elsewhere (a step the student's kernel made in the runner).
  void cancel() { open_ = false; }
  // Forgets the intervals still in flight (the series they belong to restarted).
  void drop_pending();
  // Completed intervals since the last poll, oldest first.
  std::vector<float> poll();

 private:
  struct Slot {
    CudaEvent start, stop;
    bool pending = false;
  };
  std::vector<Slot> slots_;
  int head_ = 0;  // slot the next begin() uses
  int tail_ = 0;  // oldest pending slot
  bool open_ = false;
};

class GlTimerRing {
 public:
  static constexpr int kSlots = 8;
  GlTimerRing();
  void begin();
  void end();
  std::vector<float> poll();  // milliseconds

 private:
  std::array<GlQuery, kSlots> queries_;
  std::array<bool, kSlots> pending_{};
  int head_ = 0, tail_ = 0;
  bool open_ = false;
};

class CpuStopwatch {
 public:
  void start() { t0_ = std::chrono::steady_clock::now(); }
  float ms() const {
    return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

}  // namespace cv

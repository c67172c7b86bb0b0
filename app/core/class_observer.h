#pragma once
// --frames N: what the frame time does while the class votes. Every
// frame's interval is kept, so the summary gives its median and 99th
// percentile over the whole run ("frame_ms_p50", "frame_ms_p99"; the plots'
// history keeps only the last 240), the share of the display the scene kept
// ("scene_share"), and with the class server the server's summary ("class":
// joined, votes, answers, vote-to-frame latency).
#include <chrono>
#include <vector>

#include "core/frame_observer.h"

namespace cv {

class ClassObserver : public FrameObserver {
 public:
  bool after_frame(FrameView& f) override;
  void finish(Context& ctx, nlohmann::ordered_json& summary) override;

 private:
  std::vector<float> frame_ms_;
  std::chrono::steady_clock::time_point last_{};
  bool started_ = false;
};

}  // namespace cv

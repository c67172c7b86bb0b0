#include "core/class_observer.h"

#include <algorithm>

#include "core/context.h"

namespace cv {

bool ClassObserver::after_frame(FrameView& f) {
  (void)f;
  const auto now = std::chrono::steady_clock::now();
  if (started_ && frame_ms_.size() < (1u << 22))
    frame_ms_.push_back(std::chrono::duration<float, std::milli>(now - last_).count());
  last_ = now;
  started_ = true;
  return true;
}

void ClassObserver::finish(Context& ctx, nlohmann::ordered_json& summary) {
  if (!frame_ms_.empty()) {
    std::vector<float> v = frame_ms_;
    std::sort(v.begin(), v.end());
    summary["frame_ms_p50"] = v[v.size() / 2];
    summary["frame_ms_p99"] = v[std::min(v.size() - 1, v.size() * 99 / 100)];
  }
  const ui::Rect& r = ctx.layout.scene_rect();
  const float w = ctx.layout.planned_width(), h = ctx.layout.planned_height();
  if (w > 0 && h > 0) summary["scene_share"] = r.w * r.h / (w * h);
  if (ctx.class_room.store() || !ctx.class_room.message().empty())
    summary["class"] = ctx.class_room.summary();
  if (ctx.challenge.is_open() || ctx.challenge.store().total() > 0) summary["challenge"] = ctx.challenge.summary();
}

}  // namespace cv

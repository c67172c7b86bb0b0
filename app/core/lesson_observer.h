#pragma once
// --lesson FILE --frames N: the scripted walk through a lesson's steps is the
// lesson player's (lessons/lesson_player.h); this observer writes the
// pictures (--screenshot out.png also gives out-stepK-before.png and
// out-stepK-after.png for every step played), adds the per-step report to
// the run's JSON summary under "lesson", and fails the run (1) when a step's
// state did not apply or its run did not produce the values it names.
#include <string>

#include "cli.h"
#include "core/frame_observer.h"

namespace cv {

class LessonObserver : public FrameObserver {
 public:
  explicit LessonObserver(const RunOptions& opt) : opt_(opt) {}
  void before_present(FrameView& f) override;
  void finish(Context& ctx, nlohmann::ordered_json& summary) override;
  int exit_code(const Context& ctx, std::ostream& err) const override;

 private:
  RunOptions opt_;
};

// "out.png", step 3, "before" -> "out-step3-before.png".
std::string lesson_shot_path(const std::string& screenshot, int step, const std::string& when);

}  // namespace cv

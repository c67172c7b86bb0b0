#pragma once
// The kernel tab's "which way" (bench/comparison.h): yours against the
// built-in of the same algorithm and the fastest built-in timed here, each
// timed while it stepped the scene its template feeds (the built-ins by the
// scene's variant, as the student switches them), the spread of your steps
// (min, median, max) and the guard's share once the same text ran with the
// guard on and off.
#include <map>
#include <string>
#include <vector>

#include "bench/comparison.h"
#include "timing/frame_timers.h"

namespace cv {

class KernelComparison {
 public:
  static constexpr size_t kSteps = 120;  // the last steps each median is taken over
  // The kernel submitted now (each frame: the tab's Ctrl+Enter, --kernel, a
  // reload all end here): `text` for `target` (the template's scene or lab)
  // with the guard on or off; `gpu` false on the CPU backend (the built-in
  // there is the CPU twin, timed as "cpu"). A new text forgets your times; the built-ins' stay.
  void follow(const std::string& text, const std::string& target, bool guard, bool gpu = true);
  void yours_step(float ms);
  void builtin_step(const std::string& variant, float ms);  // variant "" when the scene has none
  bench::Spread yours_spread() const;
  // The words, in order: your spread, the same algorithm, the fastest, the guard.
  std::vector<std::string> lines() const;
  void draw() const;  // ImGui, in the tab's "what it costs"

 private:
  std::string text_, target_;
  bench::KernelTraits traits_;
  bool guard_ = true, gpu_ = true;
  std::map<bool, History> yours_;            // this text's steps, by the guard setting
  std::map<std::string, History> builtin_;  // by the scene's variant
  const History* yours_now() const;
};

}  // namespace cv

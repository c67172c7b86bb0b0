#include "core/lesson_observer.h"

#include <cstdio>
#include <ostream>

#include "core/context.h"
#include "gl/png_writer.h"

namespace cv {

std::string lesson_shot_path(const std::string& screenshot, int step, const std::string& when) {
  const auto dot = screenshot.rfind('.');
  const auto slash = screenshot.rfind('/');
  const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  const std::string stem = has_ext ? screenshot.substr(0, dot) : screenshot;
  return stem + "-step" + std::to_string(step) + "-" + when + (has_ext ? screenshot.substr(dot) : ".png");
}

void LessonObserver::before_present(FrameView& f) {
  if (!opt_.screenshot) return;
  const std::string when = f.ctx.lesson.script_shot();
  if (when.empty()) return;
  const std::string path = lesson_shot_path(*opt_.screenshot, f.ctx.lesson.script_step() + 1, when);
  write_framebuffer_png(path, f.size.fb_w, f.size.fb_h);  // a failure ends the run (1)
  std::fprintf(stderr, "screenshot: %s\n", path.c_str());
}

void LessonObserver::finish(Context& ctx, nlohmann::ordered_json& summary) {
  summary["lesson"] = ctx.lesson.summary();
}

int LessonObserver::exit_code(const Context& ctx, std::ostream& err) const {
  int bad = 0;
  for (const auto& r : ctx.lesson.reports())
    if (!r.ok()) {
      ++bad;
      err << "cudaviz: lesson step " << r.step << " '" << r.title << "':";
      if (!r.state_applied) err << " its state did not apply;";
      if (!r.run_error.empty()) err << " its run failed: " << r.run_error << ";";
      for (const auto& m : r.missing) err << " not measured: " << m << ";";
      err << "\n";
    }
  if (ctx.lesson.script_busy() || (ctx.lesson.loaded() && ctx.lesson.reports().empty())) {
    err << "cudaviz: the lesson's scripted run ended before its steps were played\n";
    return 1;
  }
  return bad ? 1 : 0;
}

}  // namespace cv

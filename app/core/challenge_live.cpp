// The challenge tab's "run in the scene": the submission's text goes into the
// kernel tab (so the class sees what runs), the scene its template feeds comes
// on screen, and the kernel is compiled off the UI thread and runs there as a
// student's own would; "back" returns the scene to its built-in kernel.
#include "core/app.h"
#include "registry/scene_registry.h"

namespace cv {

void App::run_live(const challenge::LiveRequest& r) {
  if (r.back) {
    ctx_.user_kernel.stop();
    return;
  }
  if (!r.scene.empty())
    if (const auto kind = parse_scene(r.scene))
      if (auto err = ctx_.scenes.activate(*kind)) ctx_.ui.stats.error_message = "scene " + r.scene + ": " + *err;
  const std::string file = "challenge-" + std::to_string(ctx_.frame) + ".cu";
  ctx_.kernel_panel.restore(r.source, file, r.label);
  ctx_.user_kernel.submit(r.source, r.template_name, file);
}

}  // namespace cv

#include "insight/insight_ui.h"

#include "insight/launch_model.h"
#include "scenes/particle_scene.h"
#include "scenes/scene_ui.h"
#include "widgets/widgets.h"
#include "ui/presentation.h"

namespace cv::insight_ui {

const std::vector<std::string>& InsightUi::panel_names() {
  static const std::vector<std::string> names{"launch", "memory", "reduction", "race",
                                              "occupancy-curve"};
  return names;
}

std::optional<std::string> InsightUi::open_panel(const std::string& name) {
  if (name == "launch")
    launch_.open();
  else if (name == "memory")
    memory_.open();
  else if (name == "reduction")
    reduction_.open();
  else if (name == "race")
    race_.open();
  else if (name == "occupancy-curve")
    curve_.open();
  else
    return "'" + name + "' is not a view (launch, memory, reduction, race, occupancy-curve)";
  return std::nullopt;
}

void InsightUi::draw(ParticleScene& scene, ui::Layout& layout) {
  const ViewContext ctx{scene, backend_, layout};
  launch_.draw(ctx);
  memory_.draw(ctx);
  reduction_.draw(ctx);
  race_.draw(ctx);
  curve_.draw(ctx);
}

}  // namespace cv::insight_ui

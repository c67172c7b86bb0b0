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

void InsightUi::draw_launcher(ParticleScene& scene, SceneControls& ui) {
  const ImVec2 d = ImGui::GetIO().DisplaySize;
  const float s = ui::layout_scale();
  ImGui::SetNextWindowPos(
      ImVec2(ui::panel_width(380) + 20 * s, d.y - 40 * s - 6 * (ImGui::GetFrameHeight() + 6 * s)),
      ui::layout_cond());
  ImGui::SetNextWindowSize(ImVec2(ui::panel_width(420), 0), ui::layout_cond());
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("inside the kernel")) {
    ImGui::End();
    return;
  }
  scene_ui::colour_by_row(scene, ui);
  auto item = [](const char* label, bool open) { return ImGui::Selectable(label, open); };
  if (item("launch map", launch_.is_open())) launch_.toggle();
  if (item("memory accesses of a warp", memory_.is_open())) memory_.toggle();
  if (item("reduction step by step", reduction_.is_open())) reduction_.toggle();
  if (item("race lab", race_.is_open())) race_.toggle();
  if (item("occupancy curve", curve_.is_open())) curve_.toggle();
  ImGui::End();
}

void InsightUi::draw(ParticleScene& scene, SceneControls& ui) {
  draw_launcher(scene, ui);
  const ViewContext ctx{scene, backend_};
  launch_.draw(ctx);
  memory_.draw(ctx);
  reduction_.draw(ctx);
  race_.draw(ctx);
  curve_.draw(ctx);
}

}  // namespace cv::insight_ui

#include "insight/insight_ui.h"

#include "insight/launch_model.h"
#include "scenes/particle_scene.h"
#include "scenes/scene_ui.h"
#include "widgets/widgets.h"
#include "ui/kernel_panel.h"
#include "ui/presentation.h"

namespace cv::insight_ui {

namespace {
// The tools this area holds (their names: widgets/tool_names.h).
constexpr ui::Tool kOwn[] = {ui::Tool::Launch, ui::Tool::Memory, ui::Tool::Reduction,
                             ui::Tool::Race, ui::Tool::OccupancyCurve, ui::Tool::Explain};
}  // namespace

const std::vector<std::string>& InsightUi::panel_names() {
  static const std::vector<std::string> names = ui::tool_names_of(kOwn);
  return names;
}

std::optional<std::string> InsightUi::open_panel(const std::string& name) {
  if (const auto tool = ui::parse_tool(name)) {
    switch (*tool) {
      case ui::Tool::Launch:
        launch_.open();
        return std::nullopt;
      case ui::Tool::Memory:
        memory_.open();
        return std::nullopt;
      case ui::Tool::Reduction:
        reduction_.open();
        return std::nullopt;
      case ui::Tool::Race:
        race_.open();
        return std::nullopt;
      case ui::Tool::OccupancyCurve:
        curve_.open();
        return std::nullopt;
      case ui::Tool::Explain:
        explain_.open();
        return std::nullopt;
      default:
        break;
    }
  }
  std::string own;
  for (const std::string& n : panel_names()) own += (own.empty() ? "" : ", ") + n;
  return "'" + name + "' is not a view (" + own + ")";
}

bool InsightUi::explain_busy(const KernelPanel& p) { return p.explain().busy(); }

void InsightUi::draw(ParticleScene& scene, ui::Layout& layout) {
  const ViewContext ctx{scene, backend_, layout};
  launch_.draw(ctx);
  memory_.draw(ctx);
  reduction_.draw(ctx);
  race_.draw(ctx);
  curve_.draw(ctx);
  explain_.draw(ctx, kernel_panel_);
}

}  // namespace cv::insight_ui

#include "ui/tuning_panel.h"

namespace cv {

TuningUi::TuningUi(Backend backend) : occupancy_(backend), device_(backend), sweep_(backend) {}

namespace {
// The tools this area holds (their names: widgets/tool_names.h).
constexpr ui::Tool kOwn[] = {ui::Tool::Occupancy, ui::Tool::Device, ui::Tool::Sweep,
                             ui::Tool::Frames};
}  // namespace

const std::vector<std::string>& TuningUi::panel_names() {
  static const std::vector<std::string> names = ui::tool_names_of(kOwn);
  return names;
}

std::optional<std::string> TuningUi::open_panel(const std::string& name) {
  if (const auto tool = ui::parse_tool(name)) {
    switch (*tool) {
      case ui::Tool::Occupancy:
        occupancy_.open();
        return std::nullopt;
      case ui::Tool::Device:
        device_.open();
        return std::nullopt;
      case ui::Tool::Sweep:
        sweep_.open();
        return std::nullopt;
      case ui::Tool::Frames:
        frames_.open();
        return std::nullopt;
      default:
        break;
    }
  }
  std::string own;
  for (const std::string& n : panel_names()) own += (own.empty() ? "" : ", ") + n;
  return "'" + name + "' is not a panel (" + own + ")";
}

std::optional<std::string> TuningUi::start_sweep(const std::string& spec) {
  const size_t colon = spec.find(':');
  const std::string target = spec.substr(0, colon);
  const std::string shapes = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (colon != std::string::npos && shapes.empty())
    return "--sweep '" + spec + "': no shapes after ':' (e.g. fountain:8x8,16x16)";
  return sweep_.start(target, shapes);
}

void TuningUi::draw(ParticleScene& scene, SceneUi& sui, const UiState& ui, ui::Layout& layout) {
  // Tabs of the tool area: only the open one draws (ui/layout.h).
  occupancy_.draw(scene, sui, layout);
  device_.draw(layout);
  sweep_.draw(layout);
  frames_.draw(scene, ui, layout);
}

}  // namespace cv

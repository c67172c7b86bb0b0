#include "ui/tuning_panel.h"

namespace cv {

TuningUi::TuningUi(Backend backend) : occupancy_(backend), device_(backend), sweep_(backend) {}

const std::vector<std::string>& TuningUi::panel_names() {
  static const std::vector<std::string> names{"occupancy", "device", "sweep", "frames"};
  return names;
}

std::optional<std::string> TuningUi::open_panel(const std::string& name) {
  if (name == "occupancy")
    occupancy_.open();
  else if (name == "device")
    device_.open();
  else if (name == "sweep")
    sweep_.open();
  else if (name == "frames")
    frames_.open();
  else
    return "'" + name + "' is not a panel (occupancy, device, sweep, frames)";
  return std::nullopt;
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

#pragma once
// The tuning windows together (occupancy, device, block-shape sweep, frame
// breakdown), owned by the frame loop in one place, plus what the command line
// asks of them (--panel, --sweep) for scripted runs and screenshots.
#include <optional>
#include <string>
#include <vector>

#include "ui/device_panel.h"
#include "ui/frame_breakdown_panel.h"
#include "ui/occupancy_panel.h"
#include "ui/sweep_panel.h"

namespace cv {

class TuningUi {
 public:
  explicit TuningUi(Backend backend);
  // Names --panel takes: occupancy, device, sweep, frames.
  static const std::vector<std::string>& panel_names();
  // Expands that window on the next frame. Returns why not (unknown name).
  std::optional<std::string> open_panel(const std::string& name);
  // "fountain" or "fountain:8x8,16x16": opens the sweep window and starts the
  // sweep (the target's default variant). Returns why not.
  std::optional<std::string> start_sweep(const std::string& spec);

  void draw(ParticleScene& scene, SceneUi& sui, const UiState& ui, ui::Layout& layout);
  void record_ui_ms(float ms) { frames_.record_ui_ms(ms); }
  bool sweep_running() const { return sweep_.running(); }
  const tuning::SweepWorker& sweep() const { return sweep_.worker(); }
  // Cancels a running sweep and waits for it (window closing).
  void shutdown() { sweep_.shutdown(); }

 private:
  OccupancyPanel occupancy_;
  DevicePanel device_;
  SweepPanel sweep_;
  FrameBreakdownPanel frames_;
};

}  // namespace cv

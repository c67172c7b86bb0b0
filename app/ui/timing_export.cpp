#include "ui/timing_export.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "io/atomic_file.h"
#include "scenes/particle_scene.h"
#include "ui/panels.h"

namespace cv {

std::string history_csv(const std::vector<std::pair<std::string, const History*>>& columns) {
  std::vector<std::vector<float>> values;
  size_t rows = 0;
  std::string out = "frames_ago";
  for (const auto& [name, h] : columns) {
    out += "," + name;
    values.push_back(h->values());
    rows = std::max(rows, values.back().size());
  }
  out += "\n";
  char cell[32];
  for (size_t r = 0; r < rows; ++r) {
    out += std::to_string(rows - 1 - r);
    for (const auto& v : values) {
      out += ",";
      const size_t missing = rows - v.size();
      if (r >= missing) {
        std::snprintf(cell, sizeof cell, "%.6g", v[r - missing]);
        out += cell;
      }
    }
    out += "\n";
  }
  return out;
}

void draw_timing_export(const ParticleScene& scene, UiState& ui) {
  std::string& message = ui.export_message;
  bool& failed = ui.export_failed;
  if (ImGui::SmallButton("export CSV")) {
    char name[64];
    const std::time_t t = std::time(nullptr);
    std::strftime(name, sizeof name, "cudaviz-timing-%Y%m%d-%H%M%S.csv", std::localtime(&t));
    const bool cuda = scene.backend() == Backend::Cuda;
    try {
      std::vector<std::pair<std::string, const History*>> columns{
          {"fps", &ui.stats.fps},
          {"frame_ms", &ui.stats.frame_ms},
          {scene.kernel_is_yours() ? "your_kernel_ms" : cuda ? "kernel_ms" : "cpu_step_ms",
           &scene.kernel_ms},
          {cuda ? "map_step_unmap_ms" : "step_upload_ms", &scene.step_ms},
          {"draw_ms", &ui.stats.draw_ms}};
      if (cuda) columns.emplace_back("interop_ms", &scene.interop_ms);
      if (scene.kernel_is_yours()) columns.emplace_back("round_trip_ms", &scene.round_trip_ms);
      write_file_atomically(name, history_csv(columns));
      message = std::string("wrote ") + name;
      failed = false;
    } catch (const std::exception& e) {
      message = e.what();
      failed = true;
    }
  }
  ui::tooltip(
      "The plots' last 240 frames (fps, frame, kernel/step, map/copy, draw, interop) as CSV in the "
      "working directory.");
  if (!message.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(failed ? ui::kBad : ui::kDim, "%s", message.c_str());
  }
}

}  // namespace cv

// The pi scene's own section of the control panel (ParticleScene::build_ui
// draws the shared part first).
#include <imgui.h>

#include <cmath>
#include <string>

#include "scenes/pi_scene.h"
#include "scenes/scene_ui.h"
#include "widgets/widgets.h"

namespace cv {

using ui::kDim;
using ui::kWarn;

void PiPointsScene::build_custom_ui(SceneUi& sui) {
  PiPointsScene& scene = *this;
  ui::section("Pi: points in the unit square");
  // Points are cheap to draw: the slider applies when released.
  const bool slid = ImGui::SliderInt("points", &sui.count_input, 100, 4000000, "%d",
                                     ImGuiSliderFlags_Logarithmic);
  ui::tooltip("Samples in the square, applied when released: 100x the points, 10x less error.");
  (void)slid;
  const bool released = ImGui::IsItemDeactivatedAfterEdit();
  const char* counts[] = {"1K", "10K", "100K", "1M", "4M"};
  const int ns[] = {1000, 10000, 100000, 1000000, 4000000};
  bool preset = false;
  for (int i = 0; i < 5; ++i) {
    if (i) ui::same_line_if_fits(counts[i]);
    if (ImGui::SmallButton(counts[i])) {
      sui.count_input = ns[i];
      preset = true;
    }
  }
  scene_ui::count_row(
      scene, sui, "points", [&](unsigned n) { return scene.reconfigure(n); }, released || preset);
  if (ImGui::Button("resample")) scene.resample();
  ui::tooltip("New points from the next seed.");
  ui::same_line_if_fits("seed 0000000000");
  ui::text_wrapped(kDim, "seed %llu", static_cast<unsigned long long>(scene.seed()));
  if (auto e = scene.estimate()) {
    ImGui::TextWrapped("inside the quarter circle: %llu of %u", scene.inside(), scene.count());
    ImGui::TextWrapped("pi ~ 4 x %llu / %u = %.6f", scene.inside(), scene.count(), *e);
    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    ImGui::TextWrapped("|error| %.2e (one standard deviation for this many points: %.1e)",
                       std::fabs(*e - M_PI), std::sqrt(M_PI * (4 - M_PI) / scene.count()));
    ImGui::PopStyleColor();
  }
  scene_ui::param_slider(scene, "point_size");  // scenes/pi_scene_entry.cpp
}

}  // namespace cv

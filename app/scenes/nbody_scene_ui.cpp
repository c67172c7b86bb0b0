// The nbody scene's own section of the control panel (ParticleScene::build_ui
// draws the shared part first).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "scenes/nbody_scene.h"
#include "scenes/scene_ui.h"
#include "widgets/widgets.h"

namespace cv {

using ui::kDim;
using ui::kWarn;

namespace {
// The fast variant's build: the plan, or one named build that runs this block,
// so a class can set "each pair once" beside the one-way kernels live.
void fast_build_combo(NBodyScene& scene) {
  const long long threads = scene.block().threads();
  std::vector<std::string> names = {""};
  for (const std::string& n : nbody::fast_tile_names())
    if (threads <= nbody::fast_tile_max_threads(n)) names.push_back(n);
  std::string plan;
  try {
    plan = nbody::fast_tile_for(scene.block());
  } catch (const std::exception&) {
    plan = "none for this block";
  }
  const auto label = [&](const std::string& n) { return n.empty() ? "auto (" + plan + ")" : n; };
  if (ImGui::BeginCombo("fast build", label(scene.fast_build).c_str())) {
    for (const std::string& n : names)
      if (ImGui::Selectable(label(n).c_str(), n == scene.fast_build)) scene.fast_build = n;
    ImGui::EndCombo();
  }
  ui::tooltip(
      "The kernel of the fast variant. pairs*: each pair of bodies computed once and applied "
      "to both (Newton's third law), sums in fixed point. k*: one way, K bodies a thread "
      "against each shared-memory tile. Only builds that run this block are listed; compare "
      "interactions/s live.");
}

// The energy readout: measured on demand or every k frames, drift since reset.
void energy_section(NBodyScene& scene) {
  ui::section("Energy (kinetic + potential, O(N^2))");
  if (ImGui::SmallButton("measure now")) scene.request_energy();
  ui::same_line_if_fits("00000000 every k frames");
  const float label =
      ImGui::CalcTextSize("every k frames").x + ImGui::GetStyle().ItemInnerSpacing.x;
  ImGui::SetNextItemWidth(
      std::max(3 * ImGui::GetFontSize(),
               std::min(6 * ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x - label)));
  scene_ui::param_slider(scene, "energy_every");
  if (const auto& e = scene.energy()) {
    ImGui::TextWrapped("E = %.6g  (K %.4g, U %.4g) at step %lld", e->total(), e->kinetic,
                       e->potential, scene.energy_step());
    if (const auto& e0 = scene.energy_at_reset()) {
      const double drift = nbody::energy_drift(*e, *e0);
      ui::text_wrapped(std::fabs(drift) > 1e-2 ? kWarn : ui::kGood, "drift %+.3e since %s", drift,
                       scene.energy0_step() == 0
                           ? "reset"
                           : ("step " + std::to_string(scene.energy0_step())).c_str());
    }
    ui::text_wrapped(kDim, "measured in %.1f ms", scene.energy_ms());
  } else {
    ui::text_wrapped(kDim, "not measured yet");
  }
}
}  // namespace

void NBodyScene::build_custom_ui(SceneUi& sui) {
  NBodyScene& scene = *this;
  ui::section("N-body");
  int variant = index_of(nbody::kVariants, scene.variant);
  if (ImGui::Combo("variant", &variant, combo_items(nbody::kVariants).c_str()))
    scene.variant = nbody::kVariants[variant].value;
  ui::tooltip(
      "original: every thread reads every body from global memory. tiled: a block stages bodies "
      "through shared memory a tile at a time (GPU Gems 3). fast: each pair of bodies once, "
      "applied to both, the pairs spread over the whole GPU. Same physics; switches live.");
  if (scene.backend() == Backend::Cuda) fast_build_combo(scene);
  int ic = static_cast<int>(scene.initial());
  const bool ic_changed =
      ImGui::Combo("initial", &ic, "uniform sphere\0rotating disk\0two galaxies\0");
  ui::tooltip("The bodies' starting positions and velocities; changing it restarts the scene.");
  const auto initial = static_cast<nbody::Initial>(ic);
  const char* counts[] = {"1K", "4K", "16K", "64K", "256K", "1M"};
  const int ns[] = {1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20};
  for (int i = 0; i < 6; ++i) {
    if (i) ui::same_line_if_fits(counts[i]);
    if (ImGui::SmallButton(counts[i])) sui.count_input = ns[i];
  }
  scene_ui::count_row(
      scene, sui, "bodies", [&](unsigned n) { return scene.reconfigure(n, initial); }, ic_changed);
  if (scene.backend() == Backend::Cpu)
    ui::text_wrapped(kDim, "CPU backend: up to %u bodies (O(N^2) a step)",
                     NBodyScene::kMaxCountCpu);
  // Sliders from the registry entry's params (scenes/nbody_scene_entry.cpp).
  scene_ui::param_slider(scene, "steps_per_frame");
  scene_ui::param_slider(scene, "dt");
  nbody::Params& p = scene.params();
  const float softening = p.softening;
  if (scene_ui::param_slider(scene, "softening")) {
    sui.param_message.clear();
    try {  // a typed value (ctrl+click) can leave the slider's range
      nbody::require_softening(p);
    } catch (const std::exception& e) {
      sui.param_message = std::string(e.what()) + "; keeping " + std::to_string(softening);
      p.softening = softening;
    }
  }
  if (!sui.param_message.empty()) ui::text_wrapped(kWarn, "%s", sui.param_message.c_str());
  scene_ui::param_slider(scene, "point_size");
  scene_ui::param_slider(scene, "speed_colours");

  energy_section(scene);
  scene_ui::user_kernel_section(scene, user_, user_active_, user_note_);
}

}  // namespace cv

// The swarm scene's own section of the control panel (ParticleScene::build_ui
// draws the shared part first).
#include <imgui.h>

#include <cmath>
#include <string>

#include "scenes/swarm_scene.h"
#include "scenes/scene_ui.h"
#include "widgets/widgets.h"

namespace cv {

using ui::kDim;
using ui::kWarn;

void SwarmScene::build_custom_ui(SceneUi& sui) {
  SwarmScene& scene = *this;
  ui::section("Swarm");
  int variant = index_of(swarm::kVariants, scene.variant());
  if (ImGui::Combo("variant", &variant, combo_items(swarm::kVariants).c_str()))
    scene.set_variant(swarm::kVariants[variant].value);
  ui::tooltip("Switching keeps the particles and loads the variant's default parameters.");
  int mode = scene.follow_pointer ? 1 : 0;
  if (ImGui::Combo("target", &mode, "moves on its own path\0follows the mouse\0"))
    scene.follow_pointer = mode == 1;
  ui::tooltip(
      "Mouse: the target sits where the cursor meets the horizontal plane through the swarm's "
      "centre. It stays put while a mouse button is held, so dragging still orbits the camera.");
  const glm::vec3 t = scene.target();
  ui::text_wrapped(kDim, "target (%.2f, %.2f, %.2f)", t.x, t.y, t.z);
  swarm::Params& p = scene.params();
  ImGui::SliderFloat("attraction", &p.attraction, 0.f, 1e-4f, "%.2e", ImGuiSliderFlags_Logarithmic);
  ui::tooltip(
      "Speed gained per step along the unit vector to (swarm) or from (sparkler) the target.");
  ImGui::SliderFloat("max age", &p.max_age, 10.f, 2000.f, "%.0f");
  ui::tooltip(
      "Steps a particle lives before it respawns at the target. Colour shows age: pale young, "
      "violet old.");
  if (ImGui::TreeNode("more")) {
    ImGui::SliderFloat("gravity", &p.gravity, 0.f, 5e-4f, "%.2e");
    ui::tooltip("Downward speed gained per step (the sparkler falls, the swarm floats at 0).");
    ImGui::SliderFloat("drag", &p.drag, 0.f, 0.05f, "%.3f");
    ui::tooltip("Fraction of the velocity lost per step; 0 is the seed's undamped swarm.");
    ImGui::SliderFloat("spawn radius", &p.spawn_radius, 0.f, 1.f);
    ui::tooltip("How far from the target a particle respawns, per axis.");
    ImGui::SliderFloat("spawn speed", &p.spawn_speed, 0.f, 0.05f, "%.2e",
                       ImGuiSliderFlags_Logarithmic);
    ui::tooltip("Speed a particle respawns with, per axis (the sparkler's burst).");
    ImGui::TreePop();
  }
  const char* counts[] = {"16K", "64K", "256K", "1M", "4M", "16M"};
  const int ns[] = {1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22, 1 << 24};
  for (int i = 0; i < 6; ++i) {
    if (i) ui::same_line_if_fits(counts[i]);
    if (ImGui::SmallButton(counts[i])) sui.count_input = ns[i];
  }
  scene_ui::count_row(scene, sui, "particles", [&](unsigned n) { return scene.reconfigure(n); });
  ImGui::SliderFloat("point size", &scene.point_size, 2.f, 200.f, "%.0f");
  ui::tooltip("Sprite size in pixels at distance 1 (drawing only).");
}

}  // namespace cv

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
  // Sliders from the registry entry's params (scenes/swarm_scene_entry.cpp).
  scene_ui::param_slider(scene, "attraction");
  scene_ui::param_slider(scene, "max_age");
  if (ImGui::TreeNode("more")) {
    for (const char* key : {"gravity", "drag", "spawn_radius", "spawn_speed"})
      scene_ui::param_slider(scene, key);
    ImGui::TreePop();
  }
  const char* counts[] = {"16K", "64K", "256K", "1M", "4M", "16M"};
  const int ns[] = {1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22, 1 << 24};
  for (int i = 0; i < 6; ++i) {
    if (i) ui::same_line_if_fits(counts[i]);
    if (ImGui::SmallButton(counts[i])) sui.count_input = ns[i];
  }
  scene_ui::count_row(scene, sui, "particles", [&](unsigned n) { return scene.reconfigure(n); });
  scene_ui::param_slider(scene, "point_size");
  scene_ui::user_kernel_section(scene, user_, user_state_.active, user_state_.note);
}

}  // namespace cv

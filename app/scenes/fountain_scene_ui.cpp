// The fountain scene's own section of the control panel (ParticleScene::build_ui
// draws the shared part first).
#include <imgui.h>

#include <cmath>
#include <string>

#include "scenes/fountain_scene.h"
#include "scenes/scene_ui.h"
#include "widgets/widgets.h"

namespace cv {

using ui::kDim;
using ui::kWarn;

void FountainScene::build_custom_ui(SceneUi& sui) {
  FountainScene& scene = *this;
  ui::section("Particles");
  const char* counts[] = {"64x64", "256x256", "512x512", "1024x1024", "2048x2048", "4096x4096"};
  const int sides[] = {64, 256, 512, 1024, 2048, 4096};
  for (int i = 0; i < 6; ++i) {
    if (i) ui::same_line_if_fits(counts[i]);
    if (ImGui::SmallButton(counts[i])) sui.count_input = sides[i] * sides[i];
  }
  int variant = index_of(fountain::kVariants, scene.variant());
  const bool variant_changed =
      ImGui::Combo("variant", &variant, combo_items(fountain::kVariants).c_str());
  ui::tooltip(
      "lean derives colour and horizontal velocity instead of storing them; original is "
      "document 004's layout. Same physics, half the memory traffic.");
  const auto v = fountain::kVariants[variant].value;
  scene_ui::count_row(
      scene, sui, "particles", [&](unsigned n) { return scene.reconfigure(n, v); },
      variant_changed);
  // Sliders from the registry entry's params (scenes/fountain_scene_entry.cpp).
  scene_ui::param_slider(scene, "point_size");
  if (ImGui::TreeNode("physics")) {
    for (const char* key : {"gravity", "bounce", "max_age", "table_radius", "emitter_speed"})
      scene_ui::param_slider(scene, key);
    ImGui::TreePop();
  }
  build_user_kernel_ui();
}

// Yours beside the built-in: what runs, its time, why the built-in runs instead.
void FountainScene::build_user_kernel_ui() {
  scene_ui::user_kernel_section(*this, user_, user_state_.active, user_state_.note);
}

}  // namespace cv

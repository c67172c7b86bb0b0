// The fountain scene's own section of the control panel (ParticleScene::build_ui
// draws the shared part first).
#include <imgui.h>

#include <cmath>
#include <string>

#include "scenes/fountain_scene.h"
#include "scenes/scene_ui.h"
#include "usercode/user_kernel.h"
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
      "lean derives colour and horizontal velocity instead of storing them; seed is the "
      "reference notes' layout. Same physics, half the memory traffic.");
  const auto v = fountain::kVariants[variant].value;
  scene_ui::count_row(
      scene, sui, "particles", [&](unsigned n) { return scene.reconfigure(n, v); },
      variant_changed);
  ImGui::SliderFloat("point size", &scene.point_size, 2.f, 200.f, "%.0f");
  ui::tooltip("Sprite size in pixels at distance 1 (drawing only).");

  fountain::Params& p = scene.params();
  if (ImGui::TreeNode("physics")) {
    ImGui::SliderFloat("gravity", &p.gravity, 0.f, 5e-4f, "%.5f");
    ui::tooltip("Vertical speed lost per step.");
    ImGui::SliderFloat("bounce", &p.restitution, 0.f, 1.f);
    ui::tooltip("Fraction of vertical speed kept when a particle hits the table.");
    ImGui::SliderFloat("max age", &p.max_age, 10.f, 2000.f, "%.0f");
    ui::tooltip("Steps a particle lives before respawning at the emitter.");
    ImGui::SliderFloat("table radius", &p.table_radius, 0.5f, 10.f);
    ui::tooltip("Radius of the table top the particles bounce on; beyond it they fall.");
    ImGui::SliderFloat("emitter speed", &p.emitter_speed, 0.f, 0.1f);
    ui::tooltip("Radians per step the emitter circles: 0 is a still fountain.");
    ImGui::TreePop();
  }
  build_user_kernel_ui();
}

// Yours beside the built-in: what runs, its time, why the built-in runs instead.
void FountainScene::build_user_kernel_ui() {
  if (!user_ || user_->status().state == usercode::UserKernelState::Off) return;
  const usercode::UserKernelStatus& st = user_->status();
  ui::section("Your kernel");
  ImGui::TextWrapped("%s", st.headline.c_str());
  if (user_active_ && user_kernel_ms.size())
    ImGui::Text("yours %.3f ms | built-in %.3f ms", user_kernel_ms.median(), kernel_ms.median());
  if (!st.fallback.empty()) ui::text_wrapped(kWarn, "%s", st.fallback.c_str());
  if (st.fault) ui::text_wrapped(kWarn, "%s", st.fault->describe().c_str());
  if (!user_note_.empty()) ui::text_wrapped(kDim, "%s", user_note_.c_str());
}

}  // namespace cv

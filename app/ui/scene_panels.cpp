// The per-scene sections of the control panel.
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include <cuda_runtime_api.h>

#include "scenes/fountain_scene.h"
#include "scenes/nbody_scene.h"
#include "scenes/pi_scene.h"
#include "scenes/swarm_scene.h"
#include "ui/panels.h"

namespace cv {
namespace {

using ui::kDim;
using ui::kWarn;

// The count field and its apply button; `apply` rebuilds the scene's buffers.
template <typename Apply>
void count_row(ParticleScene& scene, SceneUi& sui, const char* what, Apply&& apply,
               bool force_apply = false) {
  ImGui::InputInt("count", &sui.count_input, 0, 0);
  ui::tooltip("Applied with the button; the old buffers stay if the new ones cannot be allocated.");
  if (ImGui::Button("apply count") || force_apply) {
    if (sui.count_input < 1) {
      sui.count_message =
          std::string(what) + " count must be at least 1; keeping " + std::to_string(scene.count());
    } else {
      std::optional<std::string> err;
      try {
        err = apply(static_cast<unsigned>(sui.count_input));
      } catch (const std::exception& e) {
        // The new buffers were built but writing the first state failed (a CUDA
        // error): say so here rather than let it end the frame loop.
        cudaGetLastError();
        err = std::string(e.what());
      }
      if (err)
        sui.count_message = *err + "; running " + std::to_string(scene.count());
      else
        sui.count_message.clear();
    }
  }
  ImGui::SameLine();
  ImGui::Text("running %u %s", scene.count(), what);
  if (!sui.count_message.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
    ImGui::TextWrapped("%s", sui.count_message.c_str());
    ImGui::PopStyleColor();
  }
}

void fountain_section(FountainScene& scene, SceneUi& sui) {
  ui::section("Particles");
  const char* counts[] = {"64x64", "256x256", "512x512", "1024x1024", "2048x2048", "4096x4096"};
  const int sides[] = {64, 256, 512, 1024, 2048, 4096};
  for (int i = 0; i < 6; ++i) {
    if (i % 3) ImGui::SameLine();
    if (ImGui::SmallButton(counts[i])) sui.count_input = sides[i] * sides[i];
  }
  int variant = scene.variant() == fountain::Variant::Lean ? 0 : 1;
  const bool variant_changed =
      ImGui::Combo("variant", &variant, "lean (40 B/particle)\0seed (80 B/particle)\0");
  ui::tooltip(
      "lean derives colour and horizontal velocity instead of storing them; seed is the "
      "reference notes' layout. Same physics, half the memory traffic.");
  const auto v = variant == 0 ? fountain::Variant::Lean : fountain::Variant::Seed;
  count_row(
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
}

void swarm_section(SwarmScene& scene, SceneUi& sui) {
  ui::section("Swarm");
  int variant = scene.variant() == swarm::Variant::Swarm ? 0 : 1;
  if (ImGui::Combo("variant", &variant,
                   "swarm (steer to the target)\0sparkler (pushed away, falling)\0"))
    scene.set_variant(variant == 0 ? swarm::Variant::Swarm : swarm::Variant::Sparkler);
  ui::tooltip("Switching keeps the particles and loads the variant's default parameters.");
  int mode = scene.follow_pointer ? 1 : 0;
  if (ImGui::Combo("target", &mode, "moves on its own path\0follows the mouse\0"))
    scene.follow_pointer = mode == 1;
  ui::tooltip(
      "Mouse: the target sits where the cursor meets the horizontal plane through the swarm's "
      "centre. It stays put while a mouse button is held, so dragging still orbits the camera.");
  const glm::vec3 t = scene.target();
  ImGui::TextColored(kDim, "target (%.2f, %.2f, %.2f)", t.x, t.y, t.z);
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
    if (i) ImGui::SameLine();
    if (ImGui::SmallButton(counts[i])) sui.count_input = ns[i];
  }
  count_row(scene, sui, "particles", [&](unsigned n) { return scene.reconfigure(n); });
  ImGui::SliderFloat("point size", &scene.point_size, 2.f, 200.f, "%.0f");
  ui::tooltip("Sprite size in pixels at distance 1 (drawing only).");
}

void nbody_section(NBodyScene& scene, SceneUi& sui) {
  ui::section("N-body");
  int variant = static_cast<int>(scene.variant);
  if (ImGui::Combo("variant", &variant, "seed (global memory)\0tiled (shared memory)\0fast\0"))
    scene.variant = static_cast<nbody::Variant>(variant);
  ui::tooltip(
      "seed: every thread reads every body from global memory. tiled: a block stages bodies "
      "through shared memory a tile at a time (GPU Gems 3). fast: several bodies a thread and "
      "the j-range split across blocks when N is small. Same physics; switches live.");
  int ic = static_cast<int>(scene.initial());
  const bool ic_changed =
      ImGui::Combo("initial", &ic, "uniform sphere\0rotating disk\0two galaxies\0");
  ui::tooltip("The bodies' starting positions and velocities; changing it restarts the scene.");
  const auto initial = static_cast<nbody::Initial>(ic);
  const char* counts[] = {"1K", "4K", "16K", "64K", "256K", "1M"};
  const int ns[] = {1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20};
  for (int i = 0; i < 6; ++i) {
    if (i) ImGui::SameLine();
    if (ImGui::SmallButton(counts[i])) sui.count_input = ns[i];
  }
  count_row(
      scene, sui, "bodies", [&](unsigned n) { return scene.reconfigure(n, initial); }, ic_changed);
  if (scene.backend() == Backend::Cpu)
    ImGui::TextColored(kDim, "CPU backend: up to %u bodies (O(N^2) a step)",
                       NBodyScene::kMaxCountCpu);
  ImGui::SliderInt("steps / frame", &scene.steps_per_frame, 1, 20);
  ui::tooltip("More simulated time per frame; the kernel plot then covers all of them.");
  nbody::Params& p = scene.params();
  ImGui::SliderFloat("dt", &p.dt, 1e-4f, 1e-2f, "%.4f", ImGuiSliderFlags_Logarithmic);
  ui::tooltip("Time step. Larger steps integrate faster and drift more: watch the energy.");
  ImGui::SliderFloat("softening", &p.softening, 1e-3f, 0.2f, "%.3f", ImGuiSliderFlags_Logarithmic);
  ui::tooltip("eps in r / (r^2 + eps^2)^(3/2): keeps close encounters finite.");
  ImGui::SliderFloat("point size", &scene.point_size, 0.5f, 20.f, "%.1f");
  ui::tooltip("Body size in pixels (drawing only).");
  ImGui::SliderFloat("speed colours", &scene.speed_scale, 0.1f, 4.f, "%.2f");
  ui::tooltip(
      "Speed that maps to orange, relative to the 95th percentile at reset. Blue slow, white, "
      "orange fast.");

  ui::section("Energy (kinetic + potential, O(N^2))");
  if (ImGui::SmallButton("measure now")) scene.request_energy();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(150);
  ImGui::SliderInt("every k frames", &scene.energy_every, 0, 120);
  ui::tooltip("0: only on demand. Off by default above 65,536 bodies: it costs about one step.");
  if (const auto& e = scene.energy()) {
    ImGui::Text("E = %.6g  (K %.4g, U %.4g) at step %lld", e->total(), e->kinetic, e->potential,
                scene.energy_step());
    if (const auto& e0 = scene.energy_at_reset()) {
      const double drift = nbody::energy_drift(*e, *e0);
      ImGui::TextColored(std::fabs(drift) > 1e-2 ? kWarn : ui::kGood, "drift %+.3e since %s", drift,
                         scene.energy0_step() == 0
                             ? "reset"
                             : ("step " + std::to_string(scene.energy0_step())).c_str());
    }
    ImGui::TextColored(kDim, "measured in %.1f ms", scene.energy_ms());
  } else {
    ImGui::TextColored(kDim, "not measured yet");
  }
}

void pi_section(PiPointsScene& scene, SceneUi& sui) {
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
    if (i) ImGui::SameLine();
    if (ImGui::SmallButton(counts[i])) {
      sui.count_input = ns[i];
      preset = true;
    }
  }
  count_row(
      scene, sui, "points", [&](unsigned n) { return scene.reconfigure(n); }, released || preset);
  if (ImGui::Button("resample")) scene.resample();
  ui::tooltip("New points from the next seed.");
  ImGui::SameLine();
  ImGui::TextColored(kDim, "seed %llu", static_cast<unsigned long long>(scene.seed()));
  if (auto e = scene.estimate()) {
    ImGui::Text("inside the quarter circle: %llu of %u", scene.inside(), scene.count());
    ImGui::Text("pi ~ 4 x %llu / %u = %.6f", scene.inside(), scene.count(), *e);
    ImGui::PushStyleColor(ImGuiCol_Text, kDim);
    ImGui::TextWrapped("|error| %.2e (one standard deviation for this many points: %.1e)",
                       std::fabs(*e - M_PI), std::sqrt(M_PI * (4 - M_PI) / scene.count()));
    ImGui::PopStyleColor();
  }
  ImGui::SliderFloat("point size", &scene.point_size, 1.f, 40.f, "%.0f");
  ui::tooltip("Point size in pixels (drawing only).");
}

}  // namespace

void draw_scene_section(ParticleScene& scene, SceneUi& sui) {
  if (auto* f = dynamic_cast<FountainScene*>(&scene)) fountain_section(*f, sui);
  if (auto* s = dynamic_cast<SwarmScene*>(&scene)) swarm_section(*s, sui);
  if (auto* n = dynamic_cast<NBodyScene*>(&scene)) nbody_section(*n, sui);
  if (auto* p = dynamic_cast<PiPointsScene*>(&scene)) pi_section(*p, sui);
}

}  // namespace cv

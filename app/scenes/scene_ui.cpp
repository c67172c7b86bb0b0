// What every scene's panel shares (polyscope's buildUI): the run controls, the
// block shape and the kernel plots; the scene's own section comes from its
// build_custom_ui() (scenes/*_scene_ui.cpp).
#include "scenes/scene_ui.h"

#include <imgui.h>

#include <cstdio>

#include <cuda_runtime_api.h>

#include "scenes/particle_scene.h"
#include "usercode/client/user_kernel.h"
#include "widgets/widgets.h"

namespace cv {

using ui::kDim;
using ui::kWarn;

void SceneUi::sync_from(const ParticleScene& s) {
  block_x = s.block().x;
  block_y = s.block().y;
  count_input = static_cast<int>(s.count());
}

namespace scene_ui {

bool param_slider(ParticleScene& scene, const char* key) {
  const SceneDescriptor* d = scene_registry().find(scene.name());
  const SceneParam* p = d ? d->param(key) : nullptr;
  if (!p || p->slider_min == p->slider_max) return false;
  bool changed = false;
  const char* label = p->label ? p->label : p->key;
  const ImGuiSliderFlags flags = p->logarithmic ? ImGuiSliderFlags_Logarithmic : 0;
  for (const ParamBinding& b : scene.param_bindings()) {
    if (std::string(b.key) != key) continue;
    if (auto* f = std::get_if<float*>(&b.ptr))
      changed = ImGui::SliderFloat(label, *f, static_cast<float>(p->slider_min),
                                   static_cast<float>(p->slider_max), p->format, flags);
    else if (auto* i = std::get_if<int*>(&b.ptr))
      changed = ImGui::SliderInt(label, *i, static_cast<int>(p->slider_min),
                                 static_cast<int>(p->slider_max), p->format, flags);
    else if (auto* v = std::get_if<bool*>(&b.ptr))
      changed = ImGui::Checkbox(label, *v);
    if (*p->help) ui::tooltip(p->help);
    break;
  }
  return changed;
}

void count_row(ParticleScene& scene, SceneUi& sui, const char* what,
               const std::function<std::optional<std::string>(unsigned)>& apply, bool force_apply) {
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
      sui.count_message = err ? *err + "; running " + std::to_string(scene.count()) : "";
    }
  }
  const std::string running = "running " + std::to_string(scene.count()) + " " + what;
  ui::same_line_if_fits(running.c_str());
  ImGui::TextUnformatted(running.c_str());
  if (!sui.count_message.empty()) ui::wrapped(kWarn, sui.count_message);
}

void colour_by_row(ParticleScene& scene, SceneControls& run) {
  int c = static_cast<int>(run.colour_by);
  if (ImGui::Combo("colour by", &c, "normal\0block\0warp\0thread (lane)\0SM\0"))
    run.colour_by = static_cast<insight::ColourBy>(c);
  ui::tooltip(
      "Each particle takes the colour of the block, warp, lane or SM that computed it "
      "this frame: the kernel writes that id itself (the SM from the %smid register).");
  const std::string note = scene.colour_by_note();
  if (!note.empty()) ui::wrapped(kWarn, note);
}

void count_buttons(SceneUi& sui, const char* const* labels, const int* counts, int n) {
  for (int i = 0; i < n; ++i) {
    if (i) ui::same_line_if_fits(labels[i]);
    if (ImGui::SmallButton(labels[i])) sui.count_input = counts[i];
  }
}

void user_kernel_section(const ParticleScene& scene, const usercode::UserKernel* uk, bool active,
                         const std::string& note) {
  if (!uk || uk->status().state == usercode::UserKernelState::Off) return;
  const usercode::UserKernelStatus& st = uk->status();
  ui::section("Your kernel");
  ImGui::TextWrapped("%s", st.headline.c_str());
  if (active && scene.kernel_is_yours()) {
    ImGui::Text("yours %.3f ms | built-in %.3f ms", scene.kernel_ms.median(), scene.builtin_kernel_ms());
    ui::tooltip("Both kernels alone: yours timed in the runner, the built-in before yours ran.");
    ImGui::Text("round trip %.3f ms (request -> reply)", scene.round_trip_ms.median());
    ui::tooltip("What a step of yours costs the frame: the request to the runner, your launch, "
                "the wait and the reply (with the data where it comes back in it).");
  }
  if (!st.fallback.empty()) ui::text_wrapped(kWarn, "%s", st.fallback.c_str());
  if (st.fault) ui::text_wrapped(kWarn, "%s", st.fault->describe().c_str());
  if (!note.empty()) ui::text_wrapped(kDim, "%s", note.c_str());
}

}  // namespace scene_ui

namespace {

// The shape presets; true when one was clicked.
bool block_buttons(bool two_d, SceneUi& sui) {
  bool clicked = false;
  if (two_d) {
    const char* names[] = {"1x1", "2x2", "8x8", "16x16", "32x8", "32x32", "256x1", "1x256"};
    const int px[] = {1, 2, 8, 16, 32, 32, 256, 1}, py[] = {1, 2, 8, 16, 8, 32, 1, 256};
    for (int i = 0; i < 8; ++i) {
      if (i) ui::same_line_if_fits(names[i]);
      if (ImGui::SmallButton(names[i])) sui.block_x = px[i], sui.block_y = py[i], clicked = true;
    }
    return clicked;
  }
  sui.block_y = 1;
  const int sizes[] = {32, 64, 128, 256, 512, 1024};
  for (int i = 0; i < 6; ++i) {
    char label[16];
    std::snprintf(label, sizeof label, "%d", sizes[i]);
    if (i) ui::same_line_if_fits(label);
    if (ImGui::SmallButton(label)) sui.block_x = sizes[i], clicked = true;
  }
  return clicked;
}

void run_controls(const ParticleScene& scene, SceneControls& run) {
  ImGui::TextWrapped("%s: step %lld", scene.name(), scene.steps());
  if (ImGui::Button(run.paused ? "resume" : "pause")) run.paused = !run.paused;
  ui::tooltip("Space");
  ui::same_line_if_fits("step");
  if (ImGui::Button("step")) run.step_once = true;
  ui::tooltip("One simulation step while paused (S).");
  ui::same_line_if_fits("reset");
  if (ImGui::Button("reset")) run.reset_requested = true;
  ui::tooltip("Back to the initial state (R).");
}

}  // namespace

void ParticleScene::build_block_ui(SceneUi& sui) {
  const bool two_d = two_dimensional_block();
  ui::section(two_d ? "Block shape" : "Block size (1D kernel)");
  bool changed = ImGui::SliderInt("block x", &sui.block_x, 1, 1024);
  ui::tooltip("Threads per block along x. The grid is sized to cover every element.");
  if (two_d) {
    changed |= ImGui::SliderInt("block y", &sui.block_y, 1, 1024);
    ui::tooltip("Threads per block along y (document 004 uses a 2D grid of 2D blocks, 16x16).");
  }
  changed |= block_buttons(two_d, sui);
  if (changed) {
    if (auto err = set_block(BlockShape{sui.block_x, two_d ? sui.block_y : 1, 1}))
      sui.block_message = *err + "; keeping " + to_string(block());
    else
      sui.block_message.clear();
  }
  const BlockShape& b = block();
  ui::wrapped(ImGui::GetStyleColorVec4(ImGuiCol_Text),
              "running " + to_string(b) + " = " + std::to_string(b.threads()) + " threads/block");
  const std::string note = grid_note();
  if (!note.empty()) ui::wrapped(kDim, note);
  if (backend() == Backend::Cpu)
    ui::wrapped(kDim, "CPU backend: only the CUDA kernels use the shape");
  if (b.threads() % 32 && backend() == Backend::Cuda)
    ui::wrapped(kDim,
                std::to_string(b.threads()) + " threads is not a multiple of the 32-thread warp");
  if (!sui.block_message.empty()) ImGui::TextWrapped("%s", sui.block_message.c_str());
}

void ParticleScene::build_ui(SceneUi& sui, SceneControls& run) {
  run_controls(*this, run);
  build_block_ui(sui);
  build_custom_ui(sui);
  scene_ui::colour_by_row(*this, run);
}

void ParticleScene::build_timing_ui(float plot_height) {
  const bool cuda = backend() == Backend::Cuda;
  char label[96];
  auto plot = [&](const char* name, const History& h) {
    std::snprintf(label, sizeof label, "%.3f ms", h.latest());
    ImGui::PlotLines(name, h.data(), h.size(), h.offset(), label, 0.f, h.max() * 1.2f + 1e-6f,
                     ImVec2(0, plot_height));
  };
  // While the student's kernel steps the scene, the kernel plot and the
  // throughput are ITS times as the runner measured them; the round trip to
  // the runner is plotted on its own, for what it is.
  const bool yours = kernel_is_yours();
  plot(yours ? "your kernel" : cuda ? "kernel (GPU)" : "step (CPU)", kernel_ms);
  if (yours) {
    ui::tooltip(cuda ? "Your kernel alone, timed in the runner process (CUDA events around its launch)."
                     : "Your kernel alone, timed in the runner process (the host clock around its run).");
    plot("round trip", round_trip_ms);
    ui::tooltip("Request -> reply: the app asks the runner for a step of yours and waits for "
                "the answer (the pipe, your launch, the wait, copies). Not a kernel time.");
  }
  plot(yours ? (cuda ? "map+yours+unmap" : "yours+upload") : cuda ? "map+step+unmap" : "step+upload",
       step_ms);
  // The scene's own throughput, from the latest kernel time.
  const nlohmann::ordered_json t = throughput();
  for (auto it = t.begin(); it != t.end(); ++it) {
    if (!it.value().is_number()) continue;
    const double v = it.value().get<double>();
    const std::string& k = it.key();
    const char* who = yours ? "yours, " : "";  // whose kernel time the rate is from
    if (k == "gflops")
      ImGui::TextWrapped("%sGFLOP/s: %.1f  (20 flops an interaction)", who, v);
    else if (k == "gb_per_s")
      ImGui::TextWrapped("%sGB/s: %.2f", who, v);
    else {
      std::string name = k;
      if (auto p = name.find("_per_s"); p != std::string::npos) name = name.substr(0, p) + "/s";
      ImGui::TextWrapped("%s%s: %s", who, name.c_str(), ui::si(v).c_str());
    }
  }
}

}  // namespace cv

// The frame loop: one short function per step, called in the order they run.
#include "core/app.h"

#include <glad/gl.h>  // before GLFW, which would pull in the system gl.h
#include <GLFW/glfw3.h>
#include <cuda_runtime_api.h>
#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <thread>

#include "gl/gl_check.h"
#include "gl/png_writer.h"
#include "system/startup.h"
#include "timing/frame_pacing.h"

namespace cv {
namespace {

std::string timestamped_png() {
  char name[64];
  std::time_t t = std::time(nullptr);
  std::strftime(name, sizeof name, "cudaviz-%Y%m%d-%H%M%S.png", std::localtime(&t));
  return name;
}

std::string window_title(const ParticleScene& scene, float fps) {
  char buf[256];
  const std::string backend =
      scene.backend() == Backend::Cuda
          ? "CUDA " + device_info().name + " (" + to_string(scene.transfer_mode()) + ")"
          : sys::cpu_backend_title();
  std::snprintf(buf, sizeof buf, "cudaviz - %s - %s - %u elements - %.0f fps", scene.name(),
                backend.c_str(), scene.count(), fps);
  return buf;
}

}  // namespace

int App::run() {
  try {
    while (!glfwWindowShouldClose(window_.handle()))
      if (!frame()) break;
  } catch (...) {  // the run fails (exit 1), but no worker outlives what it reads
    ctx_.labs.shutdown();
    ctx_.tuning.shutdown();
    ctx_.insight.shutdown();
    throw;
  }
  return teardown();
}

bool App::frame() {
  for (auto& o : observers_) o->before_events(window_.handle());
  glfwPollEvents();
  size_ = window_.size();
  if (!size_.drawable()) {  // minimized: nothing to draw, don't spin
    for (auto& o : observers_) o->on_minimized();
    glfwWaitEventsTimeout(0.1);
    return true;
  }
  FrameView view{window_.handle(), ctx_, size_};
  for (auto& o : observers_) o->before_frame(view);
  apply_requests();
  input_.handle(window_.handle(), size_, ctx_.scenes.current(), ctx_.ui, ctx_.presentation);
  simulate();
  SceneSlot& slot = ctx_.scenes.current();
  view_.draw(*slot.scene, slot.camera, ctx_.ui, size_.fb_w, size_.fb_h);
  build_ui();
  for (auto& o : observers_) o->before_present(view);
  present();
  account_frame();
  bool go_on = true;
  for (auto& o : observers_) go_on = o->after_frame(view) && go_on;
  return go_on;
}

// What the panels, keys and the classroom window asked for last frame: a scene
// switch, a preset load or save, a sweep; and the camera a scene asked to refit.
void App::apply_requests() {
  UiState& ui = ctx_.ui;
  if (ui.scene_request && *ui.scene_request != ctx_.scenes.current_kind()) {
    if (auto err = ctx_.scenes.activate(*ui.scene_request)) {
      ui.scene_message = *err;  // the current scene stays
      std::fprintf(stderr, "cudaviz: %s\n", err->c_str());
    } else {
      ui.scene_message.clear();
      ui.error_message.clear();  // a stopped scene's error belongs to that scene
    }
  }
  ui.scene_request.reset();
  auto state = ctx_.app_state();
  if (ctx_.preset_panel.service(state)) ctx_.preset_lab = true;
  if (auto spec = ctx_.preset_panel.take_sweep_request())
    if (auto err = ctx_.tuning.start_sweep(*spec)) ctx_.preset_panel.sweep_failed(*err);
  SceneSlot& slot = ctx_.scenes.current();
  if (slot.scene->take_camera_refit()) {
    const auto home = slot.scene->camera_home();
    slot.camera.set_home(home.target, home.distance, home.yaw, home.pitch);
  }
}

// Fixed steps of simulated time: one a frame in scripted runs (deterministic),
// else as many as the wall time since the last frame asks for (frame_pacing.h).
void App::simulate() {
  UiState& ui = ctx_.ui;
  ParticleScene& scene = *ctx_.scenes.current().scene;
  const double now = glfwGetTime();
  const auto plan = pacing::plan_steps(sim_pending_, now - sim_clock_);
  sim_clock_ = now;
  const bool running = ui.error_message.empty() && !ui.paused;
  sim_pending_ = running ? plan.pending : 0;
  int steps = fixed_steps_ ? 1 : plan.steps;
  if (!running) steps = ui.step_once && ui.error_message.empty() ? 1 : 0;
  ui.sim_behind = running && !fixed_steps_ && plan.dropped;
  ui.step_once = false;
  ui.sim_steps = 0;
  scene.set_colour_by(ui.colour_by);
  ctx_.user_kernel.poll();  // a finished compile is loaded into the runner here
  scene.set_user_kernel(&ctx_.user_kernel);
  try {
    if (ui.reset_requested) {
      ui.reset_requested = false;
      scene.reset();
    }
    for (; ui.sim_steps < steps; ++ui.sim_steps) scene.step();
  } catch (const std::exception& e) {
    ui.error_message = e.what();  // names the call and the error
    ui.paused = true;
    cudaGetLastError();
    std::fprintf(stderr, "cudaviz: %s\n", e.what());
  }
}

// The panels: what every frame shows, then the help overlay. The "UI" part of
// the frame breakdown is this function's CPU time.
void App::build_ui() {
  CpuStopwatch ui_clock;
  SceneSlot& slot = ctx_.scenes.current();
  ctx_.presentation.begin_frame(window_.handle());  // fonts and style at the UI scale
  imgui_.new_frame();
  // The student's kernel: its compile's outcome and its file on disk, panels shown or not.
  ctx_.kernel_panel.update(ctx_.user_kernel, *slot.scene);
  if (!ctx_.presentation.panels_hidden) {
    ui::Layout& layout = ctx_.layout;
    layout.begin_frame();  // from the framebuffer size and the UI scale
    draw_control_panel(*slot.scene, ctx_.scenes.current_kind(), slot.ui, ctx_.ui, layout);
    draw_timing_panel(*slot.scene, ctx_.ui, layout);
    ctx_.labs.draw(layout);  // the tool area's tabs: only the open one draws
    ctx_.tuning.draw(*slot.scene, slot.ui, ctx_.ui, layout);
    ctx_.insight.draw(*slot.scene, layout);
    ctx_.kernel_panel.draw(layout, ctx_.user_kernel);
    ctx_.preset_panel.draw(ctx_.presentation, layout);
    layout.draw_strip();
  }
  ctx_.presentation.draw_help();
  imgui_.render_frame();
  ctx_.tuning.record_ui_ms(ui_clock.ms());
  check_gl("frame");
}

// The screenshot the user asked for (P or the button), vsync as chosen, swap.
void App::present() {
  UiState& ui = ctx_.ui;
  if (ui.screenshot_requested) {
    ui.screenshot_requested = false;
    const std::string path = timestamped_png();
    try {
      write_framebuffer_png(path, size_.fb_w, size_.fb_h);
      std::fprintf(stderr, "screenshot: %s\n", path.c_str());
    } catch (const std::exception& e) {
      ui.error_message = e.what();
    }
  }
  if (ui.pacing.vsync != vsync_applied_) {
    glfwSwapInterval(ui.pacing.vsync ? 1 : 0);
    vsync_applied_ = ui.pacing.vsync;
  }
  glfwSwapBuffers(window_.handle());
}

// The fps cap's wait, then the frame's time into the plots and the title.
void App::account_frame() {
  const double wait = pacing::cap_wait(last_time_, glfwGetTime(), ctx_.ui.pacing.fps_cap);
  if (wait > 0) std::this_thread::sleep_for(std::chrono::duration<double>(wait));
  ++ctx_.frame;
  const double now = glfwGetTime();
  const float dt = static_cast<float>(now - last_time_);
  last_time_ = now;
  ctx_.ui.frame_ms.push(dt * 1000.f);
  ctx_.ui.fps.push(dt > 0 ? 1.f / dt : 0.f);
  if (now - title_time_ > 0.5) {
    title_time_ = now;
    glfwSetWindowTitle(window_.handle(),
                       window_title(*ctx_.scenes.current().scene, ctx_.ui.fps.latest()).c_str());
  }
}

// Mirrors setup: the workers stop first (closing the window while a lab runs
// cancels it and waits), then the observers report; members go in reverse order.
int App::teardown() {
  ctx_.labs.shutdown();
  ctx_.tuning.shutdown();
  ctx_.insight.shutdown();
  nlohmann::ordered_json summary;
  for (auto& o : observers_) o->finish(ctx_, summary);
  for (auto& o : observers_)
    if (int code = o->exit_code(ctx_, std::cerr)) return code;
  return 0;
}

}  // namespace cv

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
#include <utility>

#include "common/cuda_check.h"
#include "common/fault_injection.h"
#include "common/nvtx_range.h"
#include "gl/gl_check.h"
#include "gl/png_writer.h"
#include "process/exit_words.h"
#include "process/stop_signal.h"
#include "system/startup.h"
#include "timing/frame_pacing.h"

namespace cv {
namespace {

// cudaviz-<date>-<time>.<ext> in the working directory (screenshots, clips).
std::string timestamped_name(const char* ext) {
  char name[64];
  std::time_t t = std::time(nullptr);
  std::strftime(name, sizeof name, "cudaviz-%Y%m%d-%H%M%S.", std::localtime(&t));
  return name + std::string(ext);
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
    while (!glfwWindowShouldClose(window_.handle()) && !stop_signal())
      if (!frame()) break;
    if (const int sig = stop_signal())
      std::fprintf(stderr, "cudaviz: %s: closing, as the window's close button does\n", signal_name(sig).c_str());
  } catch (const GlContextLost& lost) {
    reopen(lost);
  } catch (...) {  // the run fails (exit 1), but no worker outlives what it reads
    stop_workers();
    throw;
  }
  return teardown();
}

// Each step is an NVTX range in the "cudaviz" domain (Nsight Systems: docs/performance.md).
bool App::frame() {
  CV_NVTX_RANGE("frame");
  for (auto& o : observers_) o->before_events(window_.handle());
  {
    CV_NVTX_RANGE("poll events");
    glfwPollEvents();
  }
  // A GPU reset (a student's kernel faulting in the runner can cause one) loses
  // the context: every GL call from here would be lost work, so reopen.
  unsigned status = window_.reset_status();
  // Tests of the two paths below (CUDAVIZ_FAULT=launch:gl-context-reset / frame-stall).
  if (status == GL_NO_ERROR && fault_injector().should_fail("gl-context-reset"))
    status = GL_UNKNOWN_CONTEXT_RESET;
  if (status != GL_NO_ERROR) throw GlContextLost(status);
  if (fault_injector().should_fail("frame-stall")) {
    arm_watchdog("an injected stall (CUDAVIZ_FAULT)");
    std::this_thread::sleep_for(watchdog_.limit() * 3);  // stands for a driver that never returns
  }
  size_ = window_.size();
  if (!size_.drawable()) {  // minimized: nothing to draw, don't spin
    for (auto& o : observers_) o->on_minimized();
    glfwWaitEventsTimeout(0.1);
    return true;
  }
  FrameView view{window_.handle(), ctx_, size_};
  for (auto& o : observers_) o->before_frame(view);
  apply_requests();
  const ui::Layout& layout = ctx_.layout;
  // A clip of the scene alone has no panels in it: the scene takes the whole frame.
  const bool scene_only_clip = ctx_.recorder.recording() && !ctx_.recorder.status().include_ui;
  const Viewport scene_view =
      scene_viewport(layout.scene_rect(), layout.planned_width(), layout.planned_height(),
                     ctx_.presentation.panels_hidden || scene_only_clip, size_.fb_w, size_.fb_h,
                     size_.win_w, size_.win_h);
  {
    CV_NVTX_RANGE("input");
    input_.handle(window_.handle(), size_, scene_view, ctx_.scenes.current(), ctx_.ui,
                  ctx_.presentation);
  }
  simulate();
  {
    CV_NVTX_RANGE("draw scene");
    SceneSlot& slot = ctx_.scenes.current();
    // The camera frames the scene's content into the view at its current shape.
    if (auto content = slot.scene->content_bounds()) slot.camera.fit(*content, scene_view.aspect());
    view_.draw(*slot.scene, slot.camera, ctx_.ui, scene_view);
  }
  ctx_.recorder.capture(record::Recorder::Stage::Scene, size_.fb_w, size_.fb_h);
  build_ui();
  for (auto& o : observers_) o->before_present(view);
  present();
  account_frame();
  watch_after_fault();
  watchdog_.frame_done();
  bool go_on = true;
  for (auto& o : observers_) go_on = o->after_frame(view) && go_on;
  return go_on;
}

// What the panels, keys, presets, lessons and the soak asked for last frame,
// taken here and nowhere else (the frame's later steps read requests_): a scene
// switch, a preset load or save, a sweep, lesson steps, the camera (reset, or
// a scene's refit); then step/reset (simulate) and a screenshot (present).
void App::apply_requests() {
  CV_NVTX_RANGE("requests");
  UiState& ui = ctx_.ui;
  requests_ = std::exchange(ui.requests, FrameRequests{});
  if (requests_.scene && *requests_.scene != ctx_.scenes.current_kind()) {
    if (auto err = ctx_.scenes.activate(*requests_.scene)) {
      ui.stats.scene_message = *err;  // the current scene stays
      std::fprintf(stderr, "cudaviz: %s\n", err->c_str());
    } else {
      ui.stats.scene_message.clear();
      ui.stats.error_message.clear();  // a stopped scene's error belongs to that scene
    }
  }
  toggle_recording();
  auto state = ctx_.app_state();
  if (ctx_.preset_panel.service(state)) ctx_.preset_lab = true;
  if (auto spec = ctx_.preset_panel.take_sweep_request())
    if (auto err = ctx_.tuning.start_sweep(*spec)) ctx_.preset_panel.sweep_failed(*err);
  ctx_.class_room.poll();  // the votes' snapshot (lock-free), a start or stop asked for
  if (auto live = ctx_.challenge.take_live_request()) run_live(*live);
  // A step's state, its run; the keys' steps to move.
  ctx_.lesson.service(state, ctx_.layout, ctx_.frame, requests_.lesson_move);
  SceneSlot& slot = ctx_.scenes.current();
  if (requests_.camera_reset) slot.camera.reset();
  if (slot.scene->take_camera_refit()) {
    const auto home = slot.scene->camera_home();
    slot.camera.set_home(home.target, home.distance, home.yaw, home.pitch);
  }
}

// The record button: stop the clip, or start one named for the time. The
// panel then shows the recorder's state, copied once a frame.
void App::toggle_recording() {
  RecordControls& rc = ctx_.ui.record;
  ctx_.recorder.poll();
  if (rc.toggle_requested) {
    rc.toggle_requested = false;
    rc.message.clear();
    if (ctx_.recorder.recording()) {
      ctx_.recorder.stop();
    } else {
      rc.ffmpeg_found = record::find_ffmpeg(ctx_.config.paths).has_value();
      const char* ext = record::extension(rc.format ? record::ClipFormat::Gif : record::ClipFormat::Mp4);
      if (auto err = ctx_.recorder.start(timestamped_name(ext), rc.include_ui)) rc.message = *err;
    }
  }
  rc.status = ctx_.recorder.status();
}

// Fixed steps of simulated time: one a frame in scripted runs (deterministic)
// and while recording (one step per frame of the clip), else as many as the
// wall time since the last frame asks for (frame_pacing.h).
void App::simulate() {
  CV_NVTX_RANGE("simulate");
  UiState& ui = ctx_.ui;
  ParticleScene& scene = *ctx_.scenes.current().scene;
  const double now = glfwGetTime();
  const auto plan = pacing::plan_steps(sim_pending_, now - sim_clock_);
  sim_clock_ = now;
  const bool running = ui.stats.error_message.empty() && !ui.settings.paused;
  const bool one_a_frame = fixed_steps_ || ctx_.recorder.recording();
  sim_pending_ = running && !one_a_frame ? plan.pending : 0;
  int steps = one_a_frame ? 1 : plan.steps;
  if (!running) steps = requests_.step_once && ui.stats.error_message.empty() ? 1 : 0;
  ui.stats.sim_behind = running && !one_a_frame && plan.dropped;
  ui.stats.sim_steps = 0;
  scene.set_colour_by(ui.settings.colour_by);
  ctx_.user_kernel.poll();  // a finished compile is loaded into the runner here
  if (auto* host = scene.as<StudentKernelHost>()) host->set_user_kernel(&ctx_.user_kernel);
  try {
    if (requests_.reset) scene.reset();
    for (; ui.stats.sim_steps < steps; ++ui.stats.sim_steps) scene.step();
  } catch (const std::exception& e) {
    ui.stats.error_message = e.what();  // names the call and the error
    ui.settings.paused = true;
    // A CUDA error can come with a driver that stops GL (core/frame_watchdog.h).
    if (ctx_.backend == Backend::Cuda && dynamic_cast<const CudaError*>(&e))
      arm_watchdog("the scene's CUDA error (" + ui.stats.error_message + ")");
    cudaGetLastError();
    std::fprintf(stderr, "cudaviz: %s\n", e.what());
  }
}

// The panels: what every frame shows, then the help overlay. The "UI" part of
// the frame breakdown is this function's CPU time.
void App::build_ui() {
  CV_NVTX_RANGE("ui");
  CpuStopwatch ui_clock;
  SceneSlot& slot = ctx_.scenes.current();
  ctx_.presentation.begin_frame(window_.handle());  // fonts and style at the UI scale
  imgui_.new_frame();
  // The student's kernel: its compile's outcome and its file on disk, panels shown or not.
  ctx_.kernel_panel.update(ctx_.user_kernel, *slot.scene);
  if (!ctx_.presentation.panels_hidden) {
    ui::Layout& layout = ctx_.layout;
    layout.set_present(ctx_.presentation.present_layout);
    layout.set_class_panel(ctx_.class_room.running());
    layout.begin_frame();  // from the framebuffer size and the UI scale
    draw_control_panel(*slot.scene, ctx_.scenes.current_kind(), slot.ui, ctx_.ui, layout,
                       ctx_.system);
    draw_timing_panel(*slot.scene, ctx_.ui, layout);
    ctx_.labs.draw(layout);  // the tool area's tabs: only the open one draws
    ctx_.tuning.draw(*slot.scene, slot.ui, ctx_.ui, layout);
    ctx_.insight.draw(*slot.scene, layout);
    ctx_.kernel_panel.draw(layout, ctx_.user_kernel);
    ctx_.preset_panel.draw(ctx_.presentation, layout);
    ctx_.lesson.draw(layout);
    ctx_.challenge.draw(layout);
    ctx_.class_room.draw(layout);
    layout.draw_strip();
  }
  ctx_.presentation.draw_help();
  imgui_.render_frame();
  ctx_.tuning.record_ui_ms(ui_clock.ms());
  check_gl("frame");
}

// The clip's frame when it records the panels too, the screenshot the user
// asked for (P or the button), vsync as chosen, swap.
void App::present() {
  CV_NVTX_RANGE("present");
  UiState& ui = ctx_.ui;
  ctx_.recorder.capture(record::Recorder::Stage::Ui, size_.fb_w, size_.fb_h);
  if (requests_.screenshot) {
    const std::string path = timestamped_name("png");
    try {
      write_framebuffer_png(path, size_.fb_w, size_.fb_h);
      std::fprintf(stderr, "screenshot: %s\n", path.c_str());
    } catch (const std::exception& e) {
      ui.stats.error_message = e.what();
    }
  }
  if (ui.settings.pacing.vsync != vsync_applied_) {
    glfwSwapInterval(ui.settings.pacing.vsync ? 1 : 0);
    vsync_applied_ = ui.settings.pacing.vsync;
  }
  glfwSwapBuffers(window_.handle());
}

// The fps cap's wait, then the frame's time into the plots and the title.
void App::account_frame() {
  CV_NVTX_RANGE("account");
  const double wait = pacing::cap_wait(last_time_, glfwGetTime(), ctx_.ui.settings.pacing.fps_cap);
  if (wait > 0) std::this_thread::sleep_for(std::chrono::duration<double>(wait));
  ++ctx_.frame;
  const double now = glfwGetTime();
  const float dt = static_cast<float>(now - last_time_);
  last_time_ = now;
  ctx_.ui.stats.frame_ms.push(dt * 1000.f);
  ctx_.ui.stats.fps.push(dt > 0 ? 1.f / dt : 0.f);
  if (now - title_time_ > 0.5) {
    title_time_ = now;
    glfwSetWindowTitle(
        window_.handle(),
        window_title(*ctx_.scenes.current().scene, ctx_.ui.stats.fps.latest()).c_str());
  }
}

// The student's kernel faulted on the GPU (checked mode's report is not a
// fault): looked at when its status changes, not every frame. Only a GPU fault
// can stop the driver, so the CPU backend never arms the watchdog.
void App::watch_after_fault() {
  if (ctx_.backend != Backend::Cuda) return;
  const usercode::UserKernelStatus& st = ctx_.user_kernel.status();
  if (st.version == kernel_version_seen_) return;
  kernel_version_seen_ = st.version;
  if (st.fault && !st.fault->out_of_range)
    arm_watchdog("your kernel's fault (" + st.fault->describe() + ")");
}

void App::arm_watchdog(std::string why) {
  watchdog_.arm({std::move(why), ctx_.kernel_panel.source().text(), ctx_.kernel_panel.source().path()});
}

void App::stop_workers() {
  ctx_.labs.shutdown();
  ctx_.tuning.shutdown();
  ctx_.insight.shutdown();
  ctx_.lesson.shutdown();
}

void App::reopen(const GlContextLost& lost) {
  stop_workers();
  LaunchPlan::Reopened r;
  r.count = reopened_ ? reopened_->count + 1 : 1;
  r.kernel_text = ctx_.kernel_panel.source().text();
  r.kernel_path = ctx_.kernel_panel.source().path();
  const auto& st = ctx_.user_kernel.status();
  const bool yours = st.state != usercode::UserKernelState::Off && !st.source.empty();
  r.why = std::string(lost.what()) +
          (yours ? "; your kernel ran in its own process when it happened" : "");
  auto state = ctx_.app_state();
  presets::Preset p = presets::capture(state);
  p.kernel.reset();  // in the editor, not running: it may be what reset the GPU
  const std::string why = r.why;
  throw ReopenWindow(why, std::move(p), std::move(r));
}

// Mirrors setup: the workers stop first (closing the window while a lab runs
// cancels it and waits), then the observers report; members go in reverse order.
int App::teardown() {
  stop_workers();
  ctx_.recorder.finish();  // ffmpeg writes the rest of the clip
  nlohmann::ordered_json summary;
  for (auto& o : observers_) o->finish(ctx_, summary);
  for (auto& o : observers_)
    if (int code = o->exit_code(ctx_, std::cerr)) return code;
  return 0;
}

}  // namespace cv

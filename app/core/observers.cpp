#include "core/observers.h"

#include "core/class_observer.h"

#include <glad/gl.h>
#include <GLFW/glfw3.h>

#include <cstdio>
#include <iostream>

#include "core/context.h"
#include "core/lesson_observer.h"
#include "gl/gl_check.h"
#include "gl/png_writer.h"
#include "process/exit_words.h"
#include "process/stop_signal.h"
#include "scenes/particle_scene.h"

namespace cv {

namespace {
// A loaded kernel's first launch is still to come only where something runs
// it: the scene its template feeds (else the scene's note says why);
// lab kernels have no window hook yet. Waiting for it anywhere else never ends.
bool first_launch_pending(Context& ctx) {
  const usercode::UserKernelStatus& st = ctx.user_kernel.status();
  if (st.state != usercode::UserKernelState::Ready || st.edit_to_run_ms > 0) return false;
  const ParticleScene& scene = *ctx.scenes.current().scene;
  const bool feeds_this_scene = st.spec && st.spec->feeds == usercode::Feeds::Scene &&
                                st.spec->feeds_name == scene.name();
  return feeds_this_scene && scene.runs_user_kernels() && user_note(scene).empty();
}
}  // namespace

void ScriptedRun::before_frame(FrameView& f) {
  const bool lab = (opt_.lab || f.ctx.preset_lab) && f.ctx.labs.running();
  // --kernel: the last frame waits for the compile and its first launch (or its failure).
  const bool kernel =
      opt_.kernel && (f.ctx.user_kernel.status().state == usercode::UserKernelState::Compiling ||
                      first_launch_pending(f.ctx) || !f.ctx.user_kernel.status().judging.empty());
  idle_frames_ = lab || kernel || (opt_.sweep && f.ctx.tuning.sweep_running()) || f.ctx.insight.busy() ||
                         f.ctx.lesson.script_busy()
                     ? 0
                     : idle_frames_ + 1;
}

void ScriptedRun::before_present(FrameView& f) {
  // Results that arrived last frame are laid out again this frame (panels
  // sized from their content): the picture and the layout check see them settled.
  last_frame_ = f.ctx.frame + 1 >= opt_.frames && idle_frames_ >= 2;
  if (!last_frame_ || !opt_.screenshot) return;
  write_framebuffer_png(*opt_.screenshot, f.size.fb_w, f.size.fb_h);  // a failure ends the run (1)
  std::fprintf(stderr, "screenshot: %s\n", opt_.screenshot->c_str());
}

namespace {
// What the frames cost (medians over the last frames): the GPU-side numbers
// are CUDA events and GL timer queries, independent of how fast the display presents.
void frame_costs(const Context& ctx, const ParticleScene& scene, nlohmann::ordered_json& j) {
  const UiState& ui = ctx.ui;
  j["kernel_ms"] = scene.kernel_ms.median();
  // Whose kernel_ms (and throughput) it is: the student's, timed in the
  // runner, with the request -> reply apart.
  j["kernel_source"] = scene.kernel_is_yours() ? "yours" : "built-in";
  if (scene.kernel_is_yours()) {
    j["round_trip_ms"] = scene.round_trip_ms.median();
    j["builtin_kernel_ms"] = scene.builtin_kernel_ms();
  }
  j["map_step_unmap_ms"] = scene.step_ms.median();
  if (ctx.backend == Backend::Cuda) {
    // What the interop costs beyond the kernel: map (with any wait for GL) + unmap.
    j["interop_ms"] = scene.interop_ms.median();
    j["map_ms"] = scene.map_ms.median();
    j["unmap_ms"] = scene.unmap_ms.median();
    j["sync_wait_ms"] = scene.sync_wait_ms.median();  // external path: CPU waits
    j["transfer_reason"] = scene.transfer_reason();
    j["vertex_buffers"] = scene.double_buffered() ? 2 : 1;
    if (scene.id_buffers()) j["id_buffers"] = scene.id_buffers();  // colour by launch
  }
  j["draw_ms"] = ui.stats.draw_ms.median();
  j["renderer"] = ui.stats.splat_active ? "splat" : "sprites";
  j["colour_by"] = insight::to_string(ui.settings.colour_by);
  if (ui.stats.splat_active) {
    j["splat_ms"] = ui.stats.splat_ms.median();
    j["splat_map_ms"] = ui.stats.splat_map_ms.median();
    j["splat_transfer"] = ui.stats.splat_transfer;
    j["splat_sync_wait_ms"] = ui.stats.splat_sync_wait_ms.median();
    j["splat_kernel_ms"] = ui.stats.splat_kernel_ms.median();
    j["splat_upload_ms"] = ui.stats.splat_upload_ms.median();  // PBO -> texture, GL waits for CUDA
  }
  // GPU time of a frame's scene work: map+step+unmap, splat, draw (not the UI).
  if (ctx.backend == Backend::Cuda)
    j["gpu_frame_ms"] = scene.step_ms.median() + ui.stats.draw_ms.median() +
                        (ui.stats.splat_active ? ui.stats.splat_ms.median() : 0.f);
  j["frame_ms"] = ui.stats.frame_ms.median();
}

// --kernel: the same fields as `cudaviz bench kernel`, from the window's run.
void user_kernel_fields(const RunOptions& opt, Context& ctx, nlohmann::ordered_json& j) {
  if (!opt.kernel) return;
  const usercode::UserKernelStatus& st = ctx.user_kernel.status();
  j["kernel"] = *opt.kernel;
  j["kernel_state"] = usercode::to_string(st.state);
  if (st.compile) {
    j["template"] = st.compile->template_name;
    j["arch"] = st.compile->arch;
    j["compile_ms"] = st.compile->compile_ms;
  }
  if (st.resources.known) {
    j["registers"] = st.resources.registers;
    j["shared_bytes"] = st.resources.shared_bytes;
    j["local_bytes"] = st.resources.local_bytes;
    j["max_threads"] = st.resources.max_threads;
  }
  if (st.edit_to_run_ms > 0) j["edit_to_run_ms"] = st.edit_to_run_ms;
  // The first edit-to-running of this window, and the runner's start that the
  // prestart took off it (usercode/client/runner_prestart.h).
  if (st.first_edit_to_run_ms > 0) {
    j["first_edit_to_run_ms"] = st.first_edit_to_run_ms;
    const usercode::UserKernelStatus::EditPhases& p = st.first_edit_phases;
    j["first_edit_phases_ms"] = {
        {"compile", p.compile_ms}, {"wait", p.wait_ms}, {"load", p.load_ms},   {"launch", p.launch_ms},
        {"load_jit", p.jit_ms},    {"load_cap", p.cap_ms},   {"load_jit_thread_cpu", p.jit_thread_cpu_ms},
        {"load_jit_process_cpu", p.jit_process_cpu_ms}};
  }
  if (auto ms = ctx.user_kernel.prestart_ms()) j["runner_prestart_ms"] = *ms;
  if (const std::string e = ctx.user_kernel.prestart_error(); !e.empty()) j["runner_prestart_error"] = e;
  if (const History* h = ctx.scenes.current().scene->user_kernel_times(); h && h->size())
    j["user_kernel_ms"] = h->median();
  if (st.compile && !st.compile->ok) {
    j["error"] = st.compile->first_error().empty() ? st.compile->error : st.compile->first_error();
    j["error_line"] = st.compile->first_error_line();
  } else if (st.fault) {
    j["error"] = st.fault->describe();
    j["error_line"] = st.fault->error_line();
  }
  if (!st.fallback.empty()) j["kernel_fallback"] = st.fallback;
  if (st.verdict && st.verdict->judged) {  // the test set's verdict (usercode/client/verdict.h)
    j["correct"] = st.verdict->correct;
    j["verdict"] = st.verdict->summary();
    st.verdict->add_fields(j);
  }
  // Why yours runs slower than it could (its results through the runner's reply).
  if (const std::string note = user_note(*ctx.scenes.current().scene); !note.empty()) j["user_note"] = note;
}

// How the --lab run and the --sweep asked for ended.
void worker_outcomes(const RunOptions& opt, const Context& ctx, nlohmann::ordered_json& j) {
  if (opt.lab || ctx.preset_lab) {  // --lab, or a preset that runs one
    j["lab"] = opt.lab ? *opt.lab : ctx.labs.settings().lab;
    j["lab_state"] = cv::labs::to_string(ctx.labs.worker().state());
    j["lab_rows"] = ctx.labs.worker().results().size();
    if (!ctx.labs.worker().error().empty()) j["lab_error"] = ctx.labs.worker().error();
    // The lab's actions that could not run, and why (the disabled buttons' sentences).
    nlohmann::ordered_json refused = nlohmann::ordered_json::object();
    for (const auto& [action, why] : ctx.labs.refused_actions()) refused[action] = why;
    if (!refused.empty()) j["lab_refused"] = refused;
    // Rows another target added (an action's: "run your kernel"'s row), with their
    // answer, time, vs and error, so a script sees them.
    const std::string lab = j["lab"].get<std::string>();
    for (const auto& r : ctx.labs.worker().results()) {
      if (r.value("bench", lab) == lab) continue;
      nlohmann::ordered_json row;
      for (const char* k : {"variant", "result", "reference", "correct", "failed_case", "verdict", "seed",
                            "ms_median", "ms_min", "ms_max", "vs", "compare", "error"})
        if (r.contains(k)) row[k] = r[k];
      j["lab_other_rows"].push_back(row);
    }
  }
  if (opt.sweep) {
    j["sweep"] = *opt.sweep;
    j["sweep_state"] = cv::tuning::to_string(ctx.tuning.sweep().state());
    j["sweep_rows"] = ctx.tuning.sweep().rows().size();
    if (!ctx.tuning.sweep().error().empty()) j["sweep_error"] = ctx.tuning.sweep().error();
  }
}
}  // namespace

void ScriptedRun::finish(Context& ctx, nlohmann::ordered_json& summary) {
  const ParticleScene& scene = *ctx.scenes.current().scene;
  nlohmann::ordered_json j;
  j["frames"] = ctx.frame;
  j["scene"] = scene.name();
  j["backend"] = to_string(ctx.backend);
  j["transfer"] = to_string(scene.transfer_mode());
  j["particles"] = scene.count();
  j["block"] = {scene.block().x, scene.block().y, scene.block().z};
  frame_costs(ctx, scene, j);
  scene.describe(j);
  const nlohmann::ordered_json t = scene.throughput();
  for (auto it = t.begin(); it != t.end(); ++it) j[it.key()] = it.value();
  worker_outcomes(opt_, ctx, j);
  user_kernel_fields(opt_, ctx, j);
  // Classroom: what presentation the picture shows and what the preset left out.
  j["ui_scale"] = ctx.presentation.effective_scale();
  j["high_contrast"] = ctx.presentation.high_contrast;
  if (opt_.preset) {
    j["preset"] = *opt_.preset;
    j["preset_skipped"] = ctx.preset_report.skipped().size();
  }
  // Panels that overlap, reach past the display or are narrower than their content.
  j["layout_problems"] = ui::layout_problems();
  if (!ctx.reopened_because.empty()) j["window_reopened"] = ctx.reopened_because;
  j["vsync"] = ctx.ui.settings.pacing.vsync;
  j["fps_cap"] = ctx.ui.settings.pacing.fps_cap;
  j["gl_renderer"] = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  j["gl_debug"] = ctx.gl_debug;  // KHR_debug output was on: gl_errors counts its errors too
  j["gl_errors"] = gl_error_count();
  if (const int sig = stop_signal()) j["stopped_by"] = signal_name(sig);  // before --frames were drawn
  for (auto it = summary.begin(); it != summary.end(); ++it) j[it.key()] = it.value();
  summary = j;
  std::printf("%s\n", summary.dump().c_str());
}

int ScriptedRun::exit_code(const Context& ctx, std::ostream& err) const {
  if (ctx.ui.stats.error_message.empty()) return 0;
  err << "cudaviz: the run ended with an error: " << ctx.ui.stats.error_message << "\n";
  return 1;
}

void SoakObserver::before_frame(FrameView& f) {
  soak_.before_frame(f.ctx.frame, f.ctx.scenes, f.ctx.ui);
}

void SoakObserver::finish(Context& ctx, nlohmann::ordered_json& summary) {
  soak_.finish(ctx.frame, ctx.scenes, ctx.ui);
  summary["soak"] = soak_.summary();
}

int SoakObserver::exit_code(const Context& ctx, std::ostream& err) const {
  (void)ctx;
  if (soak_.passed()) return 0;
  err << "cudaviz: soak failed: memory grew by " << SoakRun::kMaxGrowthPercent
      << "% or more after warm-up, or errors occurred (see \"soak\" above)\n";
  return 1;
}

void RecordObserver::finish(Context& ctx, nlohmann::ordered_json& summary) {
  const record::RecordStatus& s = ctx.recorder.status();
  nlohmann::ordered_json r;
  r["path"] = s.path;
  r["state"] = record::to_string(s.state);
  r["frames"] = s.written;
  r["width"] = s.size.width;
  r["height"] = s.size.height;
  r["cropped"] = s.size.cropped;  // odd framebuffer: top row / right column dropped
  r["fps"] = record::clip_fps(s.format);
  r["encoder"] = record::encoder(s.format);
  r["include_ui"] = s.include_ui;
  r["dropped"] = s.captured - s.written;  // read from the window but never encoded
  r["encoder_waits"] = s.encoder_waits;   // frames that waited for the encoder's queue
  if (!s.note.empty()) r["note"] = s.note;
  if (!s.error.empty()) r["error"] = s.error;
  summary["record"] = r;
}

int RecordObserver::exit_code(const Context& ctx, std::ostream& err) const {
  const record::RecordStatus& s = ctx.recorder.status();
  if (s.state != record::RecordState::Failed) return 0;
  err << "cudaviz: the run fails because its clip '" << s.path << "' failed (the reason is above)\n";
  return 1;
}

void StormObserver::finish(Context& ctx, nlohmann::ordered_json& summary) {
  (void)ctx;
  summary["resize_storm"] = storm_.summary();
}

void CloseAtFrame::before_frame(FrameView& f) {
  if (f.ctx.frame != frame_) return;
  glfwSetWindowShouldClose(f.window, GLFW_TRUE);
  closed_at_ = std::chrono::steady_clock::now();
}

void CloseAtFrame::finish(Context& ctx, nlohmann::ordered_json& summary) {
  (void)ctx;
  if (!closed_at_) return;
  summary["close_ms"] =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - *closed_at_).count();
}

std::vector<std::unique_ptr<FrameObserver>> make_observers(const RunOptions& opt, Backend backend,
                                                          const Config& config) {
  std::vector<std::unique_ptr<FrameObserver>> list;
  if (config.resize_storm) list.push_back(std::make_unique<StormObserver>());
  if (!config.close_at_frame_error.empty())
    std::fprintf(stderr, "cudaviz: %s; ignored\n", config.close_at_frame_error.c_str());
  if (config.close_at_frame) list.push_back(std::make_unique<CloseAtFrame>(*config.close_at_frame));
  if (opt.soak) list.push_back(std::make_unique<SoakObserver>(opt.soak, backend));
  if (opt.record) list.push_back(std::make_unique<RecordObserver>());
  if (opt.frames > 0 && opt.lesson) list.push_back(std::make_unique<LessonObserver>(opt));
  if (opt.frames > 0) list.push_back(std::make_unique<ClassObserver>());
  if (opt.frames > 0) list.push_back(std::make_unique<ScriptedRun>(opt));
  return list;
}

}  // namespace cv

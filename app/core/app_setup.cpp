// Setup, in the order it runs: checks before the window (run_app), then the
// window, ImGui, the scenes, the panels, presets and presentation, pacing, and
// the observers of scripted runs. Teardown (core/app.cpp) mirrors it.
#include <glad/gl.h>  // before GLFW, which would pull in the system gl.h
#include <GLFW/glfw3.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/app.h"
#include "usercode/templates/template_registry.h"
#include "core/observers.h"
#include "gl/gl_check.h"
#include "process/stop_signal.h"
#include "record/clip_format.h"
#include "scenes/scene_factory.h"
#include "system/startup.h"

namespace cv {
namespace {

// --lesson: every problem of the file is listed; a scripted run refuses a
// lesson with any (exit 2), the window shows them in the lesson tab.
void plan_lesson(const RunOptions& opt, const Config& config, LaunchPlan& plan) {
  if (!opt.lesson) return;
  try {
    plan.lesson = lessons::load_lesson_file(*opt.lesson, config.paths);
  } catch (const lessons::LessonError& e) {
    for (const auto& p : e.problems()) std::cerr << "cudaviz: " << p << "\n";
    if (opt.frames > 0)
      throw LaunchError("--lesson: '" + *opt.lesson + "' cannot be used (" +
                        std::to_string(e.problems().size()) + " problem(s) above)");
    plan.lesson_problems = e.problems();
    return;
  }
  const int steps = static_cast<int>(plan.lesson->steps.size());
  if (opt.lesson_step && *opt.lesson_step > steps)
    throw LaunchError("--step: " + std::to_string(*opt.lesson_step) + " is past the " +
                      std::to_string(steps) + " steps of '" + *opt.lesson + "'");
}

// Before a window opens: the preset file and the first scene. A file that
// cannot be used is a usage error; values of the wrong type or range are
// skipped and listed, and a scripted run (--frames) refuses them.
LaunchPlan plan_launch(const RunOptions& opt, Backend backend, const Config& config) {
  LaunchPlan plan;
  plan.backend = backend;
  if (opt.preset) {
    try {
      plan.preset = presets::load_preset_file(*opt.preset, plan.preset_report);
    } catch (const presets::PresetError& e) {
      throw LaunchError(std::string("--preset: ") + e.what());
    }
    for (const auto& line : presets::report_lines(*opt.preset, plan.preset_report))
      std::cerr << "cudaviz: " << line << "\n";
    if (opt.frames > 0 && !plan.preset_report.invalid.empty())
      throw LaunchError("--preset: '" + *opt.preset + "' has " +
                        std::to_string(plan.preset_report.invalid.size()) +
                        " value(s) it cannot use (above); a scripted run needs all of them");
    presets::merge_command_line(*plan.preset, opt);  // flags given with --preset win
  }
  const std::optional<SceneKind> kind =
      plan.preset && plan.preset->scene ? plan.preset->scene : parse_scene(opt.scene);
  if (!kind) throw LaunchError("--scene: '" + opt.scene + "' is not a scene");
  if (opt.challenge && !usercode::find_template(*opt.challenge))
    throw LaunchError("--challenge: unknown template '" + *opt.challenge + "' (one of " +
                      usercode::template_names() + ")");
  plan.first_scene = *kind;
  if (opt.kernel) {
    std::ifstream in(*opt.kernel, std::ios::binary);
    if (!in) throw LaunchError("--kernel: cannot read '" + *opt.kernel + "'");
    std::ostringstream text;
    text << in.rdbuf();
    plan.kernel_source = text.str();
  }
  try {
    check_scene_request(*kind, backend, SceneRequest{opt.n, opt.variant});
  } catch (const UsageError& e) {
    throw LaunchError(e.what());
  }
  plan_lesson(opt, config, plan);
  return plan;
}


// What the kernel tab would hold before a student's first edit of a --kernel
// file: its template's shipped kernel (the prestart compiles it to warm the
// compiler; not the file itself, so the first edit is a real first compile of
// the student's text). "" when the file names no template or it is unreadable.
std::string shipped_kernel_of(const std::string& source, const PathConfig& paths) {
  const std::optional<std::string> name = usercode::template_from_source(source);
  const usercode::TemplateSpec* t = name ? usercode::find_template(*name) : nullptr;
  if (!t) return {};
  try {
    return usercode::read_template_source(*t, paths);
  } catch (const std::runtime_error&) {
    return {};
  }
}

}  // namespace

int run_app(const RunOptions& opt, const Config& config) {
  try {
    // Backend first: a bad --backend request is reported before any window opens.
    const LaunchPlan plan = plan_launch(opt, resolve_backend(opt.backend), config);
    // A refused CUDAVIZ_INTEROP: every scene's buffers would be refused (exit 2,
    // as when the first scene's constructor read it), before a window flashes up.
    if (!config.interop_error.empty()) throw LaunchError(config.interop_error);
    if (opt.record && !record::find_ffmpeg(config.paths))  // before a window flashes up
      throw LaunchError(std::string("--record: ") + record::kNeedsFfmpeg);
    install_stop_signals();  // Ctrl+C or SIGTERM closes the window as its button does
    LaunchPlan current = plan;
    for (;;) {
      try {
        App app(opt, current, config);
        return app.run();
      } catch (const ReopenWindow& r) {
        // The lost context's GL objects went with the App; the app's own CUDA
        // context is another matter: if the reset reached it too, only a new
        // process recovers (RESEARCH.md), so say so and end.
        std::cerr << "cudaviz: " << r.what() << "\n";
        const cudaError_t health = cudaDeviceSynchronize();
        if (health != cudaSuccess && health != cudaErrorInsufficientDriver &&
            health != cudaErrorNoDevice)
          throw std::runtime_error(std::string("cannot reopen the window: CUDA is unusable in "
                                               "this process after the reset (") +
                                   cudaGetErrorName(health) + "); start cudaviz again");
        if (r.reopened.count > 3)
          throw std::runtime_error("the window's GL context was lost " +
                                   std::to_string(r.reopened.count) + " times; giving up");
        std::cerr << "cudaviz: reopening the window (" << r.reopened.count << ")\n";
        current.preset = r.state;
        current.preset_report = {};
        current.kernel_source.clear();
        current.lesson_problems.clear();
        current.reopened = r.reopened;
      }
    }
  } catch (const LaunchError& e) {
    std::cerr << "cudaviz: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "cudaviz: " << e.what() << "\n";
    return 1;
  }
}

Context::Context(Backend b, const Config& cfg)
    : config(cfg),
      backend(b),
      user_kernel([b, &cfg] {
        usercode::UserKernelOptions o;
        o.backend = b;
        o.paths = cfg.paths;
        // Bounds-checked in the window: an index past a buffer is caught and
        // named before it can fault the GPU (a fault can cost the window its GL
        // context: docs/kernels.md); `bench kernel` runs unchecked unless asked.
        o.checked = true;
        return o;
      }()),
      scenes(
          [b, transfer = cfg.transfer()](SceneKind k) { return make_scene(k, b, {}, transfer); }),
      labs(b),
      tuning(b),
      insight(b),
      kernel_panel(cfg.paths),
      system(cfg),
      preset_panel(cfg.paths),
      class_room(classvote::web_dir(cfg.paths.assets), cfg.paths.codemirror_dir),
      challenge(b, cfg.paths),
      lesson(b, cfg),
      recorder(cfg.paths) {
  // "run your kernel" runs the tab's text, in the app's one runner process.
  labs.set_kernel_source(&kernel_panel.source(), cfg.paths, &user_kernel);
  lesson.attach_class(&class_room);
  challenge.attach(class_room);  // before any start: the challenge's API joins the server
  insight.set_kernel_panel(&kernel_panel);  // the explain view draws the kernel tab's explain
}

App::App(const RunOptions& opt, const LaunchPlan& plan, const Config& config)
    : opt_(opt),
      window_(opt.width, opt.height, "cudaviz", config.gl_debug_on()),
      imgui_(window_.handle(), opt.frames == 0, config.paths.config_home),
      // --device, else GL's GPU
      ctx_(sys::follow_gl_device(opt.backend, plan.backend, std::cerr), config),
      view_(config.interop),
      input_(window_.handle()),
      watchdog_(std::chrono::seconds(15), [dir = user_config_dir(config.paths.config_home)](
                                              const FrameWatchdog::Rescue& r, double waited_s) {
        report_stall_and_exit(r, waited_s, dir);
      }) {
  ctx_.gl_debug = config.gl_debug_on() && enable_gl_debug_output();
  std::fprintf(stderr, "GL_RENDERER: %s | GL_VERSION: %s | %s\n", glGetString(GL_RENDERER),
               glGetString(GL_VERSION), window_.robustness_note().c_str());
  // --kernel: the runner starts beside the scene's setup; the file is submitted
  // once it is up, as a student's first Ctrl+Enter in the open tab would be.
  const bool kernel = opt_.kernel && !plan.reopened;
  ctx_.user_kernel.set_guard(opt_.guard);  // --guard on|off (docs/guard.md); the warm-up compiles as the edits will
  if (kernel) ctx_.user_kernel.prestart(shipped_kernel_of(plan.kernel_source, config.paths));
  setup_scene(plan);
  // --kernel: compiled off the UI thread; the fountain runs it once it is loaded.
  if (kernel) {
    ctx_.user_kernel.wait_prestarted();
    ctx_.user_kernel.submit(plan.kernel_source, "", *opt_.kernel);
  }
  reopened_ = plan.reopened;
  labs_open_ = plan.preset && plan.preset->lab &&
               plan.preset->lab->open.value_or(plan.preset->lab->run && *plan.preset->lab->run != "none");
  setup_panels();
  setup_presets(plan);
  setup_reopened();
  setup_lesson(plan);
  setup_pacing();
  setup_record();
  observers_ = make_observers(opt_, ctx_.backend, ctx_.config);
}

void App::setup_scene(const LaunchPlan& plan) {
  try {
    ctx_.scenes.adopt(plan.first_scene, make_scene(plan.first_scene, ctx_.backend,
                                                   {opt_.n, opt_.variant}, ctx_.config.transfer()));
  } catch (const UsageError& e) {
    throw LaunchError(e.what());
  } catch (const std::invalid_argument& e) {  // the count asked for cannot be allocated
    cudaGetLastError();
    throw LaunchError("--scene " + opt_.scene + ": " + e.what());
  }
  SceneSlot& slot = ctx_.scenes.current();
  if (opt_.block) {
    if (auto err = slot.scene->set_block(*opt_.block)) throw LaunchError("--block: " + *err);
    slot.ui.sync_from(*slot.scene);
  }
  ctx_.ui.settings.renderer = parse_renderer(opt_.renderer).value_or(UiState::Renderer::Auto);
  if (opt_.colour_by) ctx_.ui.settings.colour_by = *insight::parse_colour_by(*opt_.colour_by);
  std::fprintf(stderr, "backend: %s | %s\n", to_string(ctx_.backend),
               slot.scene->transfer_note().c_str());
}

// --lab, --panel and --sweep: what the labs and tuning areas open with.
void App::setup_panels() {
  if (opt_.lab)
    if (auto err = ctx_.labs.open_and_run(*opt_.lab)) throw LaunchError("--lab: " + *err);
  for (const std::string& p : opt_.panels)
    if (ui::parse_tool(p) == ui::Tool::Kernel)
      ctx_.kernel_panel.open();
    else if (ui::parse_tool(p) == ui::Tool::Explain)
      ctx_.kernel_panel.explain_when_loaded(), ctx_.insight.open_panel(p);
    else if (auto err = ctx_.insight.open_panel(p) ? ctx_.tuning.open_panel(p) : std::nullopt)
      throw LaunchError("--panel: " + *err);
  // --kernel: the editor shows the file it compiles (a file the editor refuses,
  // binary or too large, still compiles and fails there with the reason).
  // With --lab or a preset that opens the labs window, that window shows (its
  // "run your kernel" runs the file); the kernel tab holds the file unopened.
  if (opt_.kernel && !reopened_) ctx_.kernel_panel.show_file(*opt_.kernel, !opt_.lab && !labs_open_);
  if (opt_.sweep)
    if (auto err = ctx_.tuning.start_sweep(*opt_.sweep)) throw LaunchError("--sweep: " + *err);
  // --class-server: a port in use is a message, and the app runs on without it.
  if (opt_.class_server) {
    const std::string address = opt_.class_address.empty()
                                    ? classvote::default_address(classvote::list_interfaces())
                                    : opt_.class_address;
    const int port = opt_.class_port >= 0 ? opt_.class_port : classvote::kDefaultPort;
    if (auto err = ctx_.class_room.start(address, port)) std::fprintf(stderr, "cudaviz: %s\n", err->c_str());
  }
  // --challenge TEMPLATE (checked by the command line): open, the tab shown.
  if (opt_.challenge) {
    challenge::ChallengeSettings s;
    s.template_name = *opt_.challenge;
    if (auto err = ctx_.challenge.open(s)) throw LaunchError(*err);
    ctx_.challenge.open_tab();
  }
}

// Classroom: the --preset (already merged with the command line), or the
// presentation flags on their own.
void App::setup_presets(const LaunchPlan& plan) {
  ctx_.preset_report = plan.preset_report;
  if (opt_.present) ctx_.presentation.present_layout = true;
  if (!plan.preset) {
    if (opt_.ui_scale) ctx_.presentation.set_ui_scale(*opt_.ui_scale);
    if (opt_.present) {
      ctx_.presentation.present_layout = true;
      ctx_.presentation.high_contrast = true;
      if (!opt_.ui_scale) ctx_.presentation.set_ui_scale(2.f);
    }
    return;
  }
  presets::Report applied;
  auto state = ctx_.app_state();
  ctx_.preset_lab = presets::apply(*plan.preset, state, applied).lab_started;
  // A reopened window's state was captured, not read from a file.
  const std::string source = plan.reopened ? "the state before the window was reopened" : *opt_.preset;
  for (const auto& line : presets::report_lines(source, applied))
    std::cerr << "cudaviz: " << line << "\n";
  if (opt_.frames > 0 && !applied.invalid.empty())
    throw LaunchError("--preset: '" + source + "' asks for what this machine " +
                      "cannot run (above)");
  ctx_.preset_report.invalid.insert(ctx_.preset_report.invalid.end(), applied.invalid.begin(),
                                    applied.invalid.end());
  ctx_.preset_panel.loaded(source, *plan.preset, ctx_.preset_report);
}

// A window that replaces one whose GL context was lost: says so, in the side
// panel and the kernel tab, with the student's text back in the editor.
void App::setup_reopened() {
  if (!reopened_) return;
  ctx_.reopened_because = reopened_->why;
  ctx_.ui.stats.scene_message = "The window was reopened: " + reopened_->why + ".";
  if (!reopened_->kernel_text.empty())
    ctx_.kernel_panel.restore(reopened_->kernel_text, reopened_->kernel_path,
                              ctx_.ui.stats.scene_message +
                                  " Your kernel is back here, not running: "
                                  "fix it, then Ctrl+Enter.");
}

// --lesson: the tab opens at --step (or the problems the file has); a
// scripted run plays every step from there.
void App::setup_lesson(const LaunchPlan& plan) {
  if (!opt_.lesson) return;
  if (!plan.lesson) {
    ctx_.lesson.show_problems(*opt_.lesson, plan.lesson_problems);
    return;
  }
  const int first = opt_.lesson_step.value_or(1) - 1;
  const int steps = static_cast<int>(plan.lesson->steps.size());
  ctx_.lesson.load(*plan.lesson, first);
  if (opt_.frames > 0)
    ctx_.lesson.start_script(first, opt_.lesson_step ? first + 1 : steps,
                             static_cast<int>(std::min<long long>(opt_.frames, 1000)));
}

// Scripted runs step once a frame and go as fast as they can (no vsync unless
// asked for); --vsync and --fps-cap win over a preset's.
void App::setup_pacing() {
  fixed_steps_ = opt_.frames > 0;
  pacing::Settings& p = ctx_.ui.settings.pacing;
  if (opt_.frames > 0) p.vsync = false;
  if (opt_.vsync) p.vsync = *opt_.vsync;
  if (opt_.fps_cap) p.fps_cap = *opt_.fps_cap;
  ctx_.ui.fps_cap_input = p.fps_cap;
  vsync_applied_ = p.vsync;
  glfwSwapInterval(p.vsync ? 1 : 0);
  last_time_ = title_time_ = sim_clock_ = glfwGetTime();
}

// --record FILE: the clip starts with the first frame. The record button
// learns whether ffmpeg is there before anyone presses it.
void App::setup_record() {
  ctx_.ui.record.ffmpeg_found = record::find_ffmpeg(ctx_.config.paths).has_value();
  ctx_.ui.record.include_ui = opt_.record_ui;
  if (!opt_.record) return;
  if (auto err = ctx_.recorder.start(*opt_.record, opt_.record_ui)) throw LaunchError("--record: " + *err);
  ctx_.ui.record.format = record::clip_format_from_path(*opt_.record) == record::ClipFormat::Gif;
}

}  // namespace cv

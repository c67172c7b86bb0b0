#include "app.h"

#include <glad/gl.h>  // before GLFW, which would pull in the system gl.h
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "common/cuda_check.h"
#include "common/device_info.h"
#include "gl/gl_check.h"
#include "gl/png_writer.h"
#include "render/camera.h"
#include "render/particle_renderer.h"
#include "render/splat_renderer.h"
#include "labs/lab_panel.h"
#include "render/line_renderer.h"
#include "render/table_renderer.h"
#include "scenes/scene_factory.h"
#include "scenes/scene_set.h"
#include "scenes/swarm_scene.h"
#include "soak/soak.h"
#include "soak/window_faults.h"
#include "presets/preset.h"
#include "presets/preset_apply.h"
#include "presets/preset_panel.h"
#include "ui/hotkeys.h"
#include "ui/panels.h"
#include "ui/presentation.h"
#include "ui/tuning_panel.h"

namespace cv {
namespace {

// Owns glfwInit/glfwTerminate and the window.
struct GlfwWindow {
  GLFWwindow* handle = nullptr;
  GlfwWindow(int w, int h, const char* title) {
    glfwSetErrorCallback(
        [](int code, const char* msg) { std::fprintf(stderr, "GLFW error %d: %s\n", code, msg); });
    if (!glfwInit())
      throw std::runtime_error("glfwInit failed: no display? (set DISPLAY or run under xvfb-run)");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 1);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    if (gl_debug_requested()) glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);  // HiDPI: the window grows with the monitor
    handle = glfwCreateWindow(w, h, title, nullptr, nullptr);
    if (!handle) {
      glfwTerminate();
      throw std::runtime_error("glfwCreateWindow failed: OpenGL 4.1 core is not available");
    }
    glfwMakeContextCurrent(handle);
  }
  ~GlfwWindow() {
    glfwDestroyWindow(handle);
    glfwTerminate();
  }
  GlfwWindow(const GlfwWindow&) = delete;
  GlfwWindow& operator=(const GlfwWindow&) = delete;
};

// Owns the ImGui context and its GLFW/OpenGL3 backends.
struct ImGuiSession {
  std::string ini_path;
  ImGuiSession(GLFWwindow* w, bool persist_layout) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    if (persist_layout) {
      // Layout lives in the user's config directory, not wherever the app was started.
      const char* xdg = std::getenv("XDG_CONFIG_HOME");
      const char* home = std::getenv("HOME");
      std::filesystem::path dir = xdg && *xdg ? std::filesystem::path(xdg)
                                  : home      ? std::filesystem::path(home) / ".config"
                                              : "";
      std::error_code ec;
      if (!dir.empty() && std::filesystem::create_directories(dir / "cudaviz", ec) | !ec) {
        ini_path = (dir / "cudaviz" / "imgui.ini").string();
        io.IniFilename = ini_path.c_str();
      }
    }
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(w, true);
    ImGui_ImplOpenGL3_Init("#version 410");
  }
  ~ImGuiSession() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
};

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
          : "CPU backend";
  std::snprintf(buf, sizeof buf, "cudaviz - %s - %s - %u elements - %.0f fps", scene.name(),
                backend.c_str(), scene.count(), fps);
  return buf;
}

// Whether this frame draws with the CUDA splatter; says why not when the user
// asked for it and it cannot be used.
bool wants_splat(UiState& ui, ParticleScene& scene, const ParticleStyle& style) {
  if (ui.renderer == UiState::Renderer::Sprites) return false;
  const bool asked = ui.renderer == UiState::Renderer::Splat;
  ui.renderer_message.clear();
  if (scene.backend() != Backend::Cuda || !scene.vertex_buffer()) {
    if (asked) ui.renderer_message = "the splatter needs the CUDA backend: drawing point sprites";
    return false;
  }
  if (style.colours_follow_positions) {
    if (asked)
      ui.renderer_message =
          "this scene stores colours beside positions, which the splatter does not read: "
          "drawing point sprites";
    return false;
  }
  return asked || scene.count() >= kSplatAutoCount;
}

}  // namespace

int run_app(const RunOptions& opt) {
  // Backend first: a bad --backend request is reported before any window opens.
  Backend backend;
  try {
    backend = resolve_backend(opt.backend);
  } catch (const std::exception& e) {
    std::cerr << "cudaviz: " << e.what() << "\n";
    return 1;
  }
  // --preset: read and check the file before a window opens. A file that
  // cannot be used is a usage error (2); values of the wrong type or range are
  // skipped and listed, and a scripted run (--frames) refuses them.
  std::optional<presets::Preset> preset;
  presets::Report preset_report;
  if (opt.preset) {
    try {
      preset = presets::load_preset_file(*opt.preset, preset_report);
    } catch (const presets::PresetError& e) {
      std::cerr << "cudaviz: --preset: " << e.what() << "\n";
      return 2;
    }
    for (const auto& line : presets::report_lines(*opt.preset, preset_report))
      std::cerr << "cudaviz: " << line << "\n";
    if (opt.frames > 0 && !preset_report.invalid.empty()) {
      std::cerr << "cudaviz: --preset: '" << *opt.preset << "' has " << preset_report.invalid.size()
                << " value(s) it cannot use (above); a scripted run needs all of them\n";
      return 2;
    }
    presets::merge_command_line(*preset, opt);  // flags given with --preset win
  }
  const std::optional<SceneKind> first_kind =
      preset && preset->scene ? preset->scene : parse_scene(opt.scene);
  if (!first_kind) {
    std::cerr << "cudaviz: --scene: '" << opt.scene << "' is not a scene\n";
    return 2;
  }
  const SceneRequest first_request{opt.n, opt.variant};
  try {
    check_scene_request(*first_kind, backend, first_request);
  } catch (const UsageError& e) {
    std::cerr << "cudaviz: " << e.what() << "\n";
    return 2;
  }

  try {
    GlfwWindow window(opt.width, opt.height, "cudaviz");
    if (!gladLoadGL(glfwGetProcAddress))
      throw std::runtime_error("gladLoadGL failed: no OpenGL 4.1 entry points");
    const bool gl_debug = gl_debug_requested() && enable_gl_debug_output();
    glfwSwapInterval(opt.frames > 0 ? 0 : 1);  // scripted runs go as fast as they can
    std::fprintf(stderr, "GL_RENDERER: %s | GL_VERSION: %s\n", glGetString(GL_RENDERER),
                 glGetString(GL_VERSION));

    ImGuiSession imgui(window.handle, opt.frames == 0);

    // --- Scenes ------------------------------------------------------------------
    SceneSet scenes([&](SceneKind k) { return make_scene(k, backend); });
    try {
      scenes.adopt(*first_kind, make_scene(*first_kind, backend, first_request));
    } catch (const UsageError& e) {
      std::cerr << "cudaviz: " << e.what() << "\n";
      return 2;
    } catch (const std::invalid_argument& e) {  // the count asked for cannot be allocated
      cudaGetLastError();
      std::cerr << "cudaviz: --scene " << opt.scene << ": " << e.what() << "\n";
      return 2;
    }
    if (opt.block) {
      if (auto err = scenes.current().scene->set_block(*opt.block)) {
        std::cerr << "cudaviz: --block: " << *err << "\n";
        return 2;
      }
      scenes.current().ui.sync_from(*scenes.current().scene);
    }
    UiState ui;
    ui.renderer = parse_renderer(opt.renderer).value_or(UiState::Renderer::Auto);
    std::fprintf(stderr, "backend: %s | %s\n", to_string(backend),
                 scenes.current().scene->transfer_note().c_str());

    ParticleRenderer particles;
    TableRenderer table;
    LineRenderer lines;
    std::unique_ptr<SplatRenderer> splat;  // created on first use (CUDA backend only)
    GlTimerRing draw_timer;
    LabPanel labs(backend);
    if (opt.lab) {
      if (auto err = labs.open_and_run(*opt.lab)) {
        std::cerr << "cudaviz: --lab: " << *err << "\n";
        return 2;
      }
    }
    TuningUi tuning(backend);
    for (const std::string& p : opt.panels)
      if (auto err = tuning.open_panel(p)) {
        std::cerr << "cudaviz: --panel: " << *err << "\n";
        return 2;
      }
    if (opt.sweep) {
      if (auto err = tuning.start_sweep(*opt.sweep)) {
        std::cerr << "cudaviz: --sweep: " << *err << "\n";
        return 2;
      }
    }
    // Classroom: presentation settings, presets (the command line's first), keys.
    Presentation presentation;
    presets::PresetPanel preset_panel;
    presets::AppState app_state{scenes, ui, labs, presentation};
    bool preset_lab = false;  // a preset started a lab run: a scripted run waits for it
    if (preset) {
      presets::Report applied;
      preset_lab = presets::apply(*preset, app_state, applied).lab_started;
      for (const auto& line : presets::report_lines(*opt.preset, applied))
        std::cerr << "cudaviz: " << line << "\n";
      if (opt.frames > 0 && !applied.invalid.empty()) {
        std::cerr << "cudaviz: --preset: '" << *opt.preset << "' asks for what this machine "
                  << "cannot run (above)\n";
        return 2;
      }
      preset_report.invalid.insert(preset_report.invalid.end(), applied.invalid.begin(),
                                   applied.invalid.end());
      preset_panel.loaded(*opt.preset, *preset, preset_report);
    } else {
      if (opt.ui_scale) presentation.set_ui_scale(*opt.ui_scale);
      if (opt.present) {
        presentation.high_contrast = true;
        if (!opt.ui_scale) presentation.set_ui_scale(2.f);
      }
    }
    HotkeyTracker hotkey_tracker;
    // A tap shorter than a frame (slow frames on the CPU backend) still counts.
    glfwSetInputMode(window.handle, GLFW_STICKY_KEYS, GLFW_TRUE);
    double last_x = 0, last_y = 0;
    glfwGetCursorPos(window.handle, &last_x, &last_y);
    double last_time = glfwGetTime(), title_time = last_time;
    long long frame = 0;
    // Scripted reliability runs (app/soak): soak schedule, resize storm, close request.
    std::optional<SoakRun> soak;
    if (opt.soak) soak.emplace(opt.soak, backend);
    std::optional<ResizeStorm> storm;
    if (ResizeStorm::requested()) storm.emplace();
    const std::optional<long long> close_at = close_at_frame_from_env();

    while (!glfwWindowShouldClose(window.handle)) {
      if (storm) storm->tick(window.handle);
      glfwPollEvents();
      int fb_w = 0, fb_h = 0, win_w = 0, win_h = 0;
      glfwGetFramebufferSize(window.handle, &fb_w, &fb_h);
      glfwGetWindowSize(window.handle, &win_w, &win_h);
      // Minimized: nothing to draw, don't spin.
      if (fb_w <= 0 || fb_h <= 0 || win_w <= 0 || win_h <= 0) {
        if (storm) storm->note_zero_framebuffer();
        glfwWaitEventsTimeout(0.1);
        continue;
      }

      if (soak) soak->before_frame(frame, scenes, ui);
      if (close_at && frame == *close_at) glfwSetWindowShouldClose(window.handle, GLFW_TRUE);

      // --- Scene switch (from the menu or keys 1-4, asked for last frame) --------
      if (ui.scene_request && *ui.scene_request != scenes.current_kind()) {
        if (auto err = scenes.activate(*ui.scene_request)) {
          ui.scene_message = *err;  // the current scene stays
          std::fprintf(stderr, "cudaviz: %s\n", err->c_str());
        } else {
          ui.scene_message.clear();
          ui.error_message.clear();  // a stopped scene's error belongs to that scene
        }
      }
      ui.scene_request.reset();
      // A preset loaded or saved from the classroom window last frame (may switch scenes).
      if (preset_panel.service(app_state)) preset_lab = true;
      if (auto spec = preset_panel.take_sweep_request())
        if (auto err = tuning.start_sweep(*spec)) preset_panel.sweep_failed(*err);
      const SceneKind kind = scenes.current_kind();
      SceneSlot& slot = scenes.current();
      ParticleScene& scene = *slot.scene;
      OrbitCamera& camera = slot.camera;
      if (scene.take_camera_refit()) {
        const auto home = scene.camera_home();
        camera.set_home(home.target, home.distance, home.yaw, home.pitch);
      }
      const float aspect = static_cast<float>(fb_w) / static_cast<float>(fb_h);

      // --- Input ---------------------------------------------------------------
      ImGuiIO& io = ImGui::GetIO();
      double mx, my;
      glfwGetCursorPos(window.handle, &mx, &my);
      const bool left = glfwGetMouseButton(window.handle, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
      const bool right = glfwGetMouseButton(window.handle, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
      if (!io.WantCaptureMouse) {
        if (left) camera.rotate(static_cast<float>(mx - last_x), static_cast<float>(my - last_y));
        if (right) camera.pan(static_cast<float>(mx - last_x), static_cast<float>(my - last_y));
        if (io.MouseWheel != 0.f) camera.zoom(io.MouseWheel);
        // The swarm's target follows the cursor on the plane through its centre,
        // except while a button is held (then the drag orbits the camera).
        if (auto* swarm = dynamic_cast<SwarmScene*>(&scene);
            swarm && swarm->follow_pointer && !left && !right) {
          const float nx = static_cast<float>(2.0 * mx / win_w - 1.0),
                      ny = static_cast<float>(1.0 - 2.0 * my / win_h);
          if (auto hit = camera.pick_plane(nx, ny, aspect, 0.f)) {
            glm::vec3 p = *hit;
            const float r = glm::length(glm::vec2(p.x, p.z)), limit = 1.2f;
            if (r > limit) p *= limit / r;  // keep the swarm over the floor
            swarm->set_pointer(p);
          }
        }
      }
      last_x = mx;
      last_y = my;
      // Keys (ui/hotkeys.h): one table for this loop and the F1 overlay.
      auto key_down = [&](int k) { return glfwGetKey(window.handle, k) == GLFW_PRESS; };
      const int mods = (key_down(GLFW_KEY_LEFT_SHIFT) || key_down(GLFW_KEY_RIGHT_SHIFT)
                            ? GLFW_MOD_SHIFT
                            : 0) |
                       (key_down(GLFW_KEY_LEFT_CONTROL) || key_down(GLFW_KEY_RIGHT_CONTROL)
                            ? GLFW_MOD_CONTROL
                            : 0) |
                       (key_down(GLFW_KEY_LEFT_ALT) || key_down(GLFW_KEY_RIGHT_ALT) ? GLFW_MOD_ALT
                                                                                     : 0);
      for (Action a : hotkey_tracker.update(key_down, mods, io.WantCaptureKeyboard))
        apply_action(a, ui, presentation);
      if (ui.camera_reset_requested) {
        ui.camera_reset_requested = false;
        camera.reset();
      }

      // --- Simulate --------------------------------------------------------------
      try {
        if (ui.reset_requested) {
          ui.reset_requested = false;
          scene.reset();
        }
        if (ui.error_message.empty() && (!ui.paused || ui.step_once)) scene.step();
      } catch (const std::exception& e) {
        ui.error_message = e.what();  // names the call and the error
        ui.paused = true;
        cudaGetLastError();
        std::fprintf(stderr, "cudaviz: %s\n", e.what());
      }
      ui.step_once = false;

      // --- Draw the scene ---------------------------------------------------------
      for (float ms : draw_timer.poll()) ui.draw_ms.push(ms);
      glViewport(0, 0, fb_w, fb_h);
      glClearColor(0.03f, 0.035f, 0.05f, 1.f);
      glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
      const glm::mat4 view_proj = camera.view_proj(aspect);
      const ParticleScene::Floor floor = scene.floor();
      const ParticleStyle style = scene.style();
      ui.splat_active = wants_splat(ui, scene, style);
      if (ui.splat_active) {
        // CUDA work first (its own events); the composite is part of the GL draw below.
        try {
          if (!splat) splat = std::make_unique<SplatRenderer>();
          for (float ms : splat->poll_times()) ui.splat_ms.push(ms);
          for (float ms : splat->poll_map_times()) ui.splat_map_ms.push(ms);
          for (float ms : splat->poll_kernel_times()) ui.splat_kernel_ms.push(ms);
          // The splatter hides what the table top covers, for a table at y = 0.
          const float occluder = floor.height == 0.f ? floor.radius : 0.f;
          splat->render(*scene.vertex_buffer(), scene.count(), style, view_proj, occluder, fb_w,
                        fb_h, scene.cuda_stream());
          // Outside the draw timer: GL waits here for the splat's unmap.
          for (float ms : splat->poll_upload_times()) ui.splat_upload_ms.push(ms);
          splat->upload();
          ui.splat_sync_wait_ms.push(splat->take_sync_wait_ms());
        } catch (const std::exception& e) {
          cudaGetLastError();
          ui.splat_active = false;
          ui.renderer = UiState::Renderer::Sprites;
          ui.renderer_message = std::string("splatter failed, drawing point sprites: ") + e.what();
          std::fprintf(stderr, "cudaviz: %s\n", ui.renderer_message.c_str());
        }
      }
      draw_timer.begin();
      if (floor.radius > 0) table.draw(floor.radius, view_proj, floor.height);
      for (const auto& line : scene.overlay()) lines.draw(line.points, line.colour, view_proj);
      if (ui.splat_active)
        splat->draw();
      else
        particles.draw(scene.vbo(), scene.count(), style, view_proj);
      draw_timer.end();

      // --- UI --------------------------------------------------------------------
      CpuStopwatch ui_clock;  // the frame breakdown's "UI" part: build + render, CPU time
      // Whether a lab was still running when this frame's panels were drawn: a
      // scripted run's last picture must show the finished results.
      const bool lab_busy_in_picture = labs.running();
      const bool sweep_busy_in_picture = tuning.sweep_running();  // likewise for --sweep
      presentation.begin_frame(window.handle);  // fonts and style at the UI scale
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      if (!presentation.panels_hidden) {
        draw_control_panel(scene, kind, slot.ui, ui);
        draw_timing_panel(scene, ui);
        labs.draw();
        tuning.draw(scene, slot.ui, ui);
        preset_panel.draw(presentation);
      }
      presentation.draw_help();
      ImGui::Render();
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      tuning.record_ui_ms(ui_clock.ms());
      check_gl("frame");

      // --- Screenshot, frame accounting, present ----------------------------------
      ++frame;
      // A scripted run with --lab ends once the lab has finished, so the picture shows its results.
      // Likewise with --sweep: the picture shows the sweep's chart.
      const bool last_frame = opt.frames > 0 && frame >= opt.frames &&
                              !((opt.lab || preset_lab) && lab_busy_in_picture) &&
                              !(opt.sweep && sweep_busy_in_picture);
      if (ui.screenshot_requested || (last_frame && opt.screenshot)) {
        const std::string path = ui.screenshot_requested ? timestamped_png() : *opt.screenshot;
        ui.screenshot_requested = false;
        try {
          write_framebuffer_png(path, fb_w, fb_h);
          std::fprintf(stderr, "screenshot: %s\n", path.c_str());
        } catch (const std::exception& e) {
          if (last_frame) throw;
          ui.error_message = e.what();
        }
      }
      glfwSwapBuffers(window.handle);

      const double now = glfwGetTime();
      const float dt = static_cast<float>(now - last_time);
      last_time = now;
      ui.frame_ms.push(dt * 1000.f);
      ui.fps.push(dt > 0 ? 1.f / dt : 0.f);
      if (now - title_time > 0.5) {
        title_time = now;
        glfwSetWindowTitle(window.handle, window_title(scene, ui.fps.latest()).c_str());
      }
      if (last_frame) break;
    }
    // Closing the window while a lab runs: cancel it and wait for the worker.
    labs.shutdown();
    tuning.shutdown();
    if (soak) soak->finish(frame, scenes, ui);
    const ParticleScene& scene = *scenes.current().scene;
    if (opt.frames > 0) {
      // Scripted runs end with one JSON line of what the frames cost (medians
      // over the last frames): the GPU-side numbers are CUDA events and GL
      // timer queries, independent of how fast the display presents.
      nlohmann::ordered_json j;
      j["frames"] = frame;
      j["scene"] = scene.name();
      j["backend"] = to_string(backend);
      j["transfer"] = to_string(scene.transfer_mode());
      j["particles"] = scene.count();
      j["block"] = {scene.block().x, scene.block().y, scene.block().z};
      j["kernel_ms"] = scene.kernel_ms.median();
      j["map_step_unmap_ms"] = scene.step_ms.median();
      if (backend == Backend::Cuda) {
        // What the interop costs beyond the kernel: map (with any wait for GL) + unmap.
        j["interop_ms"] = scene.interop_ms.median();
        j["map_ms"] = scene.map_ms.median();
        j["unmap_ms"] = scene.unmap_ms.median();
        j["sync_wait_ms"] = scene.sync_wait_ms.median();  // external path: CPU waits
        j["transfer_reason"] = scene.transfer_reason();
        j["vertex_buffers"] = scene.double_buffered() ? 2 : 1;
      }
      j["draw_ms"] = ui.draw_ms.median();
      j["renderer"] = ui.splat_active ? "splat" : "sprites";
      if (ui.splat_active) {
        j["splat_ms"] = ui.splat_ms.median();
        j["splat_map_ms"] = ui.splat_map_ms.median();
        j["splat_transfer"] = to_string(splat->transfer_mode());
        j["splat_sync_wait_ms"] = ui.splat_sync_wait_ms.median();
        j["splat_kernel_ms"] = ui.splat_kernel_ms.median();
        j["splat_upload_ms"] = ui.splat_upload_ms.median();  // PBO -> texture, GL waits for CUDA
      }
      // GPU time of a frame's scene work: map+step+unmap, splat, draw (not the UI).
      if (backend == Backend::Cuda)
        j["gpu_frame_ms"] = scene.step_ms.median() + ui.draw_ms.median() +
                            (ui.splat_active ? ui.splat_ms.median() : 0.f);
      j["frame_ms"] = ui.frame_ms.median();
      scene.describe(j);
      const nlohmann::ordered_json t = scene.throughput();
      for (auto it = t.begin(); it != t.end(); ++it) j[it.key()] = it.value();
      if (opt.lab) {  // how the lab run asked for with --lab ended
        j["lab"] = *opt.lab;
        j["lab_state"] = cv::labs::to_string(labs.runner().state());
        j["lab_rows"] = labs.runner().results().size();
        if (!labs.runner().error().empty()) j["lab_error"] = labs.runner().error();
      }
      if (opt.sweep) {  // how the sweep asked for with --sweep ended
        j["sweep"] = *opt.sweep;
        j["sweep_state"] = cv::tuning::to_string(tuning.sweep().state());
        j["sweep_rows"] = tuning.sweep().rows().size();
        if (!tuning.sweep().error().empty()) j["sweep_error"] = tuning.sweep().error();
      }
      // Classroom: what presentation the picture shows and what the preset left out.
      j["ui_scale"] = presentation.effective_scale();
      j["high_contrast"] = presentation.high_contrast;
      if (opt.preset) {
        j["preset"] = *opt.preset;
        j["preset_skipped"] = preset_report.skipped().size();
      }
      j["gl_renderer"] = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
      j["gl_debug"] = gl_debug;  // KHR_debug output was on: gl_errors counts its errors too
      j["gl_errors"] = gl_error_count();
      if (storm) j["resize_storm"] = storm->summary();
      if (soak) j["soak"] = soak->summary();
      std::printf("%s\n", j.dump().c_str());
    }
    if (soak && !soak->passed()) {
      std::cerr << "cudaviz: soak failed: memory grew by " << SoakRun::kMaxGrowthPercent
                << "% or more after warm-up, or errors occurred (see \"soak\" above)\n";
      return 1;
    }
    if (opt.frames > 0 && !ui.error_message.empty()) {
      std::cerr << "cudaviz: the run ended with an error: " << ui.error_message << "\n";
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "cudaviz: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace cv

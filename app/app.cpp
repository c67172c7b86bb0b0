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
#include "labs/lab_panel.h"
#include "render/line_renderer.h"
#include "render/table_renderer.h"
#include "scenes/scene_factory.h"
#include "scenes/scene_set.h"
#include "scenes/swarm_scene.h"
#include "ui/panels.h"

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
    if (std::getenv("CUDAVIZ_GL_DEBUG")) glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
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

// Edge-triggered key presses, ignored while ImGui has the keyboard.
struct Keys {
  bool prev[GLFW_KEY_LAST + 1] = {};
  bool pressed(GLFWwindow* w, int key) {
    const bool down = glfwGetKey(w, key) == GLFW_PRESS;
    const bool edge = down && !prev[key];
    prev[key] = down;
    return edge && !ImGui::GetIO().WantCaptureKeyboard;
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
  const std::optional<SceneKind> first_kind = parse_scene(opt.scene);
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
  if (opt.preset) {
    std::cerr << "cudaviz: --preset is not supported yet\n";
    return 2;
  }

  try {
    GlfwWindow window(opt.width, opt.height, "cudaviz");
    if (!gladLoadGL(glfwGetProcAddress))
      throw std::runtime_error("gladLoadGL failed: no OpenGL 4.1 entry points");
    if (std::getenv("CUDAVIZ_GL_DEBUG")) enable_gl_debug_output();
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
    }
    if (opt.block) {
      if (auto err = scenes.current().scene->set_block(*opt.block)) {
        std::cerr << "cudaviz: --block: " << *err << "\n";
        return 2;
      }
      scenes.current().ui.sync_from(*scenes.current().scene);
    }
    UiState ui;
    std::fprintf(stderr, "backend: %s | %s\n", to_string(backend),
                 scenes.current().scene->transfer_note().c_str());

    ParticleRenderer particles;
    TableRenderer table;
    LineRenderer lines;
    GlTimerRing draw_timer;
    LabPanel labs(backend);
    if (opt.lab) {
      if (auto err = labs.open_and_run(*opt.lab)) {
        std::cerr << "cudaviz: --lab: " << *err << "\n";
        return 2;
      }
    }
    Keys keys;
    double last_x = 0, last_y = 0;
    glfwGetCursorPos(window.handle, &last_x, &last_y);
    double last_time = glfwGetTime(), title_time = last_time;
    long long frame = 0;

    while (!glfwWindowShouldClose(window.handle)) {
      glfwPollEvents();
      int fb_w = 0, fb_h = 0, win_w = 0, win_h = 0;
      glfwGetFramebufferSize(window.handle, &fb_w, &fb_h);
      glfwGetWindowSize(window.handle, &win_w, &win_h);
      // Minimized: nothing to draw, don't spin.
      if (fb_w <= 0 || fb_h <= 0 || win_w <= 0 || win_h <= 0) {
        glfwWaitEventsTimeout(0.1);
        continue;
      }

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
      if (keys.pressed(window.handle, GLFW_KEY_SPACE)) ui.paused = !ui.paused;
      if (keys.pressed(window.handle, GLFW_KEY_S)) ui.step_once = true;
      if (keys.pressed(window.handle, GLFW_KEY_R)) ui.reset_requested = true;
      if (keys.pressed(window.handle, GLFW_KEY_C)) ui.camera_reset_requested = true;
      if (keys.pressed(window.handle, GLFW_KEY_P)) ui.screenshot_requested = true;
      const int scene_keys[kSceneCount] = {GLFW_KEY_1, GLFW_KEY_2, GLFW_KEY_3, GLFW_KEY_4};
      for (int i = 0; i < kSceneCount; ++i)
        if (keys.pressed(window.handle, scene_keys[i]))
          ui.scene_request = static_cast<SceneKind>(i);
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
      draw_timer.begin();
      const ParticleScene::Floor floor = scene.floor();
      if (floor.radius > 0) table.draw(floor.radius, view_proj, floor.height);
      for (const auto& line : scene.overlay()) lines.draw(line.points, line.colour, view_proj);
      particles.draw(scene.vbo(), scene.count(), scene.style(), view_proj);
      draw_timer.end();

      // --- UI --------------------------------------------------------------------
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      draw_control_panel(scene, kind, slot.ui, ui);
      draw_timing_panel(scene, ui);
      labs.draw();
      ImGui::Render();
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      check_gl("frame");

      // --- Screenshot, frame accounting, present ----------------------------------
      ++frame;
      // A scripted run with --lab ends once the lab has finished, so the picture shows its results.
      const bool last_frame = opt.frames > 0 && frame >= opt.frames && !(opt.lab && labs.running());
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
      j["draw_ms"] = ui.draw_ms.median();
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
      j["gl_renderer"] = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
      std::printf("%s\n", j.dump().c_str());
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

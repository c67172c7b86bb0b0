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
#include "render/table_renderer.h"
#include "scenes/fountain_scene.h"
#include "ui/panels.h"

namespace cv {
namespace {

// Owns glfwInit/glfwTerminate and the window.
struct GlfwWindow {
  GLFWwindow* handle = nullptr;
  GlfwWindow(int w, int h, const char* title) {
    glfwSetErrorCallback([](int code, const char* msg) { std::fprintf(stderr, "GLFW error %d: %s\n", code, msg); });
    if (!glfwInit()) throw std::runtime_error("glfwInit failed: no display? (set DISPLAY or run under xvfb-run)");
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
      std::filesystem::path dir = xdg && *xdg ? std::filesystem::path(xdg) : home ? std::filesystem::path(home) / ".config" : "";
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

std::string window_title(const FountainScene& scene, float fps) {
  char buf[256];
  const std::string backend = scene.backend() == Backend::Cuda
                                  ? "CUDA " + device_info().name + " (" + to_string(scene.transfer_mode()) + ")"
                                  : "CPU backend";
  std::snprintf(buf, sizeof buf, "cudaviz - %s - %s - %u particles - %.0f fps", scene.name(), backend.c_str(),
                scene.count(), fps);
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
  if (opt.scene != "fountain") {
    std::cerr << "cudaviz: --scene " << opt.scene << " is not available yet (fountain is)\n";
    return 2;
  }
  if (opt.preset) {
    std::cerr << "cudaviz: --preset is not supported yet\n";
    return 2;
  }

  try {
    GlfwWindow window(opt.width, opt.height, "cudaviz");
    if (!gladLoadGL(glfwGetProcAddress)) throw std::runtime_error("gladLoadGL failed: no OpenGL 4.1 entry points");
    if (std::getenv("CUDAVIZ_GL_DEBUG")) enable_gl_debug_output();
    glfwSwapInterval(opt.frames > 0 ? 0 : 1);  // scripted runs go as fast as they can
    std::fprintf(stderr, "GL_RENDERER: %s | GL_VERSION: %s\n", glGetString(GL_RENDERER), glGetString(GL_VERSION));

    ImGuiSession imgui(window.handle, opt.frames == 0);

    // --- Scene ----------------------------------------------------------------
    fountain::Variant variant = fountain::Variant::Lean;
    if (opt.variant) {
      auto v = fountain::parse_variant(*opt.variant);
      if (!v) {
        std::cerr << "cudaviz: --variant: '" << *opt.variant << "' is not a fountain variant (lean, seed)\n";
        return 2;
      }
      variant = *v;
    }
    const long long count = opt.n.value_or(FountainScene::kDefaultCount);
    if (count > FountainScene::kMaxCount) {
      std::cerr << "cudaviz: --n: " << count << " exceeds the fountain's limit of " << FountainScene::kMaxCount << "\n";
      return 2;
    }
    FountainScene scene(backend, static_cast<unsigned>(count), variant);
    UiState ui;
    ui.count_input = static_cast<int>(scene.count());
    if (opt.block) {
      if (auto err = scene.set_block(*opt.block)) {
        std::cerr << "cudaviz: --block: " << *err << "\n";
        return 2;
      }
    }
    ui.block_x = scene.block().x;
    ui.block_y = scene.block().y;
    std::fprintf(stderr, "backend: %s | %s\n", to_string(backend), scene.transfer_note().c_str());

    ParticleRenderer particles;
    TableRenderer table;
    OrbitCamera camera;
    GlTimerRing draw_timer;
    Keys keys;
    double last_x = 0, last_y = 0;
    glfwGetCursorPos(window.handle, &last_x, &last_y);
    double last_time = glfwGetTime(), title_time = last_time;
    long long frame = 0;

    while (!glfwWindowShouldClose(window.handle)) {
      glfwPollEvents();
      int fb_w = 0, fb_h = 0;
      glfwGetFramebufferSize(window.handle, &fb_w, &fb_h);
      if (fb_w <= 0 || fb_h <= 0) {  // minimized: nothing to draw, don't spin
        glfwWaitEventsTimeout(0.1);
        continue;
      }

      // --- Input ---------------------------------------------------------------
      ImGuiIO& io = ImGui::GetIO();
      double mx, my;
      glfwGetCursorPos(window.handle, &mx, &my);
      if (!io.WantCaptureMouse) {
        if (glfwGetMouseButton(window.handle, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS)
          camera.rotate(static_cast<float>(mx - last_x), static_cast<float>(my - last_y));
        if (glfwGetMouseButton(window.handle, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS)
          camera.pan(static_cast<float>(mx - last_x), static_cast<float>(my - last_y));
        if (io.MouseWheel != 0.f) camera.zoom(io.MouseWheel);
      }
      last_x = mx;
      last_y = my;
      if (keys.pressed(window.handle, GLFW_KEY_SPACE)) ui.paused = !ui.paused;
      if (keys.pressed(window.handle, GLFW_KEY_S)) ui.step_once = true;
      if (keys.pressed(window.handle, GLFW_KEY_R)) ui.reset_requested = true;
      if (keys.pressed(window.handle, GLFW_KEY_C)) camera.reset();
      if (keys.pressed(window.handle, GLFW_KEY_P)) ui.screenshot_requested = true;

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
      const glm::mat4 view_proj = camera.view_proj(static_cast<float>(fb_w) / static_cast<float>(fb_h));
      draw_timer.begin();
      table.draw(scene.params().table_radius, view_proj);
      particles.draw(scene.vbo(), scene.count(), scene.style(), view_proj);
      draw_timer.end();

      // --- UI --------------------------------------------------------------------
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      draw_control_panel(scene, ui);
      draw_timing_panel(scene, ui);
      ImGui::Render();
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      check_gl("frame");

      // --- Screenshot, frame accounting, present ----------------------------------
      ++frame;
      const bool last_frame = opt.frames > 0 && frame >= opt.frames;
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
    if (opt.frames > 0) {
      // Scripted runs end with one JSON line of what the frames cost (medians
      // over the last frames): the GPU-side numbers are CUDA events and GL
      // timer queries, independent of how fast the display presents.
      std::printf(
          "{\"frames\": %lld, \"scene\": \"%s\", \"backend\": \"%s\", \"transfer\": \"%s\", "
          "\"particles\": %u, \"block\": [%d, %d, %d], \"kernel_ms\": %.4f, \"map_step_unmap_ms\": %.4f, "
          "\"draw_ms\": %.4f, \"frame_ms\": %.3f, \"gl_renderer\": \"%s\"}\n",
          frame, scene.name(), to_string(backend), to_string(scene.transfer_mode()), scene.count(), scene.block().x,
          scene.block().y, scene.block().z, scene.kernel_ms.median(), scene.step_ms.median(), ui.draw_ms.median(),
          ui.frame_ms.median(), reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
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

#pragma once
// The two sessions every frame runs inside, each owned by one RAII type and
// torn down in the reverse order of setup: the GLFW window (with its GL
// context) first, the ImGui context and its backends on top of it.
#include <string>

struct GLFWwindow;

namespace cv {

// glfwInit/glfwTerminate, the window and its current GL 4.1 core context.
class GlfwWindow {
 public:
  // gl_debug: ask for a debug context (Config::gl_debug_on).
  GlfwWindow(int width, int height, const char* title, bool gl_debug);
  ~GlfwWindow();
  GlfwWindow(const GlfwWindow&) = delete;
  GlfwWindow& operator=(const GlfwWindow&) = delete;

  GLFWwindow* handle() const { return handle_; }
  // Framebuffer and window size in pixels; both non-zero unless minimized.
  struct Size {
    int fb_w = 0, fb_h = 0, win_w = 0, win_h = 0;
    bool drawable() const { return fb_w > 0 && fb_h > 0 && win_w > 0 && win_h > 0; }
  };
  Size size() const;

 private:
  GLFWwindow* handle_ = nullptr;
};

// ImGui's context and its GLFW/OpenGL3 backends. The layout is saved in the
// user's config directory (`config_home`/cudaviz: PathConfig::config_home) when
// `persist_layout` (interactive runs only; "" config_home: not saved).
class ImGuiSession {
 public:
  ImGuiSession(GLFWwindow* window, bool persist_layout, const std::string& config_home);
  ~ImGuiSession();
  ImGuiSession(const ImGuiSession&) = delete;
  ImGuiSession& operator=(const ImGuiSession&) = delete;

  void new_frame();     // backends, then ImGui::NewFrame
  void render_frame();  // ImGui::Render and the OpenGL3 backend's draw

 private:
  std::string ini_path_;
};

}  // namespace cv

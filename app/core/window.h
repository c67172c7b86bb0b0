#pragma once
// The two sessions every frame runs inside, each owned by one RAII type and
// torn down in the reverse order of setup: the GLFW window (with its GL
// context) first, the ImGui context and its backends on top of it.
#include <stdexcept>
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

  // Whether the driver tells this context about a GPU reset (a robust context,
  // GL_LOSE_CONTEXT_ON_RESET): a fault in another process's CUDA context can
  // reset the GPU's engines, and a context that is not told spins in the
  // driver waiting for work that never completes.
  // GL_NO_ERROR, or why this context was lost (GL_GUILTY/INNOCENT/UNKNOWN_CONTEXT_RESET).
  unsigned reset_status() const;
  const std::string& robustness_note() const { return robustness_note_; }

 private:
  GLFWwindow* handle_ = nullptr;
  using ResetStatusFn = unsigned (*)();
  ResetStatusFn reset_status_ = nullptr;
  bool reports_resets_ = false;
  std::string robustness_note_;
};

// The exception a frame throws when the GL context was lost to a GPU reset;
// run_app reopens the window (core/app_setup.cpp).
struct GlContextLost : std::runtime_error {
  explicit GlContextLost(unsigned status);
  unsigned status;
};
const char* reset_status_name(unsigned status);

// `config_home`/cudaviz (PathConfig::config_home: $XDG_CONFIG_HOME, else
// ~/.config), created; "" when there is none.
std::string user_config_dir(const std::string& config_home);

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

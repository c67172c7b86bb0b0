#include "core/window.h"

#include <glad/gl.h>  // before GLFW, which would pull in the system gl.h
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "gl/gl_check.h"

namespace cv {

GlfwWindow::GlfwWindow(int width, int height, const char* title, bool gl_debug) {
  glfwSetErrorCallback(
      [](int code, const char* msg) { std::fprintf(stderr, "GLFW error %d: %s\n", code, msg); });
  if (!glfwInit())
    throw std::runtime_error("glfwInit failed: no display? (set DISPLAY or run under xvfb-run)");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 1);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  if (gl_debug) glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);  // HiDPI: the window grows with the monitor
  // Ignored by GLFW where GLX/WGL lack context robustness; reports_resets_ says what we got.
  glfwWindowHint(GLFW_CONTEXT_ROBUSTNESS, GLFW_LOSE_CONTEXT_ON_RESET);
  handle_ = glfwCreateWindow(width, height, title, nullptr, nullptr);
  if (!handle_) {
    glfwTerminate();
    throw std::runtime_error("glfwCreateWindow failed: OpenGL 4.1 core is not available");
  }
  glfwMakeContextCurrent(handle_);
  if (!gladLoadGL(glfwGetProcAddress)) {
    glfwDestroyWindow(handle_);
    glfwTerminate();
    throw std::runtime_error("gladLoadGL failed: no OpenGL 4.1 entry points");
  }
  // The 4.5 entry point, else ARB/KHR_robustness's (a 4.1 context has no core one).
  const char* query = GLAD_GL_VERSION_4_5                          ? "glGetGraphicsResetStatus"
                      : glfwExtensionSupported("GL_ARB_robustness") ? "glGetGraphicsResetStatusARB"
                      : glfwExtensionSupported("GL_KHR_robustness") ? "glGetGraphicsResetStatusKHR"
                                                                    : nullptr;
  if (query) reset_status_ = reinterpret_cast<ResetStatusFn>(glfwGetProcAddress(query));
  GLint strategy = 0;
  if (reset_status_) glGetIntegerv(GL_RESET_NOTIFICATION_STRATEGY, &strategy);
  glGetError();  // a context without robustness may not know the query
  reports_resets_ = reset_status_ && strategy == GL_LOSE_CONTEXT_ON_RESET;
  char note[160];
  std::snprintf(note, sizeof note, "%s (reset status query %s, strategy 0x%x)",
                reports_resets_ ? "robust context (reports GPU resets)"
                                : "context without reset notification",
                reset_status_ ? "found" : "missing", static_cast<unsigned>(strategy));
  robustness_note_ = note;
}

unsigned GlfwWindow::reset_status() const {
  return reports_resets_ ? reset_status_() : static_cast<unsigned>(GL_NO_ERROR);
}

const char* reset_status_name(unsigned status) {
  switch (status) {
    case GL_GUILTY_CONTEXT_RESET: return "GL_GUILTY_CONTEXT_RESET";
    case GL_INNOCENT_CONTEXT_RESET: return "GL_INNOCENT_CONTEXT_RESET";
    case GL_UNKNOWN_CONTEXT_RESET: return "GL_UNKNOWN_CONTEXT_RESET";
    default: return "GL_NO_ERROR";
  }
}

GlContextLost::GlContextLost(unsigned s)
    : std::runtime_error(std::string("the GPU was reset and the window's OpenGL context was lost (") +
                         reset_status_name(s) + ")"),
      status(s) {}

GlfwWindow::~GlfwWindow() {
  glfwDestroyWindow(handle_);
  glfwTerminate();
}

GlfwWindow::Size GlfwWindow::size() const {
  Size s;
  glfwGetFramebufferSize(handle_, &s.fb_w, &s.fb_h);
  glfwGetWindowSize(handle_, &s.win_w, &s.win_h);
  return s;
}

std::string user_config_dir(const std::string& config_home) {
  const std::filesystem::path dir = config_home;
  std::error_code ec;
  if (dir.empty() || !(std::filesystem::create_directories(dir / "cudaviz", ec) | !ec)) return "";
  return (dir / "cudaviz").string();
}

namespace {
// The user's config directory (XDG), not wherever the app was started; empty if none.
std::string layout_file(const std::string& config_home) {
  const std::string dir = user_config_dir(config_home);
  return dir.empty() ? "" : (std::filesystem::path(dir) / "imgui.ini").string();
}
}  // namespace

ImGuiSession::ImGuiSession(GLFWwindow* window, bool persist_layout,
                           const std::string& config_home) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  if (persist_layout) ini_path_ = layout_file(config_home);
  if (!ini_path_.empty()) io.IniFilename = ini_path_.c_str();
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 410");
}

ImGuiSession::~ImGuiSession() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void ImGuiSession::new_frame() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void ImGuiSession::render_frame() {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace cv

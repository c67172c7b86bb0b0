#pragma once
// A hidden 64x64 window with a current GL 4.1 core context and GLAD loaded, for
// tests of GL-side code; w is null when no display or context is available
// (the test then skips). Shared by the window tests that need only a context.
#include <glad/gl.h>
#include <GLFW/glfw3.h>

struct HiddenWindow {
  GLFWwindow* w = nullptr;
  explicit HiddenWindow(const char* title = "test") {
    if (!glfwInit()) return;
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 1);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    w = glfwCreateWindow(64, 64, title, nullptr, nullptr);
    if (w) glfwMakeContextCurrent(w);
    if (w && !gladLoadGL(glfwGetProcAddress)) {
      glfwDestroyWindow(w);
      w = nullptr;
    }
  }
  ~HiddenWindow() {
    if (w) glfwDestroyWindow(w);
    glfwTerminate();
  }
  HiddenWindow(const HiddenWindow&) = delete;
  HiddenWindow& operator=(const HiddenWindow&) = delete;
};

#include "core/input.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

namespace cv {

InputHandler::InputHandler(GLFWwindow* window) {
  // A tap shorter than a frame (slow frames on the CPU backend) still counts.
  glfwSetInputMode(window, GLFW_STICKY_KEYS, GLFW_TRUE);
  glfwGetCursorPos(window, &last_x_, &last_y_);
}

void InputHandler::handle(GLFWwindow* window, const GlfwWindow::Size& size, const Viewport& view,
                          SceneSlot& slot, UiState& ui, Presentation& presentation) {
  mouse(window, size, view, slot);
  keys(window, ui, presentation);  // keys ask (ui.requests); the next frame acts
}

void InputHandler::mouse(GLFWwindow* window, const GlfwWindow::Size& size, const Viewport& view,
                         SceneSlot& slot) {
  const ImGuiIO& io = ImGui::GetIO();
  double mx, my;
  glfwGetCursorPos(window, &mx, &my);
  const float dx = static_cast<float>(mx - last_x_), dy = static_cast<float>(my - last_y_);
  last_x_ = mx;
  last_y_ = my;
  if (io.WantCaptureMouse) return;
  const bool left = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
  const bool right = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
  OrbitCamera& camera = slot.camera;
  if (left) camera.rotate(dx, dy);
  if (right) camera.pan(dx, dy);
  if (io.MouseWheel != 0.f) camera.zoom(io.MouseWheel);
  if (left || right) return;  // a drag orbits the camera; the pointer stays where it was
  if (view.empty()) return;
  // Window coordinates (y down) to framebuffer pixels (y up), then to the view's NDC.
  const double fx = mx * size.fb_w / size.win_w, fy = size.fb_h - my * size.fb_h / size.win_h;
  if (auto* follower = slot.scene->as<PointerFollower>())
    follower->on_pointer({static_cast<float>(2.0 * (fx - view.x) / view.w - 1.0),
                          static_cast<float>(2.0 * (fy - view.y) / view.h - 1.0), view.aspect(),
                          camera});
}

void InputHandler::keys(GLFWwindow* window, UiState& ui, Presentation& presentation) {
  auto key_down = [&](int k) { return glfwGetKey(window, k) == GLFW_PRESS; };
  auto either = [&](int a, int b) { return key_down(a) || key_down(b); };
  const int mods = (either(GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT_SHIFT) ? GLFW_MOD_SHIFT : 0) |
                   (either(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_RIGHT_CONTROL) ? GLFW_MOD_CONTROL : 0) |
                   (either(GLFW_KEY_LEFT_ALT, GLFW_KEY_RIGHT_ALT) ? GLFW_MOD_ALT : 0);
  // One key table (ui/hotkeys.h) for this and the F1 overlay.
  for (Action a : hotkeys_.update(key_down, mods, ImGui::GetIO().WantCaptureKeyboard))
    apply_action(a, ui, presentation);
}

}  // namespace cv

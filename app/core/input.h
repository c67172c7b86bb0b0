#pragma once
// A frame's input: the mouse orbits, pans and zooms the camera (unless ImGui
// has it), the pointer goes to the scene's on_pointer hook, and the keys of
// ui/hotkeys.h become actions on the UI state and the presentation.
#include "core/window.h"
#include "render/viewport.h"
#include "scenes/scene_set.h"
#include "ui/hotkeys.h"
#include "ui/panels.h"
#include "ui/presentation.h"

namespace cv {

class InputHandler {
 public:
  explicit InputHandler(GLFWwindow* window);
  // `view`: where the scene is drawn (the pointer is relative to it).
  void handle(GLFWwindow* window, const GlfwWindow::Size& size, const Viewport& view,
              SceneSlot& slot, UiState& ui, Presentation& presentation);

 private:
  void mouse(GLFWwindow* window, const GlfwWindow::Size& size, const Viewport& view,
             SceneSlot& slot);
  void keys(GLFWwindow* window, UiState& ui, Presentation& presentation);

  HotkeyTracker hotkeys_;
  double last_x_ = 0, last_y_ = 0;
};

}  // namespace cv

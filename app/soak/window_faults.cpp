#include "soak/window_faults.h"

#include <GLFW/glfw3.h>

#include <iterator>

namespace cv {
namespace {

struct Size {
  int w, h;
};
// Degenerate aspect ratios both ways, odd sizes, 1x1, and back to normal.
constexpr Size kSizes[] = {{1, 1}, {2, 3},     {17, 1},  {1, 333}, {640, 1}, {1279, 799},
                           {3, 3}, {801, 601}, {64, 64}, {1, 2},   {333, 1}, {1280, 800}};

}  // namespace

void ResizeStorm::tick(GLFWwindow* window) {
  ++ticks_;
  if (iconified_) {
    glfwRestoreWindow(window);
    iconified_ = false;
    return;
  }
  if (ticks_ % 16 == 0) {
    glfwIconifyWindow(window);
    iconified_ = true;
    ++iconifies_;
    return;
  }
  const Size s = kSizes[static_cast<size_t>(resizes_) % std::size(kSizes)];
  glfwSetWindowSize(window, s.w, s.h);
  ++resizes_;
}

nlohmann::ordered_json ResizeStorm::summary() const {
  nlohmann::ordered_json j;
  j["passes"] = ticks_;
  j["resizes"] = resizes_;
  j["iconifies"] = iconifies_;
  j["zero_size_passes"] = zero_size_passes_;
  return j;
}

}  // namespace cv

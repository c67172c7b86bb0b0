#include "soak/window_faults.h"

#include <GLFW/glfw3.h>

#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>

namespace cv {
namespace {

struct Size {
  int w, h;
};
// Degenerate aspect ratios both ways, odd sizes, 1x1, and back to normal.
constexpr Size kSizes[] = {{1, 1}, {2, 3},     {17, 1},  {1, 333}, {640, 1}, {1279, 799},
                           {3, 3}, {801, 601}, {64, 64}, {1, 2},   {333, 1}, {1280, 800}};

}  // namespace

bool ResizeStorm::requested() {
  const char* env = std::getenv("CUDAVIZ_RESIZE_STORM");
  return env && *env && *env != '0';
}

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

std::optional<long long> close_at_frame_from_env() {
  const char* env = std::getenv("CUDAVIZ_CLOSE_AT_FRAME");
  if (!env || !*env) return std::nullopt;
  const std::string v = env;
  if (v.size() > 12 || v.find_first_not_of("0123456789") != std::string::npos) {
    std::fprintf(stderr, "cudaviz: CUDAVIZ_CLOSE_AT_FRAME='%s' is not a frame number; ignored\n",
                 env);
    return std::nullopt;
  }
  return std::stoll(v);
}

}  // namespace cv

#pragma once
// Orbit camera: drag to rotate around a target, scroll to zoom, right-drag to pan.
#include <glm/glm.hpp>

namespace cv {

class OrbitCamera {
 public:
  void rotate(float dx_pixels, float dy_pixels);
  void pan(float dx_pixels, float dy_pixels);
  void zoom(float scroll_steps);
  void reset();
  glm::mat4 view_proj(float aspect) const;

  float yaw = 0.6f, pitch = 0.3f, distance = 9.f;
  glm::vec3 target{0.f, 0.8f, 0.f};
};

}  // namespace cv

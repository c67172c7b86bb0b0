#pragma once
// Orbit camera: drag to rotate around a target, scroll to zoom, right-drag to pan.
#include <glm/glm.hpp>
#include <optional>

namespace cv {

class OrbitCamera {
 public:
  void rotate(float dx_pixels, float dy_pixels);
  void pan(float dx_pixels, float dy_pixels);
  void zoom(float scroll_steps);
  // Back to the home view (the scene's default).
  void reset();
  void set_home(const glm::vec3& target, float distance, float yaw, float pitch);
  glm::mat4 view_proj(float aspect) const;

  // Where the ray through a point of the screen (normalized device
  // coordinates, x right and y up in [-1, 1]) meets the horizontal plane
  // y = plane_y; nullopt when it runs parallel to it or meets it behind the eye.
  std::optional<glm::vec3> pick_plane(float ndc_x, float ndc_y, float aspect, float plane_y) const;

  float yaw = 0.6f, pitch = 0.3f, distance = 9.f;
  glm::vec3 target{0.f, 0.8f, 0.f};

 private:
  float home_yaw_ = 0.6f, home_pitch_ = 0.3f, home_distance_ = 9.f;
  glm::vec3 home_target_{0.f, 0.8f, 0.f};
};

}  // namespace cv

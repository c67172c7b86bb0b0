#pragma once
// Orbit camera: drag to rotate around a target, scroll to zoom, right-drag to pan.
#include <glm/glm.hpp>
#include <optional>

#include "render/view_fit.h"

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
  static constexpr float kFovY = 0.785398f;  // 45 degrees

  // Framing (on after set_home and reset): each frame fit() places the target
  // and distance so the content fills a view of this aspect, then applies the
  // user's zoom and pan on top; so the content follows the view's size (a
  // tool tab opening, a resize) and an orbit keeps it in view. hold() turns it
  // off: a preset's explicit distance and target stay as given.
  void fit(const ContentBounds& content, float aspect);
  void hold() { framing_ = false; }
  void follow() {
    framing_ = true;
    zoom_ = 1.f;
    pan_ = glm::vec3(0.f);
  }
  bool framing() const { return framing_; }

  // Where the ray through a point of the screen (normalized device
  // coordinates, x right and y up in [-1, 1]) meets the horizontal plane
  // y = plane_y; nullopt when it runs parallel to it or meets it behind the eye.
  std::optional<glm::vec3> pick_plane(float ndc_x, float ndc_y, float aspect, float plane_y) const;

  float yaw = 0.6f, pitch = 0.3f, distance = 9.f;
  glm::vec3 target{0.f, 0.8f, 0.f};

 private:
  float home_yaw_ = 0.6f, home_pitch_ = 0.3f, home_distance_ = 9.f;
  glm::vec3 home_target_{0.f, 0.8f, 0.f};
  bool framing_ = true;
  float zoom_ = 1.f;      // the user's zoom on top of the fitted distance
  glm::vec3 pan_{0.f};    // and pan on top of the fitted target
};

}  // namespace cv

#include "render/camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace cv {

void OrbitCamera::rotate(float dx, float dy) {
  yaw += dx * 0.005f;
  pitch = std::clamp(pitch + dy * 0.005f, -1.5f, 1.5f);
}

void OrbitCamera::pan(float dx, float dy) {
  // Move the target in the camera's screen plane, scaled by distance.
  const glm::vec3 right(std::cos(yaw), 0.f, -std::sin(yaw));
  const float s = distance * 0.0015f;
  const glm::vec3 delta = -right * dx * s + glm::vec3(0.f, 1.f, 0.f) * dy * s;
  target += delta;
  if (framing_) pan_ += delta;
}

void OrbitCamera::zoom(float steps) {
  const float before = distance;
  distance = std::clamp(distance * std::pow(0.9f, steps), 0.5f, 500.f);
  if (framing_ && before > 0.f) zoom_ *= distance / before;
}

void OrbitCamera::fit(const ContentBounds& content, float aspect) {
  if (!framing_) return;
  const Framing f = frame_content(content, yaw, pitch, kFovY, aspect, 0.06f);
  target = f.target + pan_;
  distance = std::clamp(f.distance * zoom_, 0.05f, 2000.f);
}

void OrbitCamera::reset() {
  yaw = home_yaw_;
  pitch = home_pitch_;
  distance = home_distance_;
  target = home_target_;
  framing_ = true;
  zoom_ = 1.f;
  pan_ = glm::vec3(0.f);
}

void OrbitCamera::set_home(const glm::vec3& t, float d, float y, float p) {
  home_target_ = t;
  home_distance_ = std::clamp(d, 0.5f, 500.f);
  home_yaw_ = y;
  home_pitch_ = std::clamp(p, -1.5f, 1.5f);
  reset();
}

std::optional<glm::vec3> OrbitCamera::pick_plane(float ndc_x, float ndc_y, float aspect,
                                                 float plane_y) const {
  const glm::mat4 inv = glm::inverse(view_proj(aspect));
  glm::vec4 a = inv * glm::vec4(ndc_x, ndc_y, -1.f, 1.f);
  glm::vec4 b = inv * glm::vec4(ndc_x, ndc_y, 1.f, 1.f);
  const glm::vec3 p0 = glm::vec3(a) / a.w, p1 = glm::vec3(b) / b.w;
  const glm::vec3 dir = p1 - p0;
  if (std::fabs(dir.y) < 1e-6f) return std::nullopt;
  const float t = (plane_y - p0.y) / dir.y;
  if (t < 0.f) return std::nullopt;
  return p0 + t * dir;
}

glm::mat4 OrbitCamera::view_proj(float aspect) const {
  const glm::vec3 eye =
      target + distance * glm::vec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                                    std::cos(pitch) * std::cos(yaw));
  const glm::mat4 view = glm::lookAt(eye, target, glm::vec3(0.f, 1.f, 0.f));
  const glm::mat4 proj =
      glm::perspective(kFovY, aspect > 0.f ? aspect : 1.f, 0.05f, 2000.f);
  return proj * view;
}

}  // namespace cv

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
  target += -right * dx * s + glm::vec3(0.f, 1.f, 0.f) * dy * s;
}

void OrbitCamera::zoom(float steps) { distance = std::clamp(distance * std::pow(0.9f, steps), 0.5f, 500.f); }

void OrbitCamera::reset() { *this = OrbitCamera{}; }

glm::mat4 OrbitCamera::view_proj(float aspect) const {
  const glm::vec3 eye = target + distance * glm::vec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                                                      std::cos(pitch) * std::cos(yaw));
  const glm::mat4 view = glm::lookAt(eye, target, glm::vec3(0.f, 1.f, 0.f));
  const glm::mat4 proj = glm::perspective(glm::radians(45.f), aspect > 0.f ? aspect : 1.f, 0.05f, 2000.f);
  return proj * view;
}

}  // namespace cv

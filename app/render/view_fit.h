#pragma once
// Framing: where an orbit camera must stand so that a scene's content fills a
// view of a given aspect. Pure functions (tests/app/test_view_fit.cpp).
#include <glm/glm.hpp>
#include <vector>

namespace cv {

// What a scene shows, in world units: a box, or (round) the vertical cylinder
// inscribed in it, which fits a table top or a galaxy more tightly than its
// box and does not change with the camera's yaw.
struct ContentBounds {
  glm::vec3 lo{0.f}, hi{0.f};
  bool round = false;
};

// Points whose hull is the content: the box's 8 corners, or the cylinder's top
// and bottom rims sampled finely enough that the projection misses < 1%.
std::vector<glm::vec3> outline(const ContentBounds& b);

struct Framing {
  glm::vec3 target{0.f};
  float distance = 1.f;
};

// The target and distance that put every point of `b` inside the view of a
// camera looking from (yaw, pitch) (OrbitCamera's convention) with vertical
// field of view fov_y and this aspect (width / height), the projection
// centred on the content and the tighter side filled to (1 - margin).
Framing frame_content(const ContentBounds& b, float yaw, float pitch, float fov_y, float aspect,
                      float margin);

}  // namespace cv

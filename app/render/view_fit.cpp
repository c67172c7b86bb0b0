#include "render/view_fit.h"

#include <algorithm>
#include <cmath>

namespace cv {

std::vector<glm::vec3> outline(const ContentBounds& b) {
  std::vector<glm::vec3> pts;
  if (!b.round) {
    for (int i = 0; i < 8; ++i)
      pts.emplace_back(i & 1 ? b.hi.x : b.lo.x, i & 2 ? b.hi.y : b.lo.y, i & 4 ? b.hi.z : b.lo.z);
    return pts;
  }
  // 64 points a rim: a chord misses the circle by 1 - cos(pi/64) = 0.12%.
  const glm::vec3 c = 0.5f * (b.lo + b.hi), r = 0.5f * (b.hi - b.lo);
  constexpr int kSteps = 64;
  for (int i = 0; i < kSteps; ++i) {
    const float a = 6.2831853f * static_cast<float>(i) / kSteps;
    const float x = c.x + r.x * std::cos(a), z = c.z + r.z * std::sin(a);
    pts.emplace_back(x, b.lo.y, z);
    pts.emplace_back(x, b.hi.y, z);
  }
  return pts;
}

Framing frame_content(const ContentBounds& b, float yaw, float pitch, float fov_y, float aspect,
                      float margin) {
  const std::vector<glm::vec3> pts = outline(b);
  // The camera's axes: from the eye towards the target, right and up on screen.
  const glm::vec3 back(std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                       std::cos(pitch) * std::cos(yaw));
  const glm::vec3 fwd = -back;
  const glm::vec3 right = glm::normalize(glm::cross(fwd, glm::vec3(0.f, 1.f, 0.f)));
  const glm::vec3 up = glm::cross(right, fwd);
  const float ty = std::tan(0.5f * fov_y) * (1.f - margin);
  const float tx = ty * (aspect > 0.f ? aspect : 1.f);
  // Relative to the centre c, a point has (x, y) across the view and z along
  // it. With the target at c + right * sx + up * sy and the eye at distance d
  // behind it, the point is inside when |x - sx| <= tx * (d + z) (and so for
  // y): d >= (x - sx) / tx - z and d >= (sx - x) / tx - z. The least d over
  // sx balances the two largest of these: sx = tx * (a - b) / 2, d = (a + b) / 2
  // with a = max(x / tx - z), b = max(-x / tx - z); the same for y; d is the
  // larger of the two.
  const glm::vec3 c = 0.5f * (b.lo + b.hi);
  float ax = -1e30f, bx = -1e30f, ay = -1e30f, by = -1e30f;
  for (const glm::vec3& p : pts) {
    const glm::vec3 o = p - c;
    const float x = glm::dot(o, right), y = glm::dot(o, up), z = glm::dot(o, fwd);
    ax = std::max(ax, x / tx - z), bx = std::max(bx, -x / tx - z);
    ay = std::max(ay, y / ty - z), by = std::max(by, -y / ty - z);
  }
  Framing f;
  f.distance = std::max({0.5f * (ax + bx), 0.5f * (ay + by), 1e-3f});
  // The tighter direction's shift above is exact; in the looser one the
  // content has room to spare, and equal room on screen on both sides is
  // where the largest (x - s) / (d + z) equals the largest (s - x) / (d + z):
  // one increasing and one decreasing function of s, so bisect.
  auto centre = [&](const glm::vec3& axis, float guess, float t) {
    float lo = guess - t * f.distance, hi = guess + t * f.distance;
    for (int i = 0; i < 40; ++i) {
      const float s = 0.5f * (lo + hi);
      float pos = -1e30f, neg = -1e30f;
      for (const glm::vec3& p : pts) {
        const glm::vec3 o = p - c;
        const float x = glm::dot(o, axis), depth = f.distance + glm::dot(o, fwd);
        pos = std::max(pos, (x - s) / depth), neg = std::max(neg, (s - x) / depth);
      }
      (pos > neg ? lo : hi) = s;
    }
    return 0.5f * (lo + hi);
  };
  const float sx = centre(right, 0.5f * tx * (ax - bx), tx);
  const float sy = centre(up, 0.5f * ty * (ay - by), ty);
  f.target = c + right * sx + up * sy;
  return f;
}

}  // namespace cv

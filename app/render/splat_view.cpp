#include "render/splat_view.h"

#include <glm/gtc/matrix_inverse.hpp>

namespace cv {

splat::View splat_view(const glm::mat4& view_proj, int width, int height) {
  splat::View v{};
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) v.m[c * 4 + r] = view_proj[c][r];
  // The eye is the point the projection sends to w = 0 in every direction:
  // inverse(VP) * (0, 0, 1, 0), made affine.
  const glm::vec4 eye = glm::inverse(view_proj) * glm::vec4(0.f, 0.f, 1.f, 0.f);
  v.eye[0] = eye.x / eye.w;
  v.eye[1] = eye.y / eye.w;
  v.eye[2] = eye.z / eye.w;
  v.width = width;
  v.height = height;
  return v;
}

}  // namespace cv

#pragma once
// The splatter's view of a camera: the projection, the eye, the image size.
// Shared by the app's splat renderer and `cudaviz bench splat`.
#include <glm/glm.hpp>

#include "splat/splat.h"

namespace cv {

// m, eye, width and height from view_proj for a width x height image; the
// scene fields (table radius, scalar scale, hide below) are the caller's.
splat::View splat_view(const glm::mat4& view_proj, int width, int height);

}  // namespace cv

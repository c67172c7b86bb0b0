#pragma once
// A table top / floor: a gridded disc at a given height.
#include <glm/glm.hpp>

#include "gl/gl_objects.h"

namespace cv {

class TableRenderer {
 public:
  TableRenderer();
  void draw(float radius, const glm::mat4& view_proj, float height = 0.f);

 private:
  GlProgram program_;
  GlVertexArray vao_;  // core profile needs one bound, even without attributes
  GLint u_view_proj_, u_radius_, u_height_;
};

}  // namespace cv

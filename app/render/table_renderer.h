#pragma once
// The fountain's table top: a gridded disc at y = 0.
#include <glm/glm.hpp>

#include "gl/gl_objects.h"

namespace cv {

class TableRenderer {
 public:
  TableRenderer();
  void draw(float radius, const glm::mat4& view_proj);

 private:
  GlProgram program_;
  GlVertexArray vao_;  // core profile needs one bound, even without attributes
  GLint u_view_proj_, u_radius_;
};

}  // namespace cv

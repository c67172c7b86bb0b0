#pragma once
// Draws polylines (overlays such as the pi scene's quarter circle).
#include <glm/glm.hpp>
#include <vector>

#include "gl/gl_objects.h"

namespace cv {

class LineRenderer {
 public:
  LineRenderer();
  // One line strip; the points are uploaded each call (overlays are tiny).
  void draw(const std::vector<glm::vec3>& points, const glm::vec4& colour,
            const glm::mat4& view_proj);

 private:
  GlProgram program_;
  GlVertexArray vao_;
  GlBuffer vbo_;
  GLint u_view_proj_, u_colour_;
};

}  // namespace cv

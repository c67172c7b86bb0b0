#include "render/line_renderer.h"

#include <glm/gtc/type_ptr.hpp>

#include "embedded_shaders.h"
#include "gl/gl_check.h"
#include "gl/shader_program.h"

namespace cv {

LineRenderer::LineRenderer()
    : program_(build_program("lines", shaders::lines_vert, shaders::lines_frag)),
      vao_(make_vertex_array()),
      vbo_(make_buffer()) {
  u_view_proj_ = glGetUniformLocation(program_.get(), "u_view_proj");
  u_colour_ = glGetUniformLocation(program_.get(), "u_colour");
  check_gl("LineRenderer setup");
}

void LineRenderer::draw(const std::vector<glm::vec3>& points, const glm::vec4& colour,
                        const glm::mat4& view_proj) {
  if (points.size() < 2) return;
  glUseProgram(program_.get());
  glUniformMatrix4fv(u_view_proj_, 1, GL_FALSE, glm::value_ptr(view_proj));
  glUniform4fv(u_colour_, 1, glm::value_ptr(colour));
  glBindVertexArray(vao_.get());
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.get());
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(points.size() * sizeof(glm::vec3)),
               points.data(), GL_STREAM_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  glDrawArrays(GL_LINE_STRIP, 0, static_cast<GLsizei>(points.size()));
  glDisableVertexAttribArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glBindVertexArray(0);
  check_gl("glDrawArrays(lines)");
}

}  // namespace cv

#include "render/table_renderer.h"

#include <glm/gtc/type_ptr.hpp>

#include "embedded_shaders.h"
#include "gl/gl_check.h"
#include "gl/shader_program.h"

namespace cv {

TableRenderer::TableRenderer()
    : program_(build_program("table", shaders::table_vert, shaders::table_frag)),
      vao_(make_vertex_array()) {
  u_view_proj_ = glGetUniformLocation(program_.get(), "u_view_proj");
  u_radius_ = glGetUniformLocation(program_.get(), "u_radius");
  u_height_ = glGetUniformLocation(program_.get(), "u_height");
  check_gl("TableRenderer setup");
}

void TableRenderer::draw(float radius, const glm::mat4& view_proj, float height) {
  glUseProgram(program_.get());
  glUniformMatrix4fv(u_view_proj_, 1, GL_FALSE, glm::value_ptr(view_proj));
  glUniform1f(u_radius_, radius);
  glUniform1f(u_height_, height);
  glBindVertexArray(vao_.get());
  glEnable(GL_DEPTH_TEST);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glDisable(GL_DEPTH_TEST);
  glBindVertexArray(0);
  check_gl("glDrawArrays(table)");
}

}  // namespace cv

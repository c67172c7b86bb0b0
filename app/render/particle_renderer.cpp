#include "render/particle_renderer.h"

#include <algorithm>
#include <glm/gtc/type_ptr.hpp>

#include "embedded_shaders.h"
#include "gl/gl_check.h"
#include "gl/shader_program.h"

namespace cv {

ParticleRenderer::ParticleRenderer()
    : program_(build_program("particles", shaders::particles_vert, shaders::particles_frag)),
      vao_(make_vertex_array()) {
  const GLuint p = program_.get();
  u_view_proj_ = glGetUniformLocation(p, "u_view_proj");
  u_point_size_ = glGetUniformLocation(p, "u_point_size");
  u_scalar_scale_ = glGetUniformLocation(p, "u_scalar_scale");
  u_stops_ = glGetUniformLocation(p, "u_stops");
  u_two_colours_ = glGetUniformLocation(p, "u_two_colours");
  u_from_attr_ = glGetUniformLocation(p, "u_colour_from_attribute");
  u_hide_below_ = glGetUniformLocation(p, "u_hide_below");
  u_opacity_ = glGetUniformLocation(p, "u_opacity");
  u_colour_by_ = glGetUniformLocation(p, "u_colour_by");
  check_gl("ParticleRenderer setup");
}

double ParticleRenderer::total_weight(const ParticleStyle& style, unsigned count,
                                      float eye_distance) {
  // The vertex shader's size: point_size / depth, 1 to 64 pixels. A sprite's
  // alpha opacity * (1 - r^2)^2 sums to opacity * pi * d^2 / 12 over a disc of
  // diameter d; a one-pixel point is its centre, opacity.
  const float d = std::clamp(style.point_size / std::max(eye_distance, 0.05f), 1.f, 64.f);
  const double per = style.opacity * std::max(3.14159265 * d * d / 12.0, 1.0);
  return per * count;
}

void ParticleRenderer::draw(GLuint vbo, unsigned count, const ParticleStyle& style,
                            const glm::mat4& view_proj, bool accumulate) {
  if (count == 0) return;
  glUseProgram(program_.get());
  glUniformMatrix4fv(u_view_proj_, 1, GL_FALSE, glm::value_ptr(view_proj));
  glUniform1f(u_point_size_, style.point_size);
  glUniform1f(u_scalar_scale_, style.scalar_scale);
  const palette::Ramp ramp = palette::ramp(static_cast<int>(style.palette));
  glUniform3fv(u_stops_, 3, &ramp.stops[0].r);
  glUniform1i(u_two_colours_, ramp.two_colours ? 1 : 0);
  glUniform1i(u_from_attr_, style.colours_follow_positions ? 1 : 0);
  glUniform1f(u_hide_below_, style.hide_below);
  glUniform1f(u_opacity_, style.opacity);
  const bool by_launch = style.colour_by > 0 && style.id_vbo != 0;
  glUniform1i(u_colour_by_, by_launch ? style.colour_by : 0);

  glBindVertexArray(vao_.get());
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  if (style.colours_follow_positions) {
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0,
                          reinterpret_cast<const void*>(static_cast<size_t>(count) * 4 * sizeof(float)));
  } else {
    glDisableVertexAttribArray(1);
    glVertexAttrib4f(1, 1.f, 1.f, 1.f, 1.f);
  }
  if (by_launch) {  // one uint32 id a particle, read as an integer attribute
    glBindBuffer(GL_ARRAY_BUFFER, style.id_vbo);
    glEnableVertexAttribArray(2);
    glVertexAttribIPointer(2, 1, GL_UNSIGNED_INT, 0, nullptr);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
  } else {
    glDisableVertexAttribArray(2);
    glVertexAttribI4ui(2, 0, 0, 0, 0);
  }
  glEnable(GL_PROGRAM_POINT_SIZE);
  glEnable(GL_BLEND);
  // Additive glow: dense jets brighten. Coloured by launch, the picture is of
  // ids, not density: nearest particle wins (over-blend, depth written), so a
  // dense core shows its blocks' colours instead of washing out to white.
  // Accumulating: rgb += colour * alpha, a += alpha, in floats (no clipping).
  if (by_launch)
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  else if (accumulate)
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE, GL_ONE, GL_ONE);
  else
    glBlendFunc(GL_SRC_ALPHA, GL_ONE);
  glEnable(GL_DEPTH_TEST);  // the table hides what falls below it
  glDepthMask(by_launch ? GL_TRUE : GL_FALSE);
  glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(count));
  glDepthMask(GL_TRUE);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glBindVertexArray(0);
  check_gl("glDrawArrays(particles)");
}

}  // namespace cv

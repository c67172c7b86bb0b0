#include "render/density_target.h"

#include <string>

#include "embedded_shaders.h"
#include "gl/gl_check.h"
#include "gl/shader_program.h"

namespace cv {

DensityTarget::DensityTarget()
    : fbo_(make_framebuffer()),
      sum_(make_texture()),
      depth_(make_renderbuffer()),
      program_(build_program("density", shaders::splat_vert, shaders::density_frag)),
      vao_(make_vertex_array()) {
  u_sum_ = glGetUniformLocation(program_.get(), "u_sum");
  u_origin_ = glGetUniformLocation(program_.get(), "u_origin");
  u_exposure_ = glGetUniformLocation(program_.get(), "u_exposure");
  check_gl("DensityTarget setup");
}

void DensityTarget::begin(const Viewport& view, bool wide) {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.get());
  if (view.w != w_ || view.h != h_ || wide != wide_) {
    glBindTexture(GL_TEXTURE_2D, sum_.get());
    glTexImage2D(GL_TEXTURE_2D, 0, wide ? GL_RGBA32F : GL_RGBA16F, view.w, view.h, 0, GL_RGBA,
                 GL_FLOAT, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindRenderbuffer(GL_RENDERBUFFER, depth_.get());
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, view.w, view.h);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, sum_.get(), 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_.get());
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      throw GlError("glCheckFramebufferStatus(particle float target " + std::to_string(view.w) +
                    "x" + std::to_string(view.h) + ") = " + std::to_string(status));
    }
    w_ = view.w;
    h_ = view.h;
    wide_ = wide;
  }
  glViewport(0, 0, w_, h_);
  glScissor(0, 0, w_, h_);
  glClearColor(0.f, 0.f, 0.f, 0.f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  check_gl("DensityTarget::begin");
}

void DensityTarget::resolve(const Viewport& view, float exposure) {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(view.x, view.y, view.w, view.h);
  glScissor(view.x, view.y, view.w, view.h);
  glUseProgram(program_.get());
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, sum_.get());
  glUniform1i(u_sum_, 0);
  glUniform2i(u_origin_, view.x, view.y);
  glUniform1f(u_exposure_, exposure);
  glBindVertexArray(vao_.get());
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);  // premultiplied "over"
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glDisable(GL_BLEND);
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_2D, 0);
  check_gl("DensityTarget::resolve");
}

}  // namespace cv

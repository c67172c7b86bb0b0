#pragma once
// One RAII owner per GL object name. Move-only; deleting 0 is a no-op in GL.
#include <glad/gl.h>

#include <utility>

namespace cv {

template <void (*Delete)(GLuint)>
class GlName {
 public:
  GlName() = default;
  explicit GlName(GLuint id) : id_(id) {}
  ~GlName() { if (id_) Delete(id_); }
  GlName(GlName&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
  GlName& operator=(GlName&& o) noexcept {
    if (this != &o) {
      if (id_) Delete(id_);
      id_ = std::exchange(o.id_, 0);
    }
    return *this;
  }
  GlName(const GlName&) = delete;
  GlName& operator=(const GlName&) = delete;
  GLuint get() const { return id_; }

 private:
  GLuint id_ = 0;
};

namespace gl_delete {
inline void buffer(GLuint id) { glDeleteBuffers(1, &id); }
inline void vertex_array(GLuint id) { glDeleteVertexArrays(1, &id); }
inline void program(GLuint id) { glDeleteProgram(id); }
inline void query(GLuint id) { glDeleteQueries(1, &id); }
inline void texture(GLuint id) { glDeleteTextures(1, &id); }
inline void framebuffer(GLuint id) { glDeleteFramebuffers(1, &id); }
inline void renderbuffer(GLuint id) { glDeleteRenderbuffers(1, &id); }
}  // namespace gl_delete

using GlBuffer = GlName<gl_delete::buffer>;
using GlVertexArray = GlName<gl_delete::vertex_array>;
using GlProgram = GlName<gl_delete::program>;
using GlQuery = GlName<gl_delete::query>;
using GlTexture = GlName<gl_delete::texture>;
using GlFramebuffer = GlName<gl_delete::framebuffer>;
using GlRenderbuffer = GlName<gl_delete::renderbuffer>;

// A GL fence sync object (glFenceSync), deleted with the owner.
class GlFence {
 public:
  GlFence() = default;
  ~GlFence() { reset(); }
  GlFence(GlFence&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  GlFence& operator=(GlFence&& o) noexcept {
    if (this != &o) {
      reset();
      s_ = std::exchange(o.s_, nullptr);
    }
    return *this;
  }
  GlFence(const GlFence&) = delete;
  GlFence& operator=(const GlFence&) = delete;
  // Fences all GL commands issued so far (replacing any earlier fence).
  void set() {
    reset();
    s_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  }
  void reset() {
    if (s_) glDeleteSync(s_);
    s_ = nullptr;
  }
  GLsync get() const { return s_; }

 private:
  GLsync s_ = nullptr;
};

inline GlBuffer make_buffer() {
  GLuint id = 0;
  glGenBuffers(1, &id);
  return GlBuffer(id);
}
inline GlVertexArray make_vertex_array() {
  GLuint id = 0;
  glGenVertexArrays(1, &id);
  return GlVertexArray(id);
}
inline GlQuery make_query() {
  GLuint id = 0;
  glGenQueries(1, &id);
  return GlQuery(id);
}
inline GlTexture make_texture() {
  GLuint id = 0;
  glGenTextures(1, &id);
  return GlTexture(id);
}
inline GlFramebuffer make_framebuffer() {
  GLuint id = 0;
  glGenFramebuffers(1, &id);
  return GlFramebuffer(id);
}
inline GlRenderbuffer make_renderbuffer() {
  GLuint id = 0;
  glGenRenderbuffers(1, &id);
  return GlRenderbuffer(id);
}

}  // namespace cv

#include "gl/host_target.h"

#include "gl/gl_check.h"

namespace cv {

HostTarget::HostTarget(size_t bytes) : vbo_(make_buffer()), bytes_(bytes) {
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.get());
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("glBufferData(vertex buffer)");
}

void HostTarget::close(cudaStream_t, const void* host, size_t bytes) {
  if (!host) return;  // nothing put this frame: the buffer keeps its contents
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.get());
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), host);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("glBufferSubData(vertex buffer)");
}

}  // namespace cv

#include "gl/pixel_readback.h"

#include <string>

#include "gl/gl_check.h"

namespace cv {

void read_back_buffer(int w, int h, void* dst, const char* what) {
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, dst);
  check_gl(what);
}

PboRing::PboRing(int w, int h, int depth) : w_(w), h_(h), slots_(static_cast<size_t>(depth)) {
  for (Slot& s : slots_) {
    s.pbo = make_buffer();
    glBindBuffer(GL_PIXEL_PACK_BUFFER, s.pbo.get());
    glBufferData(GL_PIXEL_PACK_BUFFER, static_cast<GLsizeiptr>(frame_bytes()), nullptr,
                 GL_STREAM_READ);
  }
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  check_gl("glBufferData(GL_PIXEL_PACK_BUFFER, recording)");
}

void PboRing::read(const Sink& sink) {
  Slot& slot = slots_[next_];
  if (slot.pending) deliver(slot, sink);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, slot.pbo.get());
  try {
    read_back_buffer(w_, h_, nullptr, "glReadPixels(recording, into a pixel-pack buffer)");
  } catch (...) {
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    throw;
  }
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);  // screenshots read into client memory
  slot.pending = true;
  next_ = (next_ + 1) % slots_.size();
}

void PboRing::drain(const Sink& sink) {
  for (size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[(next_ + i) % slots_.size()];
    if (slot.pending) deliver(slot, sink);
  }
}

void PboRing::deliver(Slot& slot, const Sink& sink) {
  slot.pending = false;
  glBindBuffer(GL_PIXEL_PACK_BUFFER, slot.pbo.get());
  const void* p = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0,
                                   static_cast<GLsizeiptr>(frame_bytes()), GL_MAP_READ_BIT);
  if (!p) {
    const GLenum e = glGetError();
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    throw GlError(std::string("glMapBufferRange(recording pixel-pack buffer) failed: ") +
                  gl_error_name(e));
  }
  try {
    sink(static_cast<const unsigned char*>(p), frame_bytes());
  } catch (...) {
    glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    throw;
  }
  const GLboolean intact = glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  if (!intact) throw GlError("glUnmapBuffer(recording pixel-pack buffer): the contents were lost");
}

}  // namespace cv

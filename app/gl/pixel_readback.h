#pragma once
// Reading the back buffer's pixels: at once into memory (screenshots), or
// through a ring of pixel-pack buffers (recordings), where glReadPixels only
// queues a copy on the GPU and the pixels are mapped a few frames later, when
// the copy has long finished, so the frame never waits for it.
#include <cstddef>
#include <functional>
#include <vector>

#include "gl/gl_objects.h"

namespace cv {

// RGBA8 rows of the w x h rectangle at the back buffer's bottom-left corner,
// bottom row first (GL's origin), into `dst`: client memory, or an offset into
// the bound GL_PIXEL_PACK_BUFFER. Throws GlError naming `what`.
void read_back_buffer(int w, int h, void* dst, const char* what);

class PboRing {
 public:
  // What a finished read is handed to: w * h * 4 bytes, bottom row first.
  using Sink = std::function<void(const unsigned char* rgba, size_t bytes)>;

  // `depth` buffers of w x h RGBA8; throws GlError when GL refuses them.
  PboRing(int w, int h, int depth = 3);
  // Queues a read of the back buffer into the next buffer; when that buffer
  // still holds an earlier read (depth reads ago), hands that one to `sink` first.
  void read(const Sink& sink);
  // Hands every read still in the ring to `sink`, oldest first.
  void drain(const Sink& sink);

  int width() const { return w_; }
  int height() const { return h_; }
  size_t frame_bytes() const { return static_cast<size_t>(w_) * h_ * 4; }

 private:
  struct Slot {
    GlBuffer pbo;
    bool pending = false;  // holds a read not yet handed out
  };
  void deliver(Slot& slot, const Sink& sink);

  int w_, h_;
  std::vector<Slot> slots_;
  size_t next_ = 0;  // the slot the next read goes into (the oldest pending one)
};

}  // namespace cv

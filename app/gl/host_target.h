#pragma once
// The CPU backend's vertex target: a GL buffer that the simulation's host
// memory is uploaded into (glBufferSubData) when a write closes. Nothing to
// wait for: the upload orders itself in GL's stream.
#include "gl/vertex_target.h"

namespace cv {

class HostTarget final : public VertexTarget {
 public:
  // Allocates `bytes` of VBO; throws GlError on failure.
  explicit HostTarget(size_t bytes);

  size_t bytes() const override { return bytes_; }
  TransferMode mode() const override { return TransferMode::HostUpload; }
  bool double_buffered() const override { return false; }
  GLuint vbo() const override { return vbo_.get(); }

 protected:
  Opened open(cudaStream_t, bool) override { return {}; }
  void close(cudaStream_t, const void* host, size_t bytes) override;

 private:
  GlBuffer vbo_;
  size_t bytes_;
};

}  // namespace cv

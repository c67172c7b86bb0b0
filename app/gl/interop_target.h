#pragma once
// The CUDA backends' vertex target: an InteropBuffer (external memory, mapped
// VBO or copy fallback, one buffer or a ping-pong pair) behind VertexTarget.
// A write is map_next() on a pair (front read-only, back write-discard,
// swapped at close) and map() in place on one buffer; a read is map() of the
// front, read-only.
#include <optional>

#include "gl/interop_buffer.h"
#include "gl/vertex_target.h"

namespace cv {

class InteropTarget final : public VertexTarget {
 public:
  // See InteropBuffer's constructor (throws the same, leaving nothing).
  InteropTarget(size_t bytes, InteropPath start, bool double_buffer)
      : buffer_(bytes, Backend::Cuda, start, double_buffer) {}

  size_t bytes() const override { return buffer_.bytes(); }
  TransferMode mode() const override { return buffer_.mode(); }
  bool double_buffered() const override { return buffer_.double_buffered(); }
  std::string fallback_reason() const override { return buffer_.fallback_reason(); }
  void wait_for_gpu() override { buffer_.wait_for_gpu(); }
  GLuint vbo() const override { return buffer_.vbo(); }
  float take_sync_wait_ms() override { return buffer_.take_sync_wait_ms(); }
  InteropBuffer* interop() override { return &buffer_; }

 protected:
  Opened open(cudaStream_t stream, bool read_only) override;
  void close(cudaStream_t stream, const void* host, size_t bytes) override;

 private:
  InteropBuffer buffer_;
  std::optional<InteropBuffer::Mapping> mapping_;  // the open access
};

}  // namespace cv

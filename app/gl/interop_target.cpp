#include "gl/interop_target.h"

namespace cv {

VertexTarget::Opened InteropTarget::open(cudaStream_t stream, bool read_only) {
  if (read_only)
    mapping_.emplace(buffer_.map(stream, InteropBuffer::Access::ReadOnly));
  else
    mapping_.emplace(buffer_.double_buffered() ? buffer_.map_next(stream) : buffer_.map(stream));
  return {mapping_->device_ptr(), mapping_->source_ptr()};
}

void InteropTarget::close(cudaStream_t, const void*, size_t) {
  // put() already copied its bytes into the device memory.
  if (!mapping_) return;
  InteropBuffer::Mapping m = std::move(*mapping_);
  mapping_.reset();
  m.unmap();
}

}  // namespace cv

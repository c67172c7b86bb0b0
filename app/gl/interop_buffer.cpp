#include "gl/interop_buffer.h"

#include <cuda_gl_interop.h>

#include "common/cuda_check.h"
#include "gl/gl_check.h"

namespace cv {

const char* to_string(TransferMode m) {
  switch (m) {
    case TransferMode::Interop: return "interop";
    case TransferMode::CopyFallback: return "copy fallback";
    default: return "host upload";
  }
}

InteropBuffer::InteropBuffer(size_t bytes, Backend backend, bool force_copy) : bytes_(bytes) {
  vbo_ = make_buffer();
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.get());
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("glBufferData(vertex buffer)");
  if (backend == Backend::Cpu) return;

  if (force_copy) {
    fallback_reason_ = "copy path forced";
  } else {
    cudaError_t e = cudaGraphicsGLRegisterBuffer(&resource_, vbo_.get(), cudaGraphicsRegisterFlagsNone);
    if (e == cudaSuccess) {
      mode_ = TransferMode::Interop;
      return;
    }
    resource_ = nullptr;
    cudaGetLastError();  // registration failures are sticky until read
    fallback_reason_ = std::string("cudaGraphicsGLRegisterBuffer: ") + cudaGetErrorName(e);
  }
  mode_ = TransferMode::CopyFallback;
  staging_ = DeviceBuffer<unsigned char>(bytes);
  pinned_ = PinnedBuffer<unsigned char>(bytes);
}

InteropBuffer::~InteropBuffer() {
  if (resource_) cudaGraphicsUnregisterResource(resource_);
}

InteropBuffer::Mapping InteropBuffer::map(cudaStream_t stream, Access access) {
  if (mode_ == TransferMode::HostUpload) throw std::logic_error("InteropBuffer::map on the CPU backend");
  if (mode_ == TransferMode::CopyFallback) return Mapping(this, staging_.get(), stream, access);
  CV_CUDA(cudaGraphicsMapResources(1, &resource_, stream));
  void* ptr = nullptr;
  size_t size = 0;
  cudaError_t e = cudaGraphicsResourceGetMappedPointer(&ptr, &size, resource_);
  if (e != cudaSuccess) {
    cudaGraphicsUnmapResources(1, &resource_, stream);
    throw CudaError("cudaGraphicsResourceGetMappedPointer", e);
  }
  return Mapping(this, ptr, stream, access);
}

void InteropBuffer::close(cudaStream_t stream, Access access) {
  if (mode_ == TransferMode::Interop) {
    CV_CUDA(cudaGraphicsUnmapResources(1, &resource_, stream));
    return;
  }
  if (access == Access::ReadOnly) return;
  // Copy fallback: bring the frame to the host, then into the VBO.
  CV_CUDA(cudaMemcpyAsync(pinned_.get(), staging_.get(), bytes_, cudaMemcpyDeviceToHost, stream));
  CV_CUDA(cudaStreamSynchronize(stream));
  upload(pinned_.get(), bytes_);
}

void InteropBuffer::upload(const void* host, size_t bytes) {
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.get());
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), host);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("glBufferSubData(vertex buffer)");
}

InteropBuffer::Mapping::Mapping(Mapping&& o) noexcept
    : owner_(std::exchange(o.owner_, nullptr)), ptr_(o.ptr_), stream_(o.stream_), access_(o.access_) {}

void InteropBuffer::Mapping::unmap() {
  if (!owner_) return;
  InteropBuffer* owner = std::exchange(owner_, nullptr);
  owner->close(stream_, access_);
}

InteropBuffer::Mapping::~Mapping() {
  try {
    unmap();
  } catch (...) {
    // Errors are reported by an explicit unmap(); a scope left by an exception
    // must not throw again.
  }
}

}  // namespace cv

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

namespace {

GlBuffer allocate_vbo(size_t bytes) {
  GlBuffer vbo = make_buffer();
  glBindBuffer(GL_ARRAY_BUFFER, vbo.get());
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("glBufferData(vertex buffer)");
  return vbo;
}

}  // namespace

InteropBuffer::InteropBuffer(size_t bytes, Backend backend, bool force_copy, bool double_buffer)
    : bytes_(bytes) {
  vbo_[0] = allocate_vbo(bytes);
  if (backend == Backend::Cpu) return;

  if (force_copy) {
    fallback_reason_ = "copy path forced";
  } else {
    cudaError_t e =
        cudaGraphicsGLRegisterBuffer(&resource_[0], vbo_[0].get(), cudaGraphicsRegisterFlagsNone);
    if (e == cudaSuccess) {
      mode_ = TransferMode::Interop;
      if (double_buffer) {
        vbo_[1] = allocate_vbo(bytes);
        e = cudaGraphicsGLRegisterBuffer(&resource_[1], vbo_[1].get(),
                                         cudaGraphicsRegisterFlagsNone);
        if (e != cudaSuccess) {
          resource_[1] = nullptr;
          cudaGraphicsUnregisterResource(resource_[0]);
          throw CudaError("cudaGraphicsGLRegisterBuffer(second vertex buffer)", e);
        }
      }
      return;
    }
    resource_[0] = nullptr;
    cudaGetLastError();  // registration failures are sticky until read
    fallback_reason_ = std::string("cudaGraphicsGLRegisterBuffer: ") + cudaGetErrorName(e);
  }
  mode_ = TransferMode::CopyFallback;
  staging_ = DeviceBuffer<unsigned char>(bytes);
  pinned_ = PinnedBuffer<unsigned char>(bytes);
}

InteropBuffer::~InteropBuffer() {
  for (cudaGraphicsResource* r : resource_)
    if (r) cudaGraphicsUnregisterResource(r);
}

// Map flags are a promise to the driver: read-only lets it skip writing back,
// write-discard lets it skip preserving (and waiting to preserve) the contents.
void InteropBuffer::set_map_flags(int k, unsigned flags) {
  if (map_flags_[k] == flags) return;
  CV_CUDA(cudaGraphicsResourceSetMapFlags(resource_[k], flags));
  map_flags_[k] = flags;
}

void* InteropBuffer::mapped_pointer(int k) {
  void* ptr = nullptr;
  size_t size = 0;
  CV_CUDA(cudaGraphicsResourceGetMappedPointer(&ptr, &size, resource_[k]));
  return ptr;
}

InteropBuffer::Mapping InteropBuffer::map(cudaStream_t stream, Access access) {
  if (mode_ == TransferMode::HostUpload)
    throw std::logic_error("InteropBuffer::map on the CPU backend");
  if (mode_ == TransferMode::CopyFallback)
    return Mapping(this, staging_.get(), staging_.get(), stream, access, false);
  set_map_flags(
      front_, access == Access::ReadOnly ? cudaGraphicsMapFlagsReadOnly : cudaGraphicsMapFlagsNone);
  CV_CUDA(cudaGraphicsMapResources(1, &resource_[front_], stream));
  try {
    void* ptr = mapped_pointer(front_);
    return Mapping(this, ptr, ptr, stream, access, false);
  } catch (...) {
    cudaGraphicsUnmapResources(1, &resource_[front_], stream);
    throw;
  }
}

InteropBuffer::Mapping InteropBuffer::map_next(cudaStream_t stream) {
  if (!double_buffered()) return map(stream);
  const int back = 1 - front_;
  set_map_flags(front_, cudaGraphicsMapFlagsReadOnly);
  set_map_flags(back, cudaGraphicsMapFlagsWriteDiscard);
  cudaGraphicsResource* both[2] = {resource_[front_], resource_[back]};
  CV_CUDA(cudaGraphicsMapResources(2, both, stream));
  try {
    const void* source = mapped_pointer(front_);
    return Mapping(this, mapped_pointer(back), source, stream, Access::ReadWrite, true);
  } catch (...) {
    cudaGraphicsUnmapResources(2, both, stream);
    throw;
  }
}

void InteropBuffer::close(cudaStream_t stream, Access access, bool advance) {
  if (mode_ == TransferMode::Interop) {
    if (advance) {
      cudaGraphicsResource* both[2] = {resource_[front_], resource_[1 - front_]};
      CV_CUDA(cudaGraphicsUnmapResources(2, both, stream));
      front_ = 1 - front_;
    } else {
      CV_CUDA(cudaGraphicsUnmapResources(1, &resource_[front_], stream));
    }
    return;
  }
  if (access == Access::ReadOnly) return;
  // Copy fallback: bring the frame to the host, then into the VBO.
  CV_CUDA(cudaMemcpyAsync(pinned_.get(), staging_.get(), bytes_, cudaMemcpyDeviceToHost, stream));
  CV_CUDA(cudaStreamSynchronize(stream));
  upload(pinned_.get(), bytes_);
}

void InteropBuffer::upload(const void* host, size_t bytes) {
  glBindBuffer(GL_ARRAY_BUFFER, vbo_[front_].get());
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), host);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("glBufferSubData(vertex buffer)");
}

InteropBuffer::Mapping::Mapping(Mapping&& o) noexcept
    : owner_(std::exchange(o.owner_, nullptr)),
      ptr_(o.ptr_),
      source_(o.source_),
      stream_(o.stream_),
      access_(o.access_),
      advance_(o.advance_) {}

void InteropBuffer::Mapping::unmap() {
  if (!owner_) return;
  InteropBuffer* owner = std::exchange(owner_, nullptr);
  owner->close(stream_, access_, advance_);
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

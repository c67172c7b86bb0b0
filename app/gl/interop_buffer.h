#pragma once
// A GL vertex buffer that simulations write into each frame.
//
// With CUDA, the VBO is registered once (cudaGraphicsGLRegisterBuffer) and each
// frame opens a Mapping: map, hand the device pointer to kernels, unmap before
// drawing. When registration fails (GL runs on another device, e.g. Mesa under
// Xvfb while CUDA sees a GPU) the buffer falls back to a device staging buffer
// that is copied device -> host -> glBufferSubData when the mapping closes.
// On the CPU backend the caller uploads host data directly.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "common/cuda_resources.h"
#include "common/device_info.h"
#include "gl/gl_objects.h"

struct cudaGraphicsResource;

namespace cv {

enum class TransferMode { Interop, CopyFallback, HostUpload };
const char* to_string(TransferMode m);  // "interop", "copy fallback", "host upload"

class InteropBuffer {
 public:
  // Allocates `bytes` of VBO (and, where needed, staging memory). force_copy
  // skips registration (tests compare both paths). Throws GlError/CudaError on
  // allocation failure, leaving nothing behind.
  InteropBuffer(size_t bytes, Backend backend, bool force_copy = false);
  ~InteropBuffer();
  InteropBuffer(const InteropBuffer&) = delete;
  InteropBuffer& operator=(const InteropBuffer&) = delete;

  GLuint vbo() const { return vbo_.get(); }
  size_t bytes() const { return bytes_; }
  TransferMode mode() const { return mode_; }
  // Why registration failed ("" with real interop).
  const std::string& fallback_reason() const { return fallback_reason_; }

  // ReadOnly scopes promise not to write: in copy-fallback mode their close
  // skips the device -> host -> GL upload (nothing changed).
  enum class Access { ReadWrite, ReadOnly };

  // The map scope: device_ptr() is valid until unmap() or destruction. unmap()
  // reports errors by throwing; the destructor unmaps quietly if still open.
  class Mapping {
   public:
    Mapping(Mapping&& o) noexcept;
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    Mapping& operator=(Mapping&&) = delete;
    ~Mapping();
    void* device_ptr() const { return ptr_; }
    void unmap();

   private:
    friend class InteropBuffer;
    Mapping(InteropBuffer* owner, void* ptr, cudaStream_t s, Access a)
        : owner_(owner), ptr_(ptr), stream_(s), access_(a) {}
    InteropBuffer* owner_;
    void* ptr_;
    cudaStream_t stream_;
    Access access_;
  };
  Mapping map(cudaStream_t stream, Access access = Access::ReadWrite);  // CUDA backends only

  // HostUpload: copies `bytes` from host memory into the VBO.
  void upload(const void* host, size_t bytes);

 private:
  void close(cudaStream_t stream, Access access);

  GlBuffer vbo_;
  size_t bytes_ = 0;
  TransferMode mode_ = TransferMode::HostUpload;
  std::string fallback_reason_;
  cudaGraphicsResource* resource_ = nullptr;
  DeviceBuffer<unsigned char> staging_;  // copy fallback: the data lives here
  PinnedBuffer<unsigned char> pinned_;   // copy fallback: host bounce buffer
};

}  // namespace cv

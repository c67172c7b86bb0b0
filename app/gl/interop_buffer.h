#pragma once
// A GL vertex buffer that simulations write into each frame.
//
// With CUDA, the VBO is registered once (cudaGraphicsGLRegisterBuffer) and each
// frame opens a Mapping: map, hand the device pointer to kernels, unmap before
// drawing. When registration fails (GL runs on another device, e.g. Mesa under
// Xvfb while CUDA sees a GPU) the buffer falls back to a device staging buffer
// that is copied device -> host -> glBufferSubData when the mapping closes.
// On the CPU backend the caller uploads host data directly.
//
// Double-buffered (ping-pong, as NVIDIA's nbody sample): two VBOs registered
// once; map_next() maps the front read-only and the back write-discard, the
// kernel reads one and writes the other, and closing swaps them, so CUDA never
// writes a buffer GL may still be drawing from the previous frame and the map
// has no GL draw to wait for. vbo() is always the front (the latest frame).
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
  // double_buffer: two VBOs in interop mode (map_next()); ignored otherwise.
  InteropBuffer(size_t bytes, Backend backend, bool force_copy = false, bool double_buffer = false);
  ~InteropBuffer();
  InteropBuffer(const InteropBuffer&) = delete;
  InteropBuffer& operator=(const InteropBuffer&) = delete;

  GLuint vbo() const { return vbo_[front_].get(); }
  bool double_buffered() const { return resource_[1] != nullptr; }
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
    // map_next(): the previous frame (read-only); the same as device_ptr()
    // when single-buffered or copying.
    const void* source_ptr() const { return source_; }
    void unmap();

   private:
    friend class InteropBuffer;
    Mapping(InteropBuffer* owner, void* ptr, const void* source, cudaStream_t s, Access a,
            bool advance)
        : owner_(owner), ptr_(ptr), source_(source), stream_(s), access_(a), advance_(advance) {}
    InteropBuffer* owner_;
    void* ptr_;
    const void* source_;
    cudaStream_t stream_;
    Access access_;
    bool advance_;  // map_next(): unmap both, then the back becomes the front
  };
  // The front buffer (CUDA backends only).
  Mapping map(cudaStream_t stream, Access access = Access::ReadWrite);
  // The next frame: device_ptr() to write (every byte: write-discard when
  // double-buffered), source_ptr() the current frame to read.
  Mapping map_next(cudaStream_t stream);

  // HostUpload: copies `bytes` from host memory into the VBO.
  void upload(const void* host, size_t bytes);

 private:
  void close(cudaStream_t stream, Access access, bool advance);
  void set_map_flags(int k, unsigned flags);
  void* mapped_pointer(int k);

  GlBuffer vbo_[2];
  int front_ = 0;
  size_t bytes_ = 0;
  TransferMode mode_ = TransferMode::HostUpload;
  std::string fallback_reason_;
  cudaGraphicsResource* resource_[2] = {nullptr, nullptr};
  unsigned map_flags_[2] = {0, 0};       // cudaGraphicsMapFlags last set on each
  DeviceBuffer<unsigned char> staging_;  // copy fallback: the data lives here
  PinnedBuffer<unsigned char> pinned_;   // copy fallback: host bounce buffer
};

}  // namespace cv

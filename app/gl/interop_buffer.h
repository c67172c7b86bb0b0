#pragma once
// A GL vertex (or pixel) buffer that CUDA kernels write into each frame.
// Three paths behind one interface, chosen once at construction down the
// chain in interop_path.h, the reason for each step down in fallback_reason():
//
// External (no per-frame map): CUDA allocates exportable memory (cuMemCreate)
// and GL imports it once as the buffer's storage (external_memory.h). map()
// and map_next() only hand out device pointers; ordering is explicit, since
// CUDA cannot export a semaphore for GL to wait on:
//  - GL after CUDA: closing a write records an event on the stream;
//    wait_for_gpu(), called before GL reads vbo(), waits for it on the CPU
//    (cudaEventSynchronize; by draw time the kernel is normally done).
//  - CUDA after GL: map_next() fences GL (glFenceSync) before the buffer it
//    reads becomes the one written next frame, and waits for the fence set a
//    frame earlier on the buffer it hands out to write (glClientWaitSync):
//    that fence follows the previous frame's draw of it, so it has normally
//    signalled. A single buffer written in place by map() waits for all GL
//    work so far (a fence set and waited at once).
//  - CUDA readers on another stream wait for the last write (cudaStreamWaitEvent).
//  CPU time spent in these waits accumulates in take_sync_wait_ms().
//
// Map: the VBO is registered once (cudaGraphicsGLRegisterBuffer) and each
// frame opens a Mapping: map, hand the device pointer to kernels, unmap before
// drawing (on NVIDIA GLX each map costs ~0.3 ms of CPU time, GPU idle).
// Copy: a device staging buffer copied device -> host -> glBufferSubData when
// the mapping closes (GL on another device, e.g. Mesa under Xvfb).
// CUDA backends only: the CPU backend's vertices go through HostTarget
// (host_target.h); both are VertexTargets (interop_target.h wraps this one).
//
// Double-buffered (ping-pong, as NVIDIA's nbody sample): two buffers;
// map_next() hands out the front to read and the back to write (write-discard
// when mapped), and closing swaps them, so CUDA never writes a buffer GL may
// still be drawing from the previous frame. vbo() is always the front.
// vbo() never blocks: the wait is wait_for_gpu(), an explicit call.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "common/cuda_resources.h"
#include "common/device_info.h"
#include "gl/external_memory.h"
#include "gl/gl_objects.h"
#include "gl/interop_path.h"

struct cudaGraphicsResource;

namespace cv {

class InteropBuffer {
 public:
  // Allocates `bytes` of VBO (and, where needed, staging memory), trying the
  // paths from `start` down (tests compare them). Throws GlError/CudaError on
  // allocation failure, leaving nothing behind; std::logic_error for
  // Backend::Cpu (its vertices are a HostTarget's).
  // double_buffer: two buffers on the external and map paths (map_next()).
  InteropBuffer(size_t bytes, Backend backend, InteropPath start = InteropPath::External,
                bool double_buffer = false);
  ~InteropBuffer();
  InteropBuffer(const InteropBuffer&) = delete;
  InteropBuffer& operator=(const InteropBuffer&) = delete;

  // Before GL reads the front buffer: on the external path the CPU waits
  // until CUDA's last write to it has finished (a no-op elsewhere, and when
  // already waited for). The time counts in take_sync_wait_ms().
  void wait_for_gpu();
  // The front buffer's GL name; never waits (see wait_for_gpu()).
  GLuint vbo() const;
  bool double_buffered() const { return resource_[1] != nullptr || ext_[1] != nullptr; }
  // External path: which exported allocation (0 or 1) holds `device_ptr`, its
  // size and, with want_fd, a new POSIX fd of it (the caller closes it), so
  // another process (usercode's runner) can write it. nullopt on other paths.
  struct Exported {
    int index = -1;
    int fd = -1;
    size_t bytes = 0;
  };
  std::optional<Exported> export_allocation(const void* device_ptr, bool want_fd) const;
  size_t bytes() const { return bytes_; }
  TransferMode mode() const { return mode_; }
  // Why better paths were skipped ("" when the first one tried works).
  const std::string& fallback_reason() const { return fallback_reason_; }
  // Each path's own failure ("" when it worked or was not tried), for
  // `cudaviz doctor`, which lists them in the chain's order.
  const std::string& external_error() const { return external_error_; }
  const std::string& map_error() const { return map_error_; }

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

  // External path: CPU ms spent waiting for CUDA or GL since the last call.
  float take_sync_wait_ms() { return std::exchange(sync_wait_ms_, 0.f); }

 private:
  std::string try_external(size_t bytes, bool double_buffer);  // "" on success
  std::string try_map(bool double_buffer);                     // "" on success
  void close(cudaStream_t stream, Access access, bool advance);
  void close_external(cudaStream_t stream, Access access, bool advance);
  Mapping map_external(cudaStream_t stream, Access access);
  Mapping map_next_external(cudaStream_t stream);
  void wait_fence(int k);
  void set_map_flags(int k, unsigned flags);
  void* mapped_pointer(int k);
  void upload(const void* host, size_t bytes);  // copy fallback: host -> VBO

  // External path: the imported memory and its GL buffers (vbo_ stays empty).
  std::unique_ptr<ExternalBuffer> ext_[2];
  std::optional<CudaEvent> written_[2];  // recorded when CUDA's write closed
  bool gl_must_wait_[2] = {false, false};
  GlFence fence_[2];  // GL's reads before CUDA's next write
  float sync_wait_ms_ = 0.f;
  GlBuffer vbo_[2];
  int front_ = 0;
  size_t bytes_ = 0;
  TransferMode mode_ = TransferMode::HostUpload;
  std::string fallback_reason_;
  std::string external_error_, map_error_;
  cudaGraphicsResource* resource_[2] = {nullptr, nullptr};
  unsigned map_flags_[2] = {0, 0};       // cudaGraphicsMapFlags last set on each
  DeviceBuffer<unsigned char> staging_;  // copy fallback: the data lives here
  PinnedBuffer<unsigned char> pinned_;   // copy fallback: host bounce buffer
};

}  // namespace cv

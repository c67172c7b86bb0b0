#pragma once
// "The particles": where a scene's simulation writes its vertices for GL to
// draw, without the scene knowing where they live (instant-ngp's render buffer:
// render code never knows whether it writes a GL object or CUDA memory).
// Two implementations, made once from the backend by make_vertex_target():
//  - InteropTarget (interop_target.h): CUDA writes device memory that GL reads,
//    down InteropBuffer's chain (external memory / mapped VBO / copy fallback),
//    ping-pong where the simulation can read one buffer and write the other.
//  - HostTarget (host_target.h): the CPU backend; the simulation hands over
//    host memory and the close uploads it with glBufferSubData.
//
// A frame's write is a scope (VertexWrite): device pointers for kernels (the
// previous frame to read, the next one to write), or put() of host data
// (the CPU twin's vertices, a runner's reply) that any target accepts.
//
// GL reads the front buffer, vbo(), which never blocks: the wait for the GPU's
// last write is the explicit wait_for_gpu(), called where the frame hands the
// particles to GL (core/scene_view.cpp) and before the splatter's upload.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>

#include "common/device_info.h"
#include "gl/gl_objects.h"
#include "gl/interop_path.h"

namespace cv {

class InteropBuffer;
class VertexTarget;

// One frame's access to a vertex target, open until close() or destruction
// (RAII: the destructor closes quietly; an explicit close() throws on error).
class VertexWrite {
 public:
  VertexWrite(VertexWrite&& o) noexcept;
  VertexWrite(const VertexWrite&) = delete;
  VertexWrite& operator=(const VertexWrite&) = delete;
  VertexWrite& operator=(VertexWrite&&) = delete;
  ~VertexWrite();

  // Device memory to write, every byte (nullptr on the host target).
  void* device() const { return device_; }
  // The previous frame to read: the other buffer of a ping-pong pair, else
  // device() itself (nullptr on the host target).
  const void* source() const { return source_; }
  bool on_device() const { return device_ != nullptr; }
  cudaStream_t stream() const { return stream_; }
  // This frame's contents from host memory (at most the target's bytes): CUDA
  // targets copy it into device() now, on stream(); the host target uploads it
  // at close, so `host` must stay valid until then. Throws on a read scope,
  // on too many bytes, or with the call's error.
  void put(const void* host, size_t bytes);
  // Ends the access: unmaps / records the write for GL / uploads.
  void close();

 private:
  friend class VertexTarget;
  VertexWrite(VertexTarget* owner, void* device, const void* source, cudaStream_t s, bool read_only)
      : owner_(owner), device_(device), source_(source), stream_(s), read_only_(read_only) {}
  VertexTarget* owner_;
  void* device_;
  const void* source_;
  cudaStream_t stream_;
  bool read_only_;
  const void* host_ = nullptr;  // put() on the host target: uploaded at close
  size_t host_bytes_ = 0;
};

class VertexTarget {
 public:
  virtual ~VertexTarget() = default;
  VertexTarget() = default;
  VertexTarget(const VertexTarget&) = delete;
  VertexTarget& operator=(const VertexTarget&) = delete;

  virtual size_t bytes() const = 0;
  virtual TransferMode mode() const = 0;
  // Two buffers (CUDA writes the back while GL may still draw the front).
  virtual bool double_buffered() const = 0;
  // Why better transfer paths were skipped ("" when none was).
  virtual std::string fallback_reason() const { return ""; }

  // The next frame, written in full: the back of a pair (write-discard) with
  // the front as source(), else the one buffer in place. One scope at a time.
  VertexWrite write(cudaStream_t stream);
  // The current frame for CUDA to read (device(), no put): the front buffer.
  VertexWrite read(cudaStream_t stream);

  // The explicit wait before GL reads vbo(): on the external path the CPU
  // waits here for CUDA's last write (elsewhere the unmap or upload already
  // ordered it). Its time counts in take_sync_wait_ms().
  virtual void wait_for_gpu() {}
  // The front buffer's GL name. Never waits: call wait_for_gpu() first.
  virtual GLuint vbo() const = 0;
  // CPU ms spent waiting for CUDA or GL since the last call (external path).
  virtual float take_sync_wait_ms() { return 0.f; }
  // The interop buffer behind a CUDA target (the splatter reads it, the
  // student's runner writes its exported memory); nullptr on the host target.
  virtual InteropBuffer* interop() { return nullptr; }
  const InteropBuffer* interop() const { return const_cast<VertexTarget*>(this)->interop(); }

 protected:
  friend class VertexWrite;
  struct Opened {
    void* device = nullptr;
    const void* source = nullptr;
  };
  virtual Opened open(cudaStream_t stream, bool read_only) = 0;
  // `host`: the bytes put() left for the close (host target), else nullptr.
  virtual void close(cudaStream_t stream, const void* host, size_t bytes) = 0;

 private:
  bool open_ = false;  // one scope at a time
};

// The target for this backend: HostTarget on the CPU, else an InteropTarget
// down the chain from `interop.start`, a ping-pong pair when `ping_pong` and
// not `interop.single`. Throws GlError / CudaError / bad_alloc, leaving nothing.
std::unique_ptr<VertexTarget> make_vertex_target(size_t bytes, Backend backend,
                                                 const InteropConfig& interop, bool ping_pong);

}  // namespace cv

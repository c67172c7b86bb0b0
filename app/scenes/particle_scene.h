#pragma once
// What every simulated scene shares: a vertex buffer the simulation writes
// into (InteropBuffer), a stream, the block shape the user chose, and the
// timers for the plots. Subclasses supply the simulation (GPU and CPU twin).
#include <memory>
#include <optional>
#include <string>

#include <glm/glm.hpp>

#include "common/block_shape.h"
#include "common/cuda_resources.h"
#include "common/device_info.h"
#include "gl/interop_buffer.h"
#include "render/particle_renderer.h"
#include "timing/frame_timers.h"

namespace cv {

class ParticleScene {
 public:
  explicit ParticleScene(Backend backend);
  virtual ~ParticleScene() = default;

  virtual const char* name() const = 0;
  virtual ParticleStyle style() const = 0;
  virtual unsigned count() const = 0;

  // One simulation step into the vertex buffer, timed. Throws CudaError /
  // std::runtime_error on failure; the caller reports it and stops stepping.
  void step();
  // Restores the initial state (same seed, same frames after it).
  virtual void reset() = 0;

  // Applies on the next step; returns the reason and keeps the current shape
  // when the shape is invalid for this backend's limits.
  std::optional<std::string> set_block(const BlockShape& b);
  const BlockShape& block() const { return block_; }

  Backend backend() const { return backend_; }
  TransferMode transfer_mode() const { return buffer_ ? buffer_->mode() : TransferMode::HostUpload; }
  std::string transfer_note() const;
  GLuint vbo() const { return buffer_ ? buffer_->vbo() : 0; }

  History kernel_ms{240};  // the simulation kernel alone (CUDA events) or the CPU step
  History step_ms{240};    // map + kernel + unmap (or copy fallback), or CPU step + upload
  long long steps() const { return steps_; }

 protected:
  virtual void simulate_gpu(float4* vbo, cudaStream_t s, const BlockShape& b) = 0;
  virtual void simulate_cpu() = 0;
  virtual const void* cpu_vertices() const = 0;
  virtual size_t vertex_bytes() const = 0;

  // For subclasses' reset(): runs `write` with the mapped buffer (CUDA) or
  // uploads cpu_vertices() afterwards (CPU).
  template <typename F>
  void write_buffer(F&& write) {
    if (backend_ == Backend::Cuda) {
      auto m = buffer_->map(stream_->get());
      write(static_cast<float4*>(m.device_ptr()), stream_->get());
      m.unmap();
    } else {
      write(nullptr, nullptr);
      buffer_->upload(cpu_vertices(), vertex_bytes());
    }
  }
  // Allocates a vertex buffer of `bytes` for this backend (may throw).
  std::unique_ptr<InteropBuffer> make_buffer(size_t bytes) const;

  Backend backend_;
  BlockShape block_{16, 16, 1};
  std::unique_ptr<InteropBuffer> buffer_;
  std::optional<CudaStream> stream_;
  std::optional<CudaTimerRing> kernel_timer_, step_timer_;
  long long steps_ = 0;
  bool force_copy_ = false;
};

}  // namespace cv

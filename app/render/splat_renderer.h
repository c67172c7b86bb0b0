#pragma once
// Draws very large particle buffers through the CUDA splatter (kernels/splat)
// instead of GL points: the H100's GL point pipeline manages ~0.4 G points/s
// (40 ms a frame at 16M), the splatter a few ms less than that per frame.
// Each frame: map the particle VBO read-only and the image PBO, splat, unmap,
// then upload PBO -> texture (GPU-side) and composite with additive blending.
// CUDA backends only; the image goes through the same InteropBuffer (with its
// fallback chain) as the particles: on the external-memory path the "maps"
// only hand out pointers, the splatter reads the scene's buffer and writes the
// image PBO's memory directly.
#include <cuda_runtime_api.h>

#include <glm/glm.hpp>
#include <memory>

#include "common/block_shape.h"
#include "gl/gl_objects.h"
#include "gl/interop_buffer.h"
#include "render/particle_renderer.h"
#include "splat/splat.h"
#include "timing/frame_timers.h"

namespace cv {

class SplatRenderer {
 public:
  // interop: where its image buffer's transfer chain starts (the configuration's).
  explicit SplatRenderer(const InteropConfig& interop);
  ~SplatRenderer();
  SplatRenderer(const SplatRenderer&) = delete;
  SplatRenderer& operator=(const SplatRenderer&) = delete;

  // CUDA work of the frame, timed with events into splat_ms. Throws
  // CudaError/GlError/std::invalid_argument (bad block) on failure.
  void render(InteropBuffer& vertices, unsigned count, const ParticleStyle& style,
              const glm::mat4& view_proj, float table_radius, int width, int height,
              cudaStream_t stream);
  // GL work, after render(): upload() copies the image PBO into the texture
  // (GL waits there for the CUDA splat, so it is timed on its own:
  // poll_upload_times()); draw() composites the texture over the view whose
  // bottom-left corner is (x, y) in the window (the viewport set by the caller).
  void upload();
  void draw(int x, int y);
  std::vector<float> poll_upload_times() { return upload_timer_.poll(); }

  TransferMode transfer_mode() const { return image_ ? image_->mode() : TransferMode::Interop; }
  // GPU times (ms) of earlier frames' render() that have completed since the last call.
  std::vector<float> poll_times() { return timer_.poll(); }
  // The same frames' parts: the two maps (with any wait for GL) and the splat kernels.
  std::vector<float> poll_map_times() { return map_timer_.poll(); }
  std::vector<float> poll_kernel_times() { return kernel_timer_.poll(); }
  // External path: CPU ms waited for the splat before GL's upload (and for GL
  // before CUDA rewrote an image) since the last call.
  float take_sync_wait_ms() { return image_ ? image_->take_sync_wait_ms() : 0.f; }

  BlockShape block{256, 1, 1};
  // The brightest a lone particle's pixel gets: 1 - exp(-2.5) = 92%.
  static constexpr float kMaxGain = 2.5f;

 private:
  void resize(int width, int height, Backend backend);

  splat::Splatter splatter_;
  // width*height RGBA8, used as a pixel-unpack buffer; double-buffered unless
  // CUDAVIZ_INTEROP has single, so CUDA never waits for GL's upload of the last one.
  std::unique_ptr<InteropBuffer> image_;
  InteropConfig interop_;
  GLuint texture_ = 0;
  GlProgram program_;
  GlVertexArray vao_;
  CudaTimerRing timer_, map_timer_, kernel_timer_;
  GlTimerRing upload_timer_;
  int width_ = 0, height_ = 0;
};

}  // namespace cv

#pragma once
// A point splatter in CUDA: draws millions of particles as one-pixel additive
// points into an RGBA8 image, for counts where the GL point pipeline is the
// bottleneck (on an H100 GL draws ~0.4 G points/s; the splatter reaches
// several G/s). Positions are float4 (x, y, z, w): w picks the palette colour.
// The CPU twin produces the same image bit for bit (tests compare them).
#include <cuda_runtime_api.h>
#include <vector_types.h>

#include <cstdint>
#include <vector>

#include "common/block_shape.h"
#include "common/cuda_resources.h"
#include "splat/splat_math.h"

namespace cv::splat {

struct Style {
  int palette = 0;
  float gain = 0.25f;  // brightness per hit, before saturation (exposure() in splat_math.h)
};

class Splatter {
 public:
  // Accumulates `count` particles into the image (accumulators start and end
  // cleared), then writes `rgba` (width*height uchar4, row 0 at the bottom).
  // The block shape is the caller's (1D use of x*y*z threads).
  void render(const float4* positions, unsigned count, const View& view, const Style& style, uchar4* rgba,
              const BlockShape& block, cudaStream_t s);

 private:
  DeviceBuffer<unsigned long long> acc_;
  size_t pixels_ = 0;
};

// CPU twin: same accumulators, same resolve.
std::vector<uint64_t> accumulate_cpu(const float4* positions, unsigned count, const View& view);
std::vector<uchar4> render_cpu(const float4* positions, unsigned count, const View& view, const Style& style);

}  // namespace cv::splat

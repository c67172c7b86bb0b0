#pragma once
// The sample points of the pi lab, for the app's "pi points" scene: what the
// lab's fast variant (and its CPU twins) sample, drawn in the quarter circle.
#include <cuda_runtime_api.h>
#include <vector_types.h>

#include <cstdint>

#include "common/block_shape.h"
#include "common/kernel_attributes.h"

namespace cv::pi {

// The first `count` sample points of the stream `seed`, as the pi lab draws them: float4 (x, y, 0,
// inside ? 1 : 0), x, y uniform in [0,1). Same generator as the lab's fast variant, so the picture
// shows what the lab samples. The GPU version validates `block` (std::invalid_argument) and
// enqueues on s.
void write_points_gpu(float4* out, unsigned count, uint64_t seed, const BlockShape& block,
                      cudaStream_t s);
void write_points_cpu(float4* out, unsigned count, uint64_t seed);  // identical values (CPU twin)

// The points kernel, for the tuning panels; never throws.
KernelAttributes points_kernel_attributes();

}  // namespace cv::pi

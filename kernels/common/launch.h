#pragma once
// Grid arithmetic for launches whose block shape comes from the caller.
// CUDA-only header (dim3).
#include <cuda_runtime.h>

#include <stdexcept>

#include "block_shape.h"
#include "device_info.h"

namespace cv {

inline unsigned ceil_div(unsigned long long n, unsigned long long d) {
  return static_cast<unsigned>((n + d - 1) / d);
}

inline dim3 to_dim3(const BlockShape& b) { return dim3(b.x, b.y, b.z); }

// Throws std::invalid_argument with validate()'s message when the shape is bad
// for the current device.
inline void require_valid(const BlockShape& b, long long shared_bytes = 0) {
  if (auto err = validate(b, block_limits(Backend::Cuda), shared_bytes)) throw std::invalid_argument(*err);
}

// A grid covering width x height elements with 2D blocks.
inline dim3 grid_2d(unsigned width, unsigned height, const BlockShape& b) {
  return dim3(ceil_div(width, b.x), ceil_div(height, b.y), 1);
}

// A grid covering n elements with the block's total thread count.
inline dim3 grid_1d(unsigned long long n, const BlockShape& b) {
  return dim3(ceil_div(n, static_cast<unsigned long long>(b.threads())), 1, 1);
}

}  // namespace cv

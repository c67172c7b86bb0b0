#pragma once
// The exact answer of the pi template: how many of samples [0, n) of `seed`
// the prelude's cv::sample_inside() puts in the quarter circle, counted on the
// CPU with the prelude's own hash (pi_reference.cpp compiles the prelude).
#include <cstdint>

namespace cv::usercode {

uint64_t pi_reference_hits(uint64_t n, uint64_t seed);

}  // namespace cv::usercode

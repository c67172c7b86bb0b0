#pragma once
// The per-element work of the counting and summing labs (document 001), written
// once for the CUDA kernels (reduce.cu) and the CPU twins (reduce_cpu.cpp).
#include <cstdint>

#include "common/hd.h"
#include "common/splitmix.h"

namespace cv::reduce {

// v % 3 == 0 for every int32, negatives included, with one multiply and one
// compare: multiplying by the inverse of 3 mod 2^32 maps the multiples of 3 in
// [-2^31, 2^31) one-to-one onto [-715827882, 715827882] (mod 2^32); shifting
// by 715827882 makes that the unsigned range [0, 1431655764].
CV_HD bool is_multiple_of_3(int32_t v) {
  return static_cast<uint32_t>(v) * 0xAAAAAAABu + 715827882u <= 1431655764u;
}

// The lab's data (make_data): value i of the stream a seed names, a pure
// function of (key, i), so the CPU, the runner's device generator and the
// verdict's references (which draw each value where they use it, no array)
// agree bit for bit.
CV_HD uint64_t data_key(uint64_t seed) { return splitmix64(seed); }
CV_HD int32_t data_value(uint64_t key, uint64_t i) {
  return static_cast<int32_t>(static_cast<uint32_t>(splitmix64(key ^ i)));
}

// The two labs as element maps followed by a sum. Acc is the type a thread
// accumulates in: a count of at most a few thousand hits per thread fits 32
// bits; a sum of int32 values needs 64 bits from the first addition on.
struct Count3 {
  using Acc = uint32_t;
  CV_HD static Acc map(int32_t v) { return is_multiple_of_3(v) ? 1u : 0u; }
};
struct Sum {
  using Acc = int64_t;
  CV_HD static Acc map(int32_t v) { return v; }
};

}  // namespace cv::reduce

// Counting / summing kernels against the CPU: every variant but racy exact.
#include <gtest/gtest.h>

#include <climits>
#include <random>
#include <vector>

#include "common/cuda_resources.h"
#include "gpu_test_util.h"
#include "labs/reduce/reduce.h"

using namespace cv;
using namespace cv::reduce;

namespace {
const std::vector<BlockShape> kBlocks{{1, 1, 1},    {33, 1, 1},   {96, 1, 1}, {256, 1, 1},
                                      {1000, 1, 1}, {1024, 1, 1}, {8, 4, 2}};
// Sanitizer run: fewer blocks (one thread, odd, not a warp multiple, 3D) and
// smaller large inputs; the 1-thread block still walks `fast`'s unrolled loop.
const std::vector<BlockShape> kSanitizerBlocks{{1, 1, 1}, {33, 1, 1}, {1000, 1, 1}, {8, 4, 2}};
const std::vector<BlockShape>& blocks() { return sanitizer_run() ? kSanitizerBlocks : kBlocks; }
std::vector<std::vector<int32_t>> inputs() {
  const bool san = sanitizer_run();
  std::vector<std::vector<int32_t>> in{
      {5}, {INT32_MIN, 3}, {0, 0, 0}, std::vector<int32_t>(1000, INT32_MAX)};
  std::vector<int32_t> mixed;
  for (int i = 0; i < (san ? (1 << 17) + 7 : (1 << 20) + 7); ++i)
    mixed.push_back(i % 3 == 0 ? INT32_MIN : (i % 3 == 1 ? INT32_MAX : -3));
  in.push_back(mixed);
  in.push_back(make_data(san ? (1 << 18) + 3 : (1 << 22) + 3, 9));
  return in;
}
}  // namespace

TEST(ReduceGpu, EveryVariantButRacyIsExact) {
  CV_REQUIRE_GPU();
  CudaStream s;
  for (const auto& a : inputs()) {
    DeviceBuffer<int32_t> d(a.size());
    CV_CUDA(cudaMemcpy(d.get(), a.data(), d.bytes(), cudaMemcpyHostToDevice));
    CV_CUDA(cudaDeviceSynchronize());  // `s` is non-blocking: order it after the copy
    for (Op op : {Op::Count3, Op::Sum}) {
      ReduceGpu gpu(op, a.size());
      const int64_t want = cpu_serial(op, a.data(), a.size());
      for (Variant v : all_variants()) {
        if (!is_gpu(v) || v == Variant::Racy) continue;
        for (const BlockShape& b : blocks()) {
          if (v == Variant::Atomic && b.threads() == 1 && a.size() > 100000)
            continue;  // minutes, nothing new
          gpu.run(v, d.get(), a.size(), b, s.get());
          ASSERT_EQ(gpu.result(s.get()), want) << to_string(op) << " " << to_string(v)
                                               << " n=" << a.size() << " block " << to_string(b);
        }
      }
    }
  }
}

TEST(ReduceGpu, RacyCountNeverExceedsTheTruth) {
  CV_REQUIRE_GPU();
  CudaStream s;
  const auto a = make_data(1 << 22, 4);
  DeviceBuffer<int32_t> d(a.size());
  CV_CUDA(cudaMemcpy(d.get(), a.data(), d.bytes(), cudaMemcpyHostToDevice));
  CV_CUDA(cudaDeviceSynchronize());  // `s` is non-blocking: order it after the copy
  ReduceGpu gpu(Op::Count3, a.size());
  const int64_t want = cpu_serial(Op::Count3, a.data(), a.size());
  for (const BlockShape& b : {BlockShape{256, 1, 1}, BlockShape{33, 1, 1}}) {
    gpu.run(Variant::Racy, d.get(), a.size(), b, s.get());
    const int64_t got = gpu.result(s.get());
    EXPECT_GE(got, 1);
    EXPECT_LE(got, want);
  }
}

TEST(ReduceGpu, SumIntoHandlesUnalignedStarts) {
  CV_REQUIRE_GPU();
  const auto a = make_data(100008, 5);  // room for the largest offset + length
  DeviceBuffer<int32_t> d(a.size());
  CV_CUDA(cudaMemcpy(d.get(), a.data(), d.bytes(), cudaMemcpyHostToDevice));
  DeviceBuffer<unsigned long long> acc(1);
  for (size_t off : {0u, 1u, 2u, 3u, 5u})
    for (size_t len : {0u, 1u, 2u, 3u, 4u, 7u, 1000u, 100000u}) {
      CV_CUDA(cudaMemset(acc.get(), 0, 8));
      sum_into(d.get() + off, len, acc.get(), {96, 1, 1}, nullptr);
      unsigned long long got = 0;
      CV_CUDA(cudaMemcpy(&got, acc.get(), 8, cudaMemcpyDeviceToHost));
      EXPECT_EQ(static_cast<int64_t>(got), cpu_serial(Op::Sum, a.data() + off, len))
          << off << " " << len;
    }
}

// The runner draws the lab's data on the device: bit for bit make_data's.
TEST(ReduceGpu, DataMadeOnTheDeviceIsMakeDatas) {
  CV_REQUIRE_GPU();
  for (size_t n : {size_t{1}, size_t{1000}, (size_t{1} << 22) + 3}) {
    const auto want = make_data(n, 77);
    DeviceBuffer<int32_t> d(n);
    make_data_on_device(d.get(), n, 77, nullptr);
    std::vector<int32_t> got(n);
    CV_CUDA(cudaMemcpy(got.data(), d.get(), d.bytes(), cudaMemcpyDeviceToHost));
    EXPECT_EQ(got, want) << n;
  }
}

TEST(ReduceGpu, RejectsBadBlocks) {
  CV_REQUIRE_GPU();
  DeviceBuffer<int32_t> d(10);
  ReduceGpu gpu(Op::Sum, 10);
  EXPECT_THROW(gpu.run(Variant::Fast, d.get(), 10, {2048, 1, 1}, nullptr), std::invalid_argument);
  EXPECT_THROW(gpu.run(Variant::CpuSerial, d.get(), 10, {32, 1, 1}, nullptr),
               std::invalid_argument);
  EXPECT_THROW(gpu.run(Variant::Fast, d.get(), 11, {32, 1, 1}, nullptr),
               std::invalid_argument);  // > max_n
}

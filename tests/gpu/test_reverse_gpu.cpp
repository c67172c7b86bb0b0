// Reversal kernels against the CPU reversal for several sizes and block shapes.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "common/cuda_resources.h"
#include "gpu_test_util.h"
#include "labs/reverse/reverse.h"

using namespace cv;
using namespace cv::reverse;

TEST(ReverseGpu, NaiveSharedAndCopyAreExact) {
  CV_REQUIRE_GPU();
  CudaStream s;
  for (size_t n : {1u, 2u, 3u, 1001u, 4096u, (1u << 20) + 3}) {
    std::vector<int32_t> in(n), want(n), got(n);
    std::iota(in.begin(), in.end(), 7);
    reverse_cpu(in.data(), want.data(), n);
    DeviceBuffer<int32_t> d_in(n), d_out(n);
    CV_CUDA(cudaMemcpy(d_in.get(), in.data(), n * 4, cudaMemcpyHostToDevice));
    // `s` is a non-blocking stream: nothing orders it after legacy-stream work
    // (a pageable copy may still be in flight on return), so wait here.
    CV_CUDA(cudaDeviceSynchronize());
    for (Variant v : {Variant::Naive, Variant::Shared, Variant::Copy})
      for (const BlockShape& b : std::vector<BlockShape>{{1, 1, 1},
                                                         {33, 1, 1},
                                                         {96, 1, 1},
                                                         {256, 1, 1},
                                                         {1000, 1, 1},
                                                         {1024, 1, 1},
                                                         {8, 4, 2}}) {
        CV_CUDA(cudaMemsetAsync(d_out.get(), 0xff, n * 4, s.get()));  // same stream as the kernel
        run_gpu(v, d_in.get(), d_out.get(), n, b, s.get());
        CV_CUDA(cudaMemcpyAsync(got.data(), d_out.get(), n * 4, cudaMemcpyDeviceToHost, s.get()));
        s.synchronize();
        ASSERT_EQ(got, v == Variant::Copy ? in : want)
            << to_string(v) << " n=" << n << " " << to_string(b);
      }
  }
}

TEST(ReverseGpu, RejectsBadBlocks) {
  CV_REQUIRE_GPU();
  DeviceBuffer<int32_t> a(4), b(4);
  EXPECT_THROW(run_gpu(Variant::Shared, a.get(), b.get(), 4, {1025, 1, 1}, nullptr),
               std::invalid_argument);
  EXPECT_THROW(run_gpu(Variant::CpuSerial, a.get(), b.get(), 4, {32, 1, 1}, nullptr),
               std::invalid_argument);
}

// CUDAVIZ_FAULT on the CUDA path: cuda_check_launch fails the chosen launch
// with cudaErrorLaunchFailure naming the kernel; the device stays usable and
// the next launches succeed (the app's other scenes keep working).
#include <gtest/gtest.h>

#include <string>

#include "common/cuda_check.h"
#include "common/cuda_resources.h"
#include "common/fault_injection.h"
#include "fountain/fountain.h"
#include "gpu_test_util.h"

TEST(FaultInjectionGpu, TheChosenLaunchFailsNamingTheKernelAndLaterOnesRun) {
  CV_REQUIRE_GPU();
  using namespace cv::fountain;
  const unsigned n = 4096;
  cv::CudaStream stream;
  cv::DeviceBuffer<float4> vbo(vbo_bytes(Variant::Lean, n) / sizeof(float4));
  FountainGpu sim(n, Variant::Lean);
  const Params p;
  FrameClock clock(7);
  sim.reset(vbo.get(), p, 42, stream.get());
  cv::fault_injector().reset(cv::FaultSpec{"fountain step_lean", 2});
  const cv::BlockShape block{16, 16, 1};
  sim.step(vbo.get(), clock.next(p), p, block, stream.get());
  sim.step(vbo.get(), clock.next(p), p, block, stream.get());
  try {
    sim.step(vbo.get(), clock.next(p), p, block, stream.get());
    ADD_FAILURE() << "the third step_lean launch should have failed";
  } catch (const cv::CudaError& e) {
    EXPECT_EQ(e.code(), cudaErrorLaunchFailure);
    EXPECT_NE(std::string(e.what()).find("fountain step_lean<<<>>>"), std::string::npos)
        << e.what();
  }
  cv::fault_injector().reset(std::nullopt);
  EXPECT_NO_THROW(sim.step(vbo.get(), clock.next(p), p, block, stream.get()));
  EXPECT_NO_THROW(stream.synchronize());
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

// The CUDA fountain kernels against the CPU twin, over several block shapes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "common/cuda_resources.h"
#include "fountain/fountain.h"
#include "gpu/gpu_test_util.h"

using namespace cv::fountain;

namespace {

struct Case {
  Variant variant;
  cv::BlockShape block;
};

class FountainGpuVsCpu : public ::testing::TestWithParam<Case> {};

TEST_P(FountainGpuVsCpu, MatchesCpuTwin) {
  CV_REQUIRE_GPU();
  const Case c = GetParam();
  // Sanitizer run: racecheck keeps ~40 KB of host memory for every block it ran
  // (10,100 one-thread blocks x 800 steps took 118 GiB and the OOM killer ended
  // the process: "process didn't terminate successfully"). Fewer particles
  // (301 with 1x1 blocks), a life of 60 steps and gravity that brings a
  // particle back to the table within it: every particle still respawns and
  // bounces, in 130 steps.
  const bool san = cv::sanitizer_run();
  const unsigned n = !san ? 10007 : c.block.threads() == 1 ? 301 : 2003;  // partial last rows
  Params p;
  if (san) {
    p.max_age = 60.f;
    p.gravity = 1e-3f;
  }
  const int steps = san ? 130 : 800;  // past max_age: every particle respawned and bounced
  cv::CudaStream stream;
  const size_t floats4 = vbo_bytes(c.variant, n) / sizeof(float4);
  cv::DeviceBuffer<float4> vbo(floats4), ping(floats4), pong(floats4);
  FountainGpu gpu(n, c.variant), pp(n, c.variant);
  FountainCpu cpu(n, c.variant);
  gpu.reset(vbo.get(), p, 77, stream.get());
  pp.reset(ping.get(), p, 77, stream.get());
  cpu.reset(p, 77);
  FrameClock cg(5), cp(5), cc(5);
  for (int i = 0; i < steps; ++i) {
    gpu.step(vbo.get(), cg.next(p), p, c.block, stream.get());
    // The double-buffered path: read one buffer, write the other.
    float4* src = i % 2 ? pong.get() : ping.get();
    float4* dst = i % 2 ? ping.get() : pong.get();
    pp.step_from(src, dst, cp.next(p), p, c.block, stream.get());
    cpu.step(cc.next(p), p);
  }
  std::vector<float4> out(vbo.size()), alt(vbo.size());
  // The steps ran on a non-blocking stream, which a legacy-stream copy does not
  // wait for (under compute-sanitizer the copy overtook the 800 steps).
  stream.synchronize();
  CV_CUDA(cudaMemcpy(out.data(), vbo.get(), vbo.bytes(), cudaMemcpyDeviceToHost));
  const cv::DeviceBuffer<float4>& last = steps % 2 ? pong : ping;
  CV_CUDA(cudaMemcpy(alt.data(), last.get(), last.bytes(), cudaMemcpyDeviceToHost));
  EXPECT_EQ(std::memcmp(out.data(), alt.data(), out.size() * sizeof(float4)), 0)
      << "ping-pong differs from in place, block " << cv::to_string(c.block);
  const auto& ref = cpu.vbo();
  double max_err = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    max_err = std::max({max_err, (double)std::fabs(out[i].x - ref[i].x), (double)std::fabs(out[i].y - ref[i].y),
                        (double)std::fabs(out[i].z - ref[i].z), (double)std::fabs(out[i].w - ref[i].w)});
  }
  EXPECT_LT(max_err, 1e-3) << "block " << cv::to_string(c.block);
  // Ages are integers in float: the GPU must agree exactly on when particles respawn.
  for (unsigned i = 0; i < n && c.variant == Variant::Lean; ++i) ASSERT_EQ(out[i].w, ref[i].w) << i;
}

INSTANTIATE_TEST_SUITE_P(Shapes, FountainGpuVsCpu,
                         ::testing::Values(Case{Variant::Lean, {1, 1, 1}}, Case{Variant::Lean, {7, 13, 1}},
                                           Case{Variant::Lean, {32, 32, 1}}, Case{Variant::Lean, {1024, 1, 1}},
                                           Case{Variant::Lean, {16, 16, 1}}, Case{Variant::Original, {1, 1, 1}},
                                           Case{Variant::Original, {7, 13, 1}}, Case{Variant::Original, {32, 32, 1}},
                                           Case{Variant::Original, {1024, 1, 1}}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(to_string(info.param.variant)) + "_" +
                                  cv::to_string(info.param.block.x == 0 ? cv::BlockShape{} : info.param.block);
                         });

TEST(FountainGpu, RefusesBlocksTheDeviceCannotRun) {
  CV_REQUIRE_GPU();
  cv::CudaStream stream;
  cv::DeviceBuffer<float4> vbo(100);
  FountainGpu gpu(100, Variant::Lean);
  EXPECT_THROW(gpu.step(vbo.get(), Frame{}, Params{}, {64, 32, 1}, stream.get()), std::invalid_argument);
  EXPECT_THROW(gpu.step(vbo.get(), Frame{}, Params{}, {0, 1, 1}, stream.get()), std::invalid_argument);
}

}  // namespace

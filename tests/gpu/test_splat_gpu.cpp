// The CUDA splatter equals its CPU twin bit for bit (integer accumulation),
// for block shapes of whole warps, and refuses partial warps.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <random>
#include <vector>

#include "gpu_test_util.h"
#include "splat/splat.h"

namespace {
using namespace cv;
using namespace cv::splat;

View test_view() {
  View v{};
  // A perspective-ish matrix: w = z + 3, so points nearer the eye spread out.
  const float m[16] = {1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0.5f, 1, 0, 0, 0, 3};
  for (int i = 0; i < 16; ++i) v.m[i] = m[i];
  v.eye[0] = 0;
  v.eye[1] = 3;
  v.eye[2] = -3;
  v.table_radius = 1.5f;
  v.scalar_scale = 0.5f;
  v.hide_below = -3.f;
  v.width = 257;
  v.height = 131;
  return v;
}

class SplatGpuVsCpu : public ::testing::TestWithParam<BlockShape> {};

TEST_P(SplatGpuVsCpu, SameImage) {
  CV_REQUIRE_GPU();
  const unsigned n = 300'001;
  std::vector<float4> pts(n);
  std::mt19937 rng(7);
  std::normal_distribution<float> d(0.f, 0.8f);
  std::uniform_real_distribution<float> age(0.f, 2.f);
  for (auto& p : pts) p = make_float4(d(rng), d(rng), d(rng), age(rng));
  for (unsigned i = 0; i < n; i += 97) pts[i] = pts[i / 2];  // duplicates: same pixel from many lanes
  pts[5].y = -1e4f;                                          // parked

  const View v = test_view();
  const Style st{0, 0.25f};
  DeviceBuffer<float4> d_pts(n);
  DeviceBuffer<uchar4> d_img(static_cast<size_t>(v.width) * v.height);
  CV_CUDA(cudaMemcpy(d_pts.get(), pts.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  Splatter sp;
  for (int frame = 0; frame < 2; ++frame) {  // the second frame checks the accumulators were cleared
    sp.render(d_pts.get(), n, v, st, d_img.get(), GetParam(), nullptr);
    std::vector<uchar4> gpu(d_img.size());
    CV_CUDA(cudaMemcpy(gpu.data(), d_img.get(), gpu.size() * sizeof(uchar4), cudaMemcpyDeviceToHost));
    const std::vector<uchar4> cpu = render_cpu(pts.data(), n, v, st);
    size_t lit = 0, differ = 0;
    for (size_t i = 0; i < cpu.size(); ++i) {
      lit += cpu[i].w > 0;
      differ += cpu[i].x != gpu[i].x || cpu[i].y != gpu[i].y || cpu[i].z != gpu[i].z || cpu[i].w != gpu[i].w;
    }
    EXPECT_GT(lit, 1000u);
    EXPECT_EQ(differ, 0u) << "frame " << frame;
  }
}

INSTANTIATE_TEST_SUITE_P(Blocks, SplatGpuVsCpu,
                         ::testing::Values(BlockShape{32, 1, 1}, BlockShape{256, 1, 1}, BlockShape{16, 16, 1},
                                           BlockShape{1024, 1, 1}, BlockShape{96, 1, 1}),
                         [](const auto& info) { return to_string(info.param); });

TEST(SplatGpu, RefusesPartialWarps) {
  CV_REQUIRE_GPU();
  Splatter sp;
  DeviceBuffer<float4> pts(16);
  DeviceBuffer<uchar4> img(16);
  View v = test_view();
  v.width = v.height = 4;
  EXPECT_THROW(sp.render(pts.get(), 16, v, Style{}, img.get(), BlockShape{7, 13, 1}, nullptr),
               std::invalid_argument);
}

}  // namespace

// The swarm kernel against its CPU twin, both variants, odd block shapes.
#include <gtest/gtest.h>
#include <vector_functions.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "common/cuda_resources.h"
#include "gpu_test_util.h"
#include "swarm/swarm.h"

using namespace cv;
using namespace cv::swarm;

namespace {

std::vector<float4> download(const DeviceBuffer<float4>& b) {
  std::vector<float4> h(b.size());
  // Kernels may have run on a non-blocking stream, which the legacy-stream
  // copy below does not wait for.
  CV_CUDA(cudaDeviceSynchronize());
  CV_CUDA(cudaMemcpy(h.data(), b.get(), b.bytes(), cudaMemcpyDeviceToHost));
  return h;
}

// Largest |difference| over x, y, z, w, relative to 1 + |reference|.
double max_diff(const std::vector<float4>& a, const std::vector<float4>& b) {
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const float ga[4] = {a[i].x, a[i].y, a[i].z, a[i].w}, gb[4] = {b[i].x, b[i].y, b[i].z, b[i].w};
    for (int k = 0; k < 4; ++k)
      m = std::max(m, std::fabs(static_cast<double>(ga[k]) - gb[k]) / (1.0 + std::fabs(gb[k])));
  }
  return m;
}

}  // namespace

TEST(SwarmGpu, KernelEqualsCpuTwin) {
  CV_REQUIRE_GPU();
  // Sanitizer run: fewer particles and blocks, and a shorter life (fewer steps
  // until every particle has respawned).
  const bool san = sanitizer_run();
  const unsigned n = san ? 2003 : 10007;  // not a square, not a multiple of any block
  const std::vector<BlockShape> blocks =
      san ? std::vector<BlockShape>{{16, 16, 1}, {7, 3, 1}, {5, 5, 5}, {1024, 1, 1}}
          : std::vector<BlockShape>{{16, 16, 1}, {7, 3, 1},    {32, 1, 2}, {1, 1, 1},
                                    {5, 5, 5},   {1024, 1, 1}, {1, 64, 1}};
  for (Variant v : all_variants()) {
    Params p = default_params(v);
    if (san) p.max_age = 30.f;
    for (BlockShape b : blocks) {
      SwarmCpu cpu(n, v);
      SwarmGpu gpu(n, v);
      DeviceBuffer<float4> vbo(n);
      cpu.reset(p, 12);
      gpu.reset(vbo.get(), p, 12, nullptr);
      ASSERT_EQ(max_diff(download(vbo), cpu.vbo()), 0.0);
      const int steps = static_cast<int>(p.max_age) + 20;  // every particle respawns at least once
      for (int k = 0; k < steps; ++k) {
        const float3 t = path_target(k);
        cpu.step(t, p);
        gpu.step(vbo.get(), t, p, b, nullptr);
        if (k == 0)
          EXPECT_LT(max_diff(download(vbo), cpu.vbo()), 1e-6)
              << to_string(v) << " " << to_string(b);
      }
      EXPECT_LT(max_diff(download(vbo), cpu.vbo()), 1e-4) << to_string(v) << " " << to_string(b);
      const std::vector<float4> sg = gpu.state(nullptr);
      size_t same_age = 0;
      for (size_t i = 0; i < n; ++i) same_age += sg[i].w == cpu.state()[i].w;
      EXPECT_EQ(same_age, n) << "respawns happened at different steps";
    }
  }
}

TEST(SwarmGpu, RejectsBadBlocks) {
  CV_REQUIRE_GPU();
  SwarmGpu gpu(100);
  DeviceBuffer<float4> vbo(100);
  gpu.reset(vbo.get(), Params{}, 1, nullptr);
  EXPECT_THROW(gpu.step(vbo.get(), make_float3(0, 0, 0), Params{}, BlockShape{2048, 1, 1}, nullptr),
               std::invalid_argument);
  EXPECT_THROW(gpu.step(vbo.get(), make_float3(0, 0, 0), Params{}, BlockShape{32, 32, 2}, nullptr),
               std::invalid_argument);
}

// The double-buffered path (read one buffer, write the other, as the scene
// does with a pair of vertex buffers) gives the same bytes as stepping in place.
TEST(SwarmGpu, PingPongEqualsInPlace) {
  CV_REQUIRE_GPU();
  const unsigned n = sanitizer_run() ? 1001 : 10007;
  for (Variant v : all_variants()) {
    const Params p = default_params(v);
    SwarmGpu in_place(n, v), pp(n, v);
    DeviceBuffer<float4> vbo(n), ping(n), pong(n);
    in_place.reset(vbo.get(), p, 3, nullptr);
    pp.reset(ping.get(), p, 3, nullptr);
    const int steps = 41;
    for (int k = 0; k < steps; ++k) {
      const float3 t = path_target(k);
      in_place.step(vbo.get(), t, p, BlockShape{16, 16, 1}, nullptr);
      pp.step_from(k % 2 ? pong.get() : ping.get(), k % 2 ? ping.get() : pong.get(), t, p,
                   BlockShape{16, 16, 1}, nullptr);
    }
    const std::vector<float4> a = download(vbo), b = download(steps % 2 ? pong : ping);
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float4)), 0) << to_string(v);
  }
}

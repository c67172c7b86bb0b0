// Every n-body force variant against the CPU twin, over block sizes that do
// and do not divide N, plus energy and block validation.
#include <gtest/gtest.h>
#include <vector_functions.h>

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "common/cuda_resources.h"
#include "gpu_test_util.h"
#include "nbody/nbody.h"

using namespace cv;
using namespace cv::nbody;

namespace {

double rel_l2(const std::vector<float4>& got, const std::vector<float4>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double d[3] = {static_cast<double>(got[i].x) - ref[i].x,
                         static_cast<double>(got[i].y) - ref[i].y,
                         static_cast<double>(got[i].z) - ref[i].z};
    num += d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    den += static_cast<double>(ref[i].x) * ref[i].x + static_cast<double>(ref[i].y) * ref[i].y +
           static_cast<double>(ref[i].z) * ref[i].z;
  }
  return std::sqrt(num / den);
}

// v1 - v0 per body: the kick, which is what the forces change in one step.
std::vector<float4> kicks(const std::vector<float4>& v1, const std::vector<float4>& v0) {
  std::vector<float4> d(v1.size());
  for (size_t i = 0; i < v1.size(); ++i)
    d[i] = make_float4(v1[i].x - v0[i].x, v1[i].y - v0[i].y, v1[i].z - v0[i].z, 0.f);
  return d;
}

std::vector<float4> download(const DeviceBuffer<float4>& b) {
  std::vector<float4> h(b.size());
  // Kernels may have run on a non-blocking stream, which the legacy-stream
  // copy below does not wait for.
  CV_CUDA(cudaDeviceSynchronize());
  CV_CUDA(cudaMemcpy(h.data(), b.get(), b.bytes(), cudaMemcpyDeviceToHost));
  return h;
}

struct Case {
  Variant v;
  BlockShape block;
};

std::vector<Case> cases() {
  std::vector<Case> c;
  for (Variant v : all_variants())
    for (BlockShape b : {BlockShape{96, 1, 1}, BlockShape{128, 1, 1}, BlockShape{256, 1, 1},
                         BlockShape{1000, 1, 1}, BlockShape{32, 1, 1}, BlockShape{1024, 1, 1},
                         BlockShape{64, 2, 2}, BlockShape{7, 9, 1}})
      if (v != Variant::Fast || b.threads() % 32 == 0) c.push_back({v, b});
  return c;
}

}  // namespace

TEST(NBodyGpu, AccelerationsMatchCpuForEveryVariantAndBlock) {
  CV_REQUIRE_GPU();
  Params p;
  p.G = 0.8f;
  // Sanitizer run: racecheck follows every shared-memory access of the tiled
  // kernels (N^2 a launch; 1,024 bodies still took over 3 minutes): N = 256.
  for (unsigned n :
       sanitizer_run() ? std::vector<unsigned>{256u, 251u} : std::vector<unsigned>{4096u, 4001u}) {
    NBodyCpu cpu(n);
    cpu.reset(Initial::Galaxies, p, 21);
    const std::vector<float4> ref = cpu.accelerations(p);
    DeviceBuffer<float4> vbo(n);
    NBodyGpu gpu(n);
    gpu.reset(vbo.get(), Initial::Galaxies, p, 21, nullptr);
    for (const Case& c : cases()) {
      const std::vector<float4> got = gpu.accelerations(vbo.get(), p, c.v, c.block, nullptr);
      EXPECT_LT(rel_l2(got, ref), 1e-4)
          << to_string(c.v) << " block " << to_string(c.block) << " n=" << n;
    }
  }
}

// Every tile build of the fast kernel (the candidates CUDAVIZ_NBODY_TILE picks)
// on every block it can run, N dividing and not dividing its tiles.
TEST(NBodyGpu, EveryFastTileBuildMatchesCpu) {
  CV_REQUIRE_GPU();
  Params p;
  p.G = 0.8f;
  const bool san = sanitizer_run();
  for (unsigned n :
       san ? std::vector<unsigned>{500u} : std::vector<unsigned>{4096u, 4001u, 32771u}) {
    NBodyCpu cpu(n);
    cpu.reset(Initial::Galaxies, p, 5);
    const std::vector<float4> ref = cpu.accelerations(p);
    DeviceBuffer<float4> vbo(n);
    NBodyGpu gpu(n);
    gpu.reset(vbo.get(), Initial::Galaxies, p, 5, nullptr);
    for (const std::string& tile : fast_tile_names()) {
      gpu.set_fast_tile(tile);
      for (BlockShape b :
           {BlockShape{32, 1, 1}, BlockShape{96, 1, 1}, BlockShape{128, 1, 1}, BlockShape{32, 3, 2},
            BlockShape{256, 1, 1}, BlockShape{416, 1, 1}, BlockShape{512, 1, 1},
            BlockShape{768, 1, 1}, BlockShape{1024, 1, 1}}) {
        if (b.threads() > fast_tile_max_threads(tile)) {
          EXPECT_THROW(gpu.accelerations(vbo.get(), p, Variant::Fast, b, nullptr),
                       std::invalid_argument);
          continue;
        }
        const std::vector<float4> got = gpu.accelerations(vbo.get(), p, Variant::Fast, b, nullptr);
        EXPECT_LT(rel_l2(got, ref), 1e-4)
            << tile << " block " << to_string(b) << " n=" << n << " slices " << gpu.fast_slices(b);
      }
    }
  }
}

TEST(NBodyGpu, OneStepMatchesCpuForEveryVariantAndBlock) {
  CV_REQUIRE_GPU();
  Params p;
  p.dt = 0.05f;  // a large kick so v1 - v0 is well above the rounding of v
  const unsigned n = sanitizer_run() ? 256 : 4096;  // sanitizer run: 1/256 of the interactions
  NBodyCpu cpu(n);
  cpu.reset(Initial::Sphere, p, 9);
  const std::vector<float4> v0 = cpu.velocities();
  cpu.step(p);
  const std::vector<float4> ref_kick = kicks(cpu.velocities(), v0);
  for (const Case& c : cases()) {
    DeviceBuffer<float4> vbo(n);
    NBodyGpu gpu(n);
    gpu.reset(vbo.get(), Initial::Sphere, p, 9, nullptr);
    gpu.step(vbo.get(), p, c.v, c.block, nullptr);
    const std::vector<float4> pos = download(vbo), vel = gpu.velocities(nullptr);
    EXPECT_LT(rel_l2(pos, cpu.vbo()), 1e-4) << to_string(c.v) << " " << to_string(c.block);
    EXPECT_LT(rel_l2(kicks(vel, v0), ref_kick), 1e-4)
        << to_string(c.v) << " " << to_string(c.block);
    for (size_t i = 0; i < n; i += 97)
      EXPECT_NEAR(pos[i].w, cpu.vbo()[i].w, 1e-4f * (1 + cpu.vbo()[i].w));
  }
}

TEST(NBodyGpu, ManyStepsStayWithTheCpu) {
  CV_REQUIRE_GPU();
  Params p;
  const unsigned n = 2048;
  NBodyCpu cpu(n);
  cpu.reset(Initial::Disk, p, 4);
  DeviceBuffer<float4> vbo(n);
  NBodyGpu gpu(n);
  gpu.reset(vbo.get(), Initial::Disk, p, 4, nullptr);
  for (int s = 0; s < 20; ++s) {
    cpu.step(p);
    gpu.step(vbo.get(), p, Variant::Fast, BlockShape{128, 1, 1}, nullptr);
  }
  EXPECT_LT(rel_l2(download(vbo), cpu.vbo()), 1e-4);
  EXPECT_LT(rel_l2(gpu.velocities(nullptr), cpu.velocities()), 1e-4);
}

TEST(NBodyGpu, EnergyMatchesCpuBeforeAndAfterSteps) {
  CV_REQUIRE_GPU();
  Params p;
  const unsigned n = sanitizer_run() ? 600 : 3000;  // sanitizer run: 1/25 of the pairs
  NBodyCpu cpu(n);
  cpu.reset(Initial::Sphere, p, 6);
  DeviceBuffer<float4> vbo(n);
  NBodyGpu gpu(n);
  gpu.reset(vbo.get(), Initial::Sphere, p, 6, nullptr);
  for (int round = 0; round < 2; ++round) {
    for (BlockShape b : {BlockShape{256, 1, 1}, BlockShape{100, 1, 1}, BlockShape{16, 4, 1}}) {
      const Energy eg = gpu.energy(vbo.get(), p, b, nullptr), ec = cpu.energy(p);
      EXPECT_LT(eg.potential, 0.0);
      EXPECT_NEAR(eg.kinetic, ec.kinetic, 1e-5 * std::fabs(ec.kinetic))
          << to_string(b) << " round " << round;
      EXPECT_NEAR(eg.potential, ec.potential, 1e-5 * std::fabs(ec.potential)) << to_string(b);
    }
    for (int s = 0; s < 3; ++s) {  // now velocities are half a step behind the positions
      cpu.step(p);
      gpu.step(vbo.get(), p, Variant::Tiled, BlockShape{256, 1, 1}, nullptr);
    }
  }
}

TEST(NBodyGpu, FastSplitsSmallProblemsAndConservesMomentum) {
  CV_REQUIRE_GPU();
  Params p;
  const unsigned n = 4096;
  DeviceBuffer<float4> vbo(n);
  NBodyGpu gpu(n);
  gpu.reset(vbo.get(), Initial::Galaxies, p, 2, nullptr);
  // The pairs plan cuts a set's range into pieces when sets alone cannot fill
  // the device (4 sets of 1024 bodies here).
  EXPECT_GT(gpu.fast_slices(BlockShape{128, 1, 1}), 1u);
  const Momentum m0 = momentum(gpu.velocities(nullptr));
  for (int s = 0; s < 10; ++s)
    gpu.step(vbo.get(), p, Variant::Fast, BlockShape{128, 1, 1}, nullptr);
  const std::vector<float4> vel = gpu.velocities(nullptr);
  double scale = 0;
  for (const float4& v : vel) scale += v.w * std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  const Momentum m1 = momentum(vel);
  EXPECT_NEAR(m1.x, m0.x, 1e-5 * scale);
  EXPECT_NEAR(m1.y, m0.y, 1e-5 * scale);
  EXPECT_NEAR(m1.z, m0.z, 1e-5 * scale);
}

TEST(NBodyGpu, RejectsBadBlocks) {
  CV_REQUIRE_GPU();
  const unsigned n = 1000;
  DeviceBuffer<float4> vbo(n);
  NBodyGpu gpu(n);
  Params p;
  gpu.reset(vbo.get(), Initial::Sphere, p, 1, nullptr);
  EXPECT_THROW(gpu.step(vbo.get(), p, Variant::Fast, BlockShape{1000, 1, 1}, nullptr),
               std::invalid_argument);
  EXPECT_THROW(gpu.step(vbo.get(), p, Variant::Fast, BlockShape{7, 9, 1}, nullptr),
               std::invalid_argument);
  EXPECT_THROW(gpu.step(vbo.get(), p, Variant::Tiled, BlockShape{2048, 1, 1}, nullptr),
               std::invalid_argument);
  EXPECT_THROW(gpu.step(vbo.get(), p, Variant::Original, BlockShape{0, 1, 1}, nullptr),
               std::invalid_argument);
  try {
    gpu.step(vbo.get(), p, Variant::Fast, BlockShape{100, 1, 1}, nullptr);
    ADD_FAILURE() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("multiple of 32"), std::string::npos) << e.what();
  }
}

// The pairs builds sum in fixed point, so the order in which blocks finish
// cannot change a bit of the result; and each pair's two halves cancel, so the
// total force sum_i m_i a_i is zero to rounding.
TEST(NBodyGpu, PairsBuildsAreReproducibleAndConserveMomentum) {
  CV_REQUIRE_GPU();
  Params p;
  const unsigned n = sanitizer_run() ? 300 : 20011;
  DeviceBuffer<float4> vbo(n);
  NBodyGpu gpu(n);
  gpu.reset(vbo.get(), Initial::Galaxies, p, 8, nullptr);
  const std::vector<float4> vel = gpu.velocities(nullptr);
  for (const char* tile : {"pairs8", "pairs4"}) {
    gpu.set_fast_tile(tile);
    const BlockShape b{256, 1, 1};
    const std::vector<float4> a1 = gpu.accelerations(vbo.get(), p, Variant::Fast, b, nullptr);
    const std::vector<float4> a2 = gpu.accelerations(vbo.get(), p, Variant::Fast, b, nullptr);
    double fx = 0, fy = 0, fz = 0, scale = 0;
    size_t differ = 0;
    for (size_t i = 0; i < n; ++i) {
      differ += a1[i].x != a2[i].x || a1[i].y != a2[i].y || a1[i].z != a2[i].z;
      const double m = vel[i].w;
      fx += m * a1[i].x;
      fy += m * a1[i].y;
      fz += m * a1[i].z;
      scale += m * std::sqrt(a1[i].x * a1[i].x + a1[i].y * a1[i].y + a1[i].z * a1[i].z);
    }
    EXPECT_EQ(differ, 0u) << tile;
    EXPECT_LT(std::sqrt(fx * fx + fy * fy + fz * fz), 1e-5 * scale) << tile;
  }
}

// The double-buffered path (read one buffer, write the other, as the scene
// does with a pair of vertex buffers) gives the same bytes as stepping in place.
TEST(NBodyGpu, PingPongEqualsInPlace) {
  CV_REQUIRE_GPU();
  Params p;
  const unsigned n = sanitizer_run() ? 300 : 5000;
  NBodyGpu in_place(n), pp(n);
  DeviceBuffer<float4> vbo(n), ping(n), pong(n);
  in_place.reset(vbo.get(), Initial::Disk, p, 13, nullptr);
  pp.reset(ping.get(), Initial::Disk, p, 13, nullptr);
  const int steps = 9;
  for (int k = 0; k < steps; ++k) {
    in_place.step(vbo.get(), p, Variant::Fast, BlockShape{128, 1, 1}, nullptr);
    pp.step_from(k % 2 ? pong.get() : ping.get(), k % 2 ? ping.get() : pong.get(), p, Variant::Fast,
                 BlockShape{128, 1, 1}, nullptr);
  }
  const std::vector<float4> a = download(vbo), b = download(steps % 2 ? pong : ping);
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float4)), 0);
  const std::vector<float4> va = in_place.velocities(nullptr), vb = pp.velocities(nullptr);
  EXPECT_EQ(std::memcmp(va.data(), vb.data(), va.size() * sizeof(float4)), 0);
}

// The app steps on non-blocking streams (CudaStream). A fresh simulation's
// first pairs launch needs its work list uploaded first; that upload must be
// ordered on the launch's stream: a legacy-stream cudaMemcpy from pageable
// memory may return before its DMA lands and is not ordered before a kernel on
// a non-blocking stream. Copy engines kept busy by large copies on other
// streams (as other processes did in the soak that faulted) delay that DMA, so
// an unordered upload is likely read before it lands; the list's memory is
// zeroed and freed first, so a kernel that reads it early (likely the same
// block again) computes zeros instead of wandering off.
TEST(NBodyGpu, FirstPairsLaunchOnANonBlockingStreamSeesItsWorkList) {
  CV_REQUIRE_GPU();
  if (sanitizer_run()) GTEST_SKIP() << "a timing test: the sanitizer serialises every copy";
  Params p;
  p.G = 0.8f;
  const unsigned n = 16384;
  const BlockShape block{256, 1, 1};
  NBodyCpu cpu(n);
  cpu.reset(Initial::Galaxies, p, 17);
  const std::vector<float4> ref = cpu.accelerations(p);
  const size_t busy_bytes = size_t{256} << 20;
  PinnedBuffer<unsigned char> host(busy_bytes);
  DeviceBuffer<unsigned char> dev(busy_bytes);
  std::memset(host.get(), 1, busy_bytes);
  for (int trial = 0; trial < 3; ++trial) {
    CudaStream s, busy[4];  // a copy on each of several streams: more copy engines kept busy
    DeviceBuffer<float4> vbo(n);
    NBodyGpu gpu(n);
    gpu.set_fast_tile("pairs4");
    gpu.reset(vbo.get(), Initial::Galaxies, p, 17, s.get());
    {
      DeviceBuffer<uint4> seed(gpu.fast_launch(block).blocks);
      CV_CUDA(cudaMemset(seed.get(), 0, seed.bytes()));
      CV_CUDA(cudaDeviceSynchronize());
    }
    const size_t part = busy_bytes / 4;
    for (int k = 0; k < 4; ++k)
      CV_CUDA(cudaMemcpyAsync(dev.get() + k * part, host.get() + k * part, part,
                              cudaMemcpyHostToDevice, busy[k].get()));
    const std::vector<float4> got = gpu.accelerations(vbo.get(), p, Variant::Fast, block, s.get());
    CV_CUDA(cudaDeviceSynchronize());
    EXPECT_LT(rel_l2(got, ref), 1e-4) << "trial " << trial;
  }
}

// A force kernel from elsewhere (the student's): the padded snapshot it reads
// and the step finished from its accelerations (here the tiled variant's,
// divided by G = 1) equal the built-in step exactly.
TEST(NBodyGpuGiven, StepWithTiledAccelerationsIsTheTiledStep) {
  CV_REQUIRE_GPU();
  Params p;
  p.dt = 0.01f;
  const unsigned n = 1000;
  const BlockShape block{128, 1, 1};
  DeviceBuffer<float4> va(n), vb(n), acc(n);
  NBodyGpu a(n), b(n);
  a.reset(va.get(), Initial::Galaxies, p, 11, nullptr);
  b.reset(vb.get(), Initial::Galaxies, p, 11, nullptr);
  for (int k = 0; k < 3; ++k) {
    a.step(va.get(), p, Variant::Tiled, block, nullptr);
    const std::vector<float4> g = b.accelerations(vb.get(), p, Variant::Tiled, block, nullptr);
    CV_CUDA(cudaMemcpy(acc.get(), g.data(), acc.bytes(), cudaMemcpyHostToDevice));
    const float4* bodies = b.snapshot(vb.get(), nullptr);
    ASSERT_GE(b.padded_count(), n + 1024u);
    if (k == 0) {  // the snapshot: positions with masses, zero-mass padding after n
      std::vector<float4> h(b.padded_count());
      CV_CUDA(cudaDeviceSynchronize());
      CV_CUDA(cudaMemcpy(h.data(), bodies, h.size() * sizeof(float4), cudaMemcpyDeviceToHost));
      const std::vector<float4> pos = download(vb), vel = b.velocities(nullptr);
      for (unsigned i = 0; i < n; ++i) ASSERT_EQ(h[i].w, vel[i].w) << i;
      for (unsigned i = 0; i < n; ++i) ASSERT_EQ(h[i].x, pos[i].x) << i;
      for (size_t i = n; i < h.size(); ++i) ASSERT_EQ(h[i].w, 0.f) << i;
    }
    b.step_with(acc.get(), vb.get(), p, block, nullptr);
  }
  const std::vector<float4> pa = download(va), pb = download(vb);
  for (unsigned i = 0; i < n; ++i) {
    ASSERT_EQ(pa[i].x, pb[i].x) << i;
    ASSERT_EQ(pa[i].y, pb[i].y) << i;
    ASSERT_EQ(pa[i].w, pb[i].w) << i;
  }
}

// The n-body scene's student force kernel on the CUDA backend, the way the
// scene runs it (scenes/nbody_user_kernel.h) but without a window: the CUDA
// simulation on a ping-pong pair of device buffers, the shipped
// nbody_kernel.cu in a runner process. The runner reads the bodies and writes
// the accelerations in the scene's own exported device memory (nothing in the
// reply), the galaxies move as the built-in tiled variant moves them, and a
// kernel that writes out of range or traps leaves the frame to the built-in.
// Skips without a device.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "app/memory_targets.h"
#include "app/nbody_user_check.h"
#include "common/cuda_resources.h"
#include "gpu/gpu_test_util.h"
#include "scenes/nbody_sim.h"
#include "scenes/nbody_user_kernel.h"
#include "usercode/templates/nbody_parts.h"

namespace cv {
namespace {

constexpr unsigned kN = 4101;  // not a multiple of the block
const BlockShape kBlock{256, 1, 1};
constexpr int kFrames = 5, kStepsPerFrame = 2;  // the second step of a frame continues in place

// One simulation on its own ping-pong pair, loaded with the scene's galaxies.
struct Sim {
  CudaStream stream;
  test::DeviceMemoryTarget target{kN * sizeof(float4), true};
  std::unique_ptr<NBodySim> sim = make_nbody_sim(Backend::Cuda, kN);
  explicit Sim(const nbody::Bodies& b) {
    VertexWrite out = target.write(stream.get());
    sim->load(out, b);
    out.close();
  }
  template <typename F>
  void frame(F&& f) {
    VertexWrite out = target.write(stream.get());
    f(out);
    out.close();
  }
  std::vector<float4> positions() { return test::as_float4(target.download(stream.get())); }
};

TEST(NBodyUserKernelGpu, ShippedKernelRunsInPlaceAndMovesTheGalaxiesAsTheBuiltIn) {
  CV_REQUIRE_GPU();
  std::string why;
  const auto uk = test::loaded_nbody_kernel(test::shipped_nbody_kernel(), Backend::Cuda, &why);
  ASSERT_TRUE(uk) << why;
  const nbody::Params p;
  Sim yours(test::galaxies(kN)), builtin(test::galaxies(kN)), drift(test::galaxies(kN));
  NBodyUserForces forces;
  DeviceBuffer<float4> zeros(kN), scratch(kN + usercode::nbody_template::kPad);
  CV_CUDA(cudaMemset(zeros.get(), 0, zeros.bytes()));
  int device = 0;
  CV_CUDA(cudaGetDevice(&device));
  for (int k = 0; k < kFrames; ++k) {
    NBodyUserForces::Frame f;
    yours.frame([&](VertexWrite& out) {
      f = forces.run(*uk, *yours.sim, out, kN, kStepsPerFrame, p, kBlock, {}, device);
    });
    ASSERT_EQ(f.steps, kStepsPerFrame) << "frame " << k << ": " << uk->status().fallback;
    EXPECT_FALSE(f.failed);
    // (1) In place: the runner wrote the scene's device memory, no reply path.
    EXPECT_TRUE(f.in_place) << forces.share_error();
    EXPECT_TRUE(forces.shared()) << forces.share_error();
    EXPECT_EQ(f.note, "");
    EXPECT_GT(f.kernel_ms, 0);
    EXPECT_GE(f.round_trip_ms, f.kernel_ms);
    builtin.frame([&](VertexWrite& out) {
      builtin.sim->step(out, p, nbody::Variant::Tiled, "", kStepsPerFrame, kBlock, {});
    });
    drift.frame([&](VertexWrite& out) {
      for (int s = 0; s < kStepsPerFrame; ++s) {
        drift.sim->bodies_to(out, s == 0, scratch.get(), usercode::nbody_template::kPad);
        drift.sim->step_with(out, zeros.get(), p, kBlock, {});
      }
    });
  }
  // (2) The bodies after the steps: yours against the built-in tiled variant.
  const std::vector<float4> got = yours.positions(), want = builtin.positions(),
                            unforced = drift.positions();
  const int steps = kFrames * kStepsPerFrame;
  EXPECT_LE(test::worst_over_tolerance(got, want, unforced, steps), 1.0);
  // The check can tell: bodies moved without forces are far outside it.
  EXPECT_GT(test::worst_over_tolerance(unforced, want, unforced, steps), 10.0);
}

// A student's kernel that faults: the frame is the built-in's (NBodyScene::simulate
// steps it when run() ran no step), from the last good bodies, and yours stays off.
void expect_fallback(const std::string& source, const char* what) {
  std::string why;
  const auto uk = test::loaded_nbody_kernel(source, Backend::Cuda, &why);
  ASSERT_TRUE(uk) << what << ": " << why;
  const nbody::Params p;
  Sim yours(test::galaxies(kN)), builtin(test::galaxies(kN));
  NBodyUserForces forces;
  int device = 0;
  CV_CUDA(cudaGetDevice(&device));
  NBodyUserForces::Frame f;
  yours.frame([&](VertexWrite& out) {
    f = forces.run(*uk, *yours.sim, out, kN, kStepsPerFrame, p, kBlock, {}, device);
    if (f.steps == 0)
      yours.sim->step(out, p, nbody::Variant::Tiled, "", kStepsPerFrame, kBlock, {});
  });
  EXPECT_EQ(f.steps, 0) << what;
  EXPECT_TRUE(f.failed) << what;
  EXPECT_TRUE(f.in_place) << what << ": " << forces.share_error();
  EXPECT_EQ(uk->status().state, usercode::UserKernelState::Faulted) << what;
  EXPECT_FALSE(uk->feeds("nbody")) << what << ": the built-in steps from now on";
  EXPECT_NE(uk->status().fallback.find("built-in"), std::string::npos)
      << what << ": " << uk->status().fallback;
  builtin.frame([&](VertexWrite& out) {
    builtin.sim->step(out, p, nbody::Variant::Tiled, "", kStepsPerFrame, kBlock, {});
  });
  const std::vector<float4> got = yours.positions(), want = builtin.positions();
  ASSERT_EQ(got.size(), want.size());
  EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float4)), 0)
      << what << ": the frame after the fault is not the built-in's from the last good bodies";
}

TEST(NBodyUserKernelGpu, OutOfRangeWriteAndTrapFallBackToTheBuiltIn) {
  CV_REQUIRE_GPU();
  const std::string good = test::shipped_nbody_kernel();
  const std::string store = "acc.at(i) = ";
  ASSERT_NE(good.find(store), std::string::npos);
  std::string past = good;
  past.replace(past.find(store), store.size(),
               "acc.data[i + n] = ");  // a raw pointer n past the end
  expect_fallback(past, "a write past acc");
  std::string trap = good;
  trap.replace(trap.find(store), store.size(), "if (i == 7) __trap();\n  acc.at(i) = ");
  expect_fallback(trap, "a trap");
}

}  // namespace
}  // namespace cv

// The n-body scene's student force kernel on the CPU backend, the way the
// scene runs it (scenes/nbody_user_kernel.h) but without a window: the shipped
// nbody_kernel.cu in the runner's CPU emulator, the bodies sent with each
// request and the accelerations back in the reply (there is no device memory
// to share), integrated by the CPU twin; the galaxies move as the built-in
// moves them. The CUDA backend's in-place path: gpu/test_nbody_user_kernel_gpu.cpp.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/memory_targets.h"
#include "app/nbody_user_check.h"
#include "scenes/nbody_sim.h"
#include "scenes/nbody_user_kernel.h"
#include "usercode/templates/nbody_parts.h"

namespace cv {
namespace {

constexpr unsigned kN = 1000;  // not a multiple of the block
const BlockShape kBlock{256, 1, 1};

struct Sim {
  test::HostMemoryTarget target{kN * sizeof(float4)};
  std::unique_ptr<NBodySim> sim = make_nbody_sim(Backend::Cpu, kN);
  explicit Sim(const nbody::Bodies& b) {
    frame([&](VertexWrite& out) { sim->load(out, b); });
  }
  template <typename F>
  void frame(F&& f) {
    VertexWrite out = target.write(nullptr);
    f(out);
    out.close();
  }
  std::vector<float4> positions() const { return test::as_float4(target.data()); }
};

TEST(NBodyUserKernel, CpuBackendSendsTheBodiesAndIntegratesTheReply) {
  std::string why;
  const auto uk = test::loaded_nbody_kernel(test::shipped_nbody_kernel(), Backend::Cpu, &why);
  ASSERT_TRUE(uk) << why;
  const nbody::Params p;
  Sim yours(test::galaxies(kN)), builtin(test::galaxies(kN)), drift(test::galaxies(kN));
  NBodyUserForces forces;
  const int frames = 3, per_frame = 2;
  for (int k = 0; k < frames; ++k) {
    NBodyUserForces::Frame f;
    yours.frame([&](VertexWrite& out) {
      f = forces.run(*uk, *yours.sim, out, kN, per_frame, p, kBlock, {}, 0);
    });
    ASSERT_EQ(f.steps, per_frame) << "frame " << k << ": " << uk->status().fallback;
    EXPECT_FALSE(f.failed);
    EXPECT_FALSE(f.in_place) << "the CPU backend has no device memory to share";
    EXPECT_FALSE(forces.shared());
    EXPECT_EQ(f.note, "") << "the reply is the CPU backend's only path: nothing to say";
    builtin.frame([&](VertexWrite& out) {
      builtin.sim->step(out, p, nbody::Variant::Tiled, "", per_frame, kBlock, {});
    });
    drift.frame([&](VertexWrite& out) {
      for (int s = 0; s < per_frame; ++s) {
        drift.sim->bodies(out, s == 0, usercode::nbody_template::kPad);
        drift.sim->step_with(out, std::vector<float4>(kN), p, kBlock, {});
      }
    });
  }
  const std::vector<float4> got = yours.positions(), want = builtin.positions(),
                            unforced = drift.positions();
  EXPECT_LE(test::worst_over_tolerance(got, want, unforced, frames * per_frame), 1.0);
  EXPECT_GT(test::worst_over_tolerance(unforced, want, unforced, frames * per_frame), 10.0);
  // The CPU twin has no device memory for the in-place path.
  EXPECT_THROW(
      builtin.frame([&](VertexWrite& out) { builtin.sim->bodies_to(out, true, nullptr, 0); }),
      std::logic_error);
}

}  // namespace
}  // namespace cv

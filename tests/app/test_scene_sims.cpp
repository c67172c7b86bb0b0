// Each demo's CPU simulation through its interface (scenes/<demo>_sim.h)
// writes, frame by frame, exactly what the CPU twin computed and the scenes
// uploaded before the interface existed (the twin's vbo()), into a vertex
// target that only keeps what it is handed. And the writes follow the target's
// rules: one access at a time, no put into a read, no more bytes than it holds.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <vector>

#include "app/memory_targets.h"
#include "labs/pi/pi_points.h"
#include "scenes/fountain_sim.h"
#include "scenes/nbody_sim.h"
#include "scenes/pi_sim.h"
#include "scenes/swarm_sim.h"

using cv::Backend;
using cv::BlockShape;
using cv::VertexWrite;
using cv::test::HostMemoryTarget;

namespace {

template <typename T>
bool same_bytes(const std::vector<unsigned char>& got, const std::vector<T>& want, size_t bytes) {
  return got.size() >= bytes && want.size() * sizeof(T) >= bytes &&
         std::memcmp(got.data(), want.data(), bytes) == 0;
}

}  // namespace

TEST(SceneSims, FountainCpuThroughTheInterfaceIsTheTwin) {
  using namespace cv::fountain;
  for (Variant v : all_variants()) {
    const unsigned n = 3001;  // not a square: the grid's last row is partial
    const size_t bytes = vbo_bytes(v, n);
    HostMemoryTarget target(bytes);
    auto sim = cv::make_fountain_sim(Backend::Cpu, n, v);
    FountainCpu twin(n, v);
    Params p;
    p.max_age = 40.f;  // every particle respawns within the run
    {
      VertexWrite out = target.write(nullptr);
      sim->reset(out, p, 2024);
      out.close();
    }
    twin.reset(p, 2024);
    ASSERT_TRUE(same_bytes(target.data(), twin.vbo(), bytes)) << to_string(v) << " reset";
    FrameClock a(2024), b(2024);
    for (int i = 0; i < 60; ++i) {
      VertexWrite out = target.write(nullptr);
      sim->step(out, a.next(p), p, {16, 16, 1}, {});
      out.close();
      twin.step(b.next(p), p);
      ASSERT_TRUE(same_bytes(target.data(), twin.vbo(), bytes)) << to_string(v) << " step " << i;
    }
    EXPECT_EQ(target.uploads, 61);
  }
}

TEST(SceneSims, SwarmCpuThroughTheInterfaceIsTheTwin) {
  using namespace cv::swarm;
  for (Variant v : all_variants()) {
    const unsigned n = 2000;
    HostMemoryTarget target(vbo_bytes(n));
    auto sim = cv::make_swarm_sim(Backend::Cpu, n, Variant::Swarm);
    SwarmCpu twin(n, Variant::Swarm);
    sim->set_variant(v);  // kept particles, the variant's steering from the next step
    twin.set_variant(v);
    const Params p = default_params(v);
    {
      VertexWrite out = target.write(nullptr);
      sim->reset(out, p, 4004, path_target(0));
      out.close();
    }
    twin.reset(p, 4004, path_target(0));
    ASSERT_TRUE(same_bytes(target.data(), twin.vbo(), vbo_bytes(n))) << to_string(v);
    for (int i = 0; i < 50; ++i) {
      VertexWrite out = target.write(nullptr);
      sim->step(out, path_target(i + 1), p, {16, 16, 1}, {});
      out.close();
      twin.step(path_target(i + 1), p);
      ASSERT_TRUE(same_bytes(target.data(), twin.vbo(), vbo_bytes(n))) << to_string(v) << " " << i;
    }
  }
}

TEST(SceneSims, NBodyCpuThroughTheInterfaceIsTheTwin) {
  using namespace cv::nbody;
  const unsigned n = 512;
  Params p;
  const Bodies bodies = make_bodies(Initial::Galaxies, n, p, 1729);
  HostMemoryTarget target(n * sizeof(float4));
  auto sim = cv::make_nbody_sim(Backend::Cpu, n);
  NBodyCpu twin(n);
  {
    VertexWrite out = target.write(nullptr);
    sim->load(out, bodies);
    out.close();
  }
  twin.load(bodies);
  ASSERT_TRUE(same_bytes(target.data(), twin.vbo(), n * sizeof(float4)));
  for (int frame = 0; frame < 5; ++frame) {
    VertexWrite out = target.write(nullptr);
    sim->step(out, p, Variant::Fast, "", 3, {256, 1, 1}, {});  // three steps a frame
    out.close();
    for (int k = 0; k < 3; ++k) twin.step(p);
    ASSERT_TRUE(same_bytes(target.data(), twin.vbo(), n * sizeof(float4))) << frame;
  }
  const Energy e = sim->energy(target, nullptr, p, {256, 1, 1}), want = twin.energy(p);
  EXPECT_EQ(e.kinetic, want.kinetic);
  EXPECT_EQ(e.potential, want.potential);
  EXPECT_EQ(sim->fast_launch({256, 1, 1}), std::nullopt) << "the CPU twin has no fast launch";
}

TEST(SceneSims, PiCpuThroughTheInterfaceIsTheTwin) {
  const unsigned n = 20000;
  HostMemoryTarget target(n * sizeof(float4));
  auto sim = cv::make_pi_sim(Backend::Cpu, n);
  VertexWrite out = target.write(nullptr);
  sim->write(out, 5, {256, 1, 1});
  out.close();
  std::vector<float4> want(n);
  cv::pi::write_points_cpu(want.data(), n, 5);
  ASSERT_TRUE(same_bytes(target.data(), want, n * sizeof(float4)));
  unsigned long long inside = 0;
  for (const float4& q : want) inside += q.w > 0.5f;
  EXPECT_EQ(sim->inside(target, nullptr), inside);
  EXPECT_GT(inside, 0u);
  EXPECT_LT(inside, n);
}

TEST(VertexWrite, OneAccessAtATimeAndPutsWithinTheTarget) {
  HostMemoryTarget target(64);
  std::vector<unsigned char> host(64, 7), big(65, 1);
  {
    VertexWrite out = target.write(nullptr);
    EXPECT_FALSE(out.on_device());
    EXPECT_THROW(target.write(nullptr), std::logic_error) << "a second access while one is open";
    EXPECT_THROW(out.put(big.data(), big.size()), std::invalid_argument);
    out.put(host.data(), host.size());
    EXPECT_EQ(target.uploads, 0) << "the host target uploads at close, not at put";
  }  // closed by the scope
  EXPECT_EQ(target.uploads, 1);
  EXPECT_EQ(target.data(), host);
  {
    VertexWrite front = target.read(nullptr);
    EXPECT_THROW(front.put(host.data(), host.size()), std::logic_error) << "a read takes no put";
  }
  {
    VertexWrite out = target.write(nullptr);  // nothing put: the contents stay
    out.close();
    EXPECT_THROW(out.put(host.data(), 1), std::logic_error) << "put after close";
  }
  EXPECT_EQ(target.uploads, 1);
  EXPECT_EQ(target.closes, 3);
  EXPECT_EQ(target.data(), host);
}

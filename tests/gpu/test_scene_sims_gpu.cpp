// Each demo's CUDA simulation through its interface (scenes/<demo>_sim.h),
// writing a ping-pong pair of device buffers the way InteropTarget hands them
// out, against the CPU simulation through the same interface; and the real
// InteropTarget down each interop path (needs a display: Xvfb with NVIDIA GLX)
// read back by GL after the explicit wait_for_gpu(). Skips without a device.
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "app/memory_targets.h"
#include "common/cuda_resources.h"
#include "gpu/gpu_test_util.h"
#include "scenes/fountain_sim.h"
#include "scenes/nbody_sim.h"
#include "scenes/pi_sim.h"
#include "scenes/swarm_sim.h"

using cv::Backend;
using cv::BlockShape;
using cv::VertexWrite;
using cv::test::as_float4;
using cv::test::DeviceMemoryTarget;
using cv::test::HostMemoryTarget;

namespace {

// Largest |a - b| / (1 + |b|) over every component.
double max_rel_diff(const std::vector<float4>& a, const std::vector<float4>& b) {
  double m = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    const float fa[4] = {a[i].x, a[i].y, a[i].z, a[i].w}, fb[4] = {b[i].x, b[i].y, b[i].z, b[i].w};
    for (int k = 0; k < 4; ++k)
      m = std::max(m, std::fabs(static_cast<double>(fa[k]) - fb[k]) / (1.0 + std::fabs(fb[k])));
  }
  return a.size() == b.size() ? m : 1e30;
}

// Runs `frame(out)` on a fresh write of `t` and closes it.
template <typename F>
void write_frame(cv::VertexTarget& t, cudaStream_t s, F&& frame) {
  VertexWrite out = t.write(s);
  frame(out);
  out.close();
}

}  // namespace

TEST(SceneSimsGpu, FountainCudaMatchesCpuThroughTheInterface) {
  CV_REQUIRE_GPU();
  using namespace cv::fountain;
  const unsigned n = cv::sanitizer_run() ? 2003 : 10007;
  for (Variant v : all_variants()) {
    for (bool pair : {false, true}) {
      cv::CudaStream stream;
      DeviceMemoryTarget gpu_target(vbo_bytes(v, n), pair);
      HostMemoryTarget cpu_target(vbo_bytes(v, n));
      auto gpu = cv::make_fountain_sim(Backend::Cuda, n, v);
      auto cpu = cv::make_fountain_sim(Backend::Cpu, n, v);
      Params p;
      p.max_age = 60.f;
      write_frame(gpu_target, stream.get(), [&](VertexWrite& o) { gpu->reset(o, p, 77); });
      write_frame(cpu_target, nullptr, [&](VertexWrite& o) { cpu->reset(o, p, 77); });
      FrameClock cg(5), cc(5);
      for (int i = 0; i < 90; ++i) {
        write_frame(gpu_target, stream.get(),
                    [&](VertexWrite& o) { gpu->step(o, cg.next(p), p, {7, 13, 1}, {}); });
        write_frame(cpu_target, nullptr,
                    [&](VertexWrite& o) { cpu->step(o, cc.next(p), p, {7, 13, 1}, {}); });
      }
      const auto got = as_float4(gpu_target.download(stream.get()));
      const auto want = as_float4(cpu_target.data());
      EXPECT_LT(max_rel_diff(got, want), 1e-3) << to_string(v) << (pair ? " pair" : " single");
      // Ages are integers in float: respawns must happen at the same steps.
      for (unsigned i = 0; i < n && v == Variant::Lean; ++i) ASSERT_EQ(got[i].w, want[i].w) << i;
    }
  }
}

TEST(SceneSimsGpu, SwarmCudaMatchesCpuThroughTheInterface) {
  CV_REQUIRE_GPU();
  using namespace cv::swarm;
  const unsigned n = cv::sanitizer_run() ? 2003 : 10007;
  for (Variant v : all_variants()) {
    cv::CudaStream stream;
    DeviceMemoryTarget gpu_target(vbo_bytes(n), true);
    HostMemoryTarget cpu_target(vbo_bytes(n));
    auto gpu = cv::make_swarm_sim(Backend::Cuda, n, v);
    auto cpu = cv::make_swarm_sim(Backend::Cpu, n, v);
    Params p = default_params(v);
    p.max_age = 30.f;
    write_frame(gpu_target, stream.get(), [&](VertexWrite& o) { gpu->reset(o, p, 12, path_target(0)); });
    write_frame(cpu_target, nullptr, [&](VertexWrite& o) { cpu->reset(o, p, 12, path_target(0)); });
    for (int k = 0; k < 50; ++k) {
      write_frame(gpu_target, stream.get(),
                  [&](VertexWrite& o) { gpu->step(o, path_target(k), p, {16, 16, 1}, {}); });
      write_frame(cpu_target, nullptr,
                  [&](VertexWrite& o) { cpu->step(o, path_target(k), p, {16, 16, 1}, {}); });
    }
    EXPECT_LT(max_rel_diff(as_float4(gpu_target.download(stream.get())),
                           as_float4(cpu_target.data())),
              1e-4)
        << to_string(v);
  }
}

TEST(SceneSimsGpu, NBodyCudaMatchesCpuThroughTheInterface) {
  CV_REQUIRE_GPU();
  using namespace cv::nbody;
  const unsigned n = cv::sanitizer_run() ? 512 : 2048;
  Params p;
  const Bodies bodies = make_bodies(Initial::Galaxies, n, p, 1729);
  for (Variant v : all_variants()) {
    cv::CudaStream stream;
    DeviceMemoryTarget gpu_target(n * sizeof(float4), true);
    HostMemoryTarget cpu_target(n * sizeof(float4));
    auto gpu = cv::make_nbody_sim(Backend::Cuda, n);
    auto cpu = cv::make_nbody_sim(Backend::Cpu, n);
    write_frame(gpu_target, stream.get(), [&](VertexWrite& o) { gpu->load(o, bodies); });
    write_frame(cpu_target, nullptr, [&](VertexWrite& o) { cpu->load(o, bodies); });
    for (int frame = 0; frame < 4; ++frame) {  // two steps a frame: the second continues in place
      write_frame(gpu_target, stream.get(),
                  [&](VertexWrite& o) { gpu->step(o, p, v, "", 2, {256, 1, 1}, {}); });
      write_frame(cpu_target, nullptr,
                  [&](VertexWrite& o) { cpu->step(o, p, v, "", 2, {256, 1, 1}, {}); });
    }
    const auto got = as_float4(gpu_target.download(stream.get()));
    const auto want = as_float4(cpu_target.data());
    double num = 0, den = 0;
    for (unsigned i = 0; i < n; ++i) {
      const double d[3] = {double(got[i].x) - want[i].x, double(got[i].y) - want[i].y,
                           double(got[i].z) - want[i].z};
      num += d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      den += double(want[i].x) * want[i].x + double(want[i].y) * want[i].y +
             double(want[i].z) * want[i].z;
    }
    EXPECT_LT(std::sqrt(num / den), 1e-4) << to_string(v);
    const Energy eg = gpu->energy(gpu_target, stream.get(), p, {256, 1, 1});
    const Energy ec = cpu->energy(cpu_target, nullptr, p, {256, 1, 1});
    EXPECT_NEAR(eg.kinetic, ec.kinetic, 1e-4 * std::fabs(ec.kinetic)) << to_string(v);
    EXPECT_NEAR(eg.potential, ec.potential, 1e-4 * std::fabs(ec.potential)) << to_string(v);
    EXPECT_TRUE(gpu->fast_launch({256, 1, 1}).has_value()) << "the CUDA sim reports its fast launch";
  }
}

TEST(SceneSimsGpu, PiCudaMatchesCpuThroughTheInterface) {
  CV_REQUIRE_GPU();
  const unsigned n = 100003;
  cv::CudaStream stream;
  DeviceMemoryTarget gpu_target(n * sizeof(float4), false);
  HostMemoryTarget cpu_target(n * sizeof(float4));
  auto gpu = cv::make_pi_sim(Backend::Cuda, n);
  auto cpu = cv::make_pi_sim(Backend::Cpu, n);
  write_frame(gpu_target, stream.get(), [&](VertexWrite& o) { gpu->write(o, 9, {128, 1, 1}); });
  write_frame(cpu_target, nullptr, [&](VertexWrite& o) { cpu->write(o, 9, {128, 1, 1}); });
  EXPECT_EQ(gpu_target.download(stream.get()), cpu_target.data()) << "bit for bit";
  EXPECT_EQ(gpu->inside(gpu_target, stream.get()), cpu->inside(cpu_target, nullptr));
}

// The real InteropTarget: each path, one buffer and the pair, stepped through
// the fountain's CUDA simulation; GL reads after wait_for_gpu() alone (no
// stream synchronisation) and must see the CPU simulation's frame.
TEST(SceneSimsGpu, InteropTargetsCarryTheCudaFramesToGl) {
  CV_REQUIRE_GPU();
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no display (DISPLAY unset)";
  if (!glfwInit()) GTEST_SKIP() << "glfwInit failed";
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 1);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  GLFWwindow* w = glfwCreateWindow(64, 64, "interop target test", nullptr, nullptr);
  if (!w) {
    glfwTerminate();
    GTEST_SKIP() << "no OpenGL 4.1 window could be created";
  }
  glfwMakeContextCurrent(w);
  ASSERT_TRUE(gladLoadGL(glfwGetProcAddress));
  {
    using namespace cv::fountain;
    const unsigned n = 4099;
    const size_t bytes = vbo_bytes(Variant::Lean, n);
    Params p;
    HostMemoryTarget cpu_target(bytes);
    auto cpu = cv::make_fountain_sim(Backend::Cpu, n, Variant::Lean);
    write_frame(cpu_target, nullptr, [&](VertexWrite& o) { cpu->reset(o, p, 3); });
    FrameClock cc(8);
    for (int i = 0; i < 40; ++i)
      write_frame(cpu_target, nullptr, [&](VertexWrite& o) { cpu->step(o, cc.next(p), p, {16, 16, 1}, {}); });
    for (cv::InteropPath start : {cv::InteropPath::External, cv::InteropPath::Map, cv::InteropPath::Copy}) {
      for (bool pair : {false, true}) {
        cv::CudaStream stream;
        auto target = cv::make_vertex_target(bytes, Backend::Cuda, {start, !pair}, true);
        ASSERT_NE(target->interop(), nullptr);
        auto gpu = cv::make_fountain_sim(Backend::Cuda, n, Variant::Lean);
        write_frame(*target, stream.get(), [&](VertexWrite& o) { gpu->reset(o, p, 3); });
        FrameClock cg(8);
        for (int i = 0; i < 40; ++i)
          write_frame(*target, stream.get(),
                      [&](VertexWrite& o) { gpu->step(o, cg.next(p), p, {16, 16, 1}, {}); });
        target->wait_for_gpu();  // the explicit wait: GL reads next
        std::vector<unsigned char> gl(bytes);
        glBindBuffer(GL_ARRAY_BUFFER, target->vbo());
        glGetBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), gl.data());
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        const auto got = as_float4(gl), want = as_float4(cpu_target.data());
        EXPECT_LT(max_rel_diff(got, want), 1e-3)
            << to_string(start) << (pair ? " pair" : " single") << " (" << to_string(target->mode())
            << ": " << target->fallback_reason() << ")";
        for (unsigned i = 0; i < n; ++i) ASSERT_EQ(got[i].w, want[i].w) << to_string(start) << " " << i;
      }
    }
  }
  glfwDestroyWindow(w);
  glfwTerminate();
}

// The CUDA transfer paths of InteropBuffer (external memory, mapped VBO and
// the copy fallback; one buffer and the ping-pong pair) must leave identical
// contents in the GL buffer. Needs a GPU and a display (Xvfb with NVIDIA GLX
// on the lent machine); skips otherwise. CUDAVIZ_EXPECT_INTEROP=1 fails the
// test when the map path falls back; CUDAVIZ_EXPECT_EXTERNAL=1 when the
// external path does (each prints its reason either way).
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <iterator>
#include <vector>

#include "common/cuda_resources.h"
#include "fountain/fountain.h"
#include "gl/interop_buffer.h"
#include "gpu/gpu_test_util.h"

namespace {

struct HiddenWindow {
  GLFWwindow* w = nullptr;
  HiddenWindow() {
    if (!glfwInit()) return;
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 1);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    w = glfwCreateWindow(64, 64, "interop test", nullptr, nullptr);
    if (w) glfwMakeContextCurrent(w);
  }
  ~HiddenWindow() {
    if (w) glfwDestroyWindow(w);
    glfwTerminate();
  }
};

std::vector<unsigned char> read_back(cv::InteropBuffer& b) {
  b.wait_for_gpu();  // the explicit wait before GL reads (external path)
  std::vector<unsigned char> out(b.bytes());
  glBindBuffer(GL_ARRAY_BUFFER, b.vbo());
  glGetBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(out.size()), out.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return out;
}

TEST(InteropBuffer, MappedAndCopyPathsProduceTheSameContents) {
  CV_REQUIRE_GPU();
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no display (DISPLAY unset)";
  HiddenWindow win;
  if (!win.w) GTEST_SKIP() << "no OpenGL 4.1 window could be created";
  ASSERT_TRUE(gladLoadGL(glfwGetProcAddress));
  std::printf("GL_RENDERER: %s\n", glGetString(GL_RENDERER));

  using namespace cv::fountain;
  // Sanitizer run: a tenth of the particles, a quarter of the steps and of the
  // life (so as many have respawned and moved).
  const bool san = cv::sanitizer_run();
  const int steps = san ? 30 : 120;
  for (Variant v : all_variants()) {
    const unsigned n = san ? 5003 : 50021;
    struct Path {
      const char* name;
      cv::InteropBuffer buf;
      FountainGpu sim;
      FrameClock clock{4};
    };
    const size_t bytes = vbo_bytes(v, n);
    using cv::InteropPath;
    Path paths[] = {
        {"copy", cv::InteropBuffer(bytes, cv::Backend::Cuda, InteropPath::Copy), FountainGpu(n, v)},
        {"map", cv::InteropBuffer(bytes, cv::Backend::Cuda, InteropPath::Map), FountainGpu(n, v)},
        {"map pair", cv::InteropBuffer(bytes, cv::Backend::Cuda, InteropPath::Map, true),
         FountainGpu(n, v)},
        {"external", cv::InteropBuffer(bytes, cv::Backend::Cuda, InteropPath::External),
         FountainGpu(n, v)},
        {"external pair", cv::InteropBuffer(bytes, cv::Backend::Cuda, InteropPath::External, true),
         FountainGpu(n, v)},
    };
    for (const Path& q : paths)
      std::printf("%s: %s -> %s (%s), buffers %d\n", to_string(v), q.name,
                  cv::to_string(q.buf.mode()), q.buf.fallback_reason().c_str(),
                  q.buf.double_buffered() ? 2 : 1);
    EXPECT_EQ(paths[0].buf.mode(), cv::TransferMode::CopyFallback);
    EXPECT_FALSE(paths[0].buf.double_buffered());
    EXPECT_NE(paths[1].buf.mode(), cv::TransferMode::External) << "map must not try external";
    // Pairs stay pairs on whichever path they end (the copy path has one buffer).
    for (int k : {2, 4})
      EXPECT_EQ(paths[k].buf.double_buffered(),
                paths[k].buf.mode() != cv::TransferMode::CopyFallback)
          << paths[k].name;
    EXPECT_FALSE(paths[3].buf.double_buffered());
    if (std::getenv("CUDAVIZ_EXPECT_INTEROP")) {
      EXPECT_EQ(paths[1].buf.mode(), cv::TransferMode::Interop);
      EXPECT_TRUE(paths[2].buf.double_buffered());
    }
    if (std::getenv("CUDAVIZ_EXPECT_EXTERNAL")) {
      EXPECT_EQ(paths[3].buf.mode(), cv::TransferMode::External);
      EXPECT_EQ(paths[4].buf.mode(), cv::TransferMode::External);
    }

    cv::CudaStream stream;
    Params p;
    if (san) p.max_age /= 4;
    for (Path& q : paths) {
      auto m = q.buf.map(stream.get());
      q.sim.reset(static_cast<float4*>(m.device_ptr()), p, 3, stream.get());
      m.unmap();
    }
    for (int i = 0; i < steps; ++i) {
      for (Path& q : paths) {
        if (!q.buf.double_buffered()) {
          auto m = q.buf.map(stream.get());
          q.sim.step(static_cast<float4*>(m.device_ptr()), q.clock.next(p), p, {16, 16, 1},
                     stream.get());
          m.unmap();
          continue;
        }
        // Ping-pong: reads the front, writes the back, swaps at unmap.
        const GLuint before = q.buf.vbo();
        auto e = q.buf.map_next(stream.get());
        q.sim.step_from(static_cast<const float4*>(e.source_ptr()),
                        static_cast<float4*>(e.device_ptr()), q.clock.next(p), p, {7, 13, 1},
                        stream.get());
        e.unmap();
        ASSERT_NE(q.buf.vbo(), before) << q.name << ": the pair did not swap";
      }
    }
    // No stream synchronisation here: wait_for_gpu() (in read_back) must order
    // GL after CUDA (external path), the map and copy paths complete at unmap.
    const auto x = read_back(paths[0].buf);
    for (size_t k = 1; k < std::size(paths); ++k) {
      const auto y = read_back(paths[k].buf);
      ASSERT_EQ(x.size(), y.size());
      EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size()), 0)
          << to_string(v) << " " << paths[k].name;
    }
    // Not trivially equal: the buffers hold live, moving particles.
    std::vector<float4> f(n);
    std::memcpy(f.data(), x.data(), n * sizeof(float4));
    int moved = 0;
    for (const float4& q : f) moved += q.y > kHiddenY * 0.5f;
    EXPECT_GT(moved, static_cast<int>(n / 10));
  }
}

}  // namespace

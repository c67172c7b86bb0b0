// The two CUDA transfer paths of InteropBuffer (mapped VBO and the copy
// fallback) must leave identical contents in the GL buffer. Needs a GPU and a
// display (Xvfb with NVIDIA GLX on the lent machine); skips otherwise.
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
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

std::vector<unsigned char> read_back(const cv::InteropBuffer& b) {
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
    cv::InteropBuffer direct(vbo_bytes(v, n), cv::Backend::Cuda, false);
    cv::InteropBuffer copy(vbo_bytes(v, n), cv::Backend::Cuda, true);
    // Ping-pong pair: reads the front, writes the back, swaps at unmap.
    cv::InteropBuffer pair(vbo_bytes(v, n), cv::Backend::Cuda, false, true);
    std::printf("%s: direct path = %s (%s), pair double-buffered: %d\n", to_string(v),
                cv::to_string(direct.mode()), direct.fallback_reason().c_str(),
                pair.double_buffered());
    EXPECT_EQ(copy.mode(), cv::TransferMode::CopyFallback);
    EXPECT_FALSE(copy.double_buffered());
    EXPECT_EQ(pair.double_buffered(), pair.mode() == cv::TransferMode::Interop);
    if (std::getenv("CUDAVIZ_EXPECT_INTEROP")) {
      EXPECT_EQ(direct.mode(), cv::TransferMode::Interop);
      EXPECT_TRUE(pair.double_buffered());
    }

    cv::CudaStream stream;
    FountainGpu a(n, v), b(n, v), d(n, v);
    Params p;
    if (san) p.max_age /= 4;
    {
      auto m = direct.map(stream.get());
      a.reset(static_cast<float4*>(m.device_ptr()), p, 3, stream.get());
      m.unmap();
      auto c = copy.map(stream.get());
      b.reset(static_cast<float4*>(c.device_ptr()), p, 3, stream.get());
      c.unmap();
      auto e = pair.map(stream.get());
      d.reset(static_cast<float4*>(e.device_ptr()), p, 3, stream.get());
      e.unmap();
    }
    FrameClock ca(4), cb(4), cd(4);
    for (int i = 0; i < steps; ++i) {
      auto m = direct.map(stream.get());
      a.step(static_cast<float4*>(m.device_ptr()), ca.next(p), p, {16, 16, 1}, stream.get());
      m.unmap();
      auto c = copy.map(stream.get());
      b.step(static_cast<float4*>(c.device_ptr()), cb.next(p), p, {16, 16, 1}, stream.get());
      c.unmap();
      const GLuint before = pair.vbo();
      auto e = pair.map_next(stream.get());
      d.step_from(static_cast<const float4*>(e.source_ptr()), static_cast<float4*>(e.device_ptr()),
                  cd.next(p), p, {7, 13, 1}, stream.get());
      e.unmap();
      if (pair.double_buffered()) ASSERT_NE(pair.vbo(), before) << "the pair did not swap";
    }
    CV_CUDA(cudaStreamSynchronize(stream.get()));
    const auto x = read_back(direct), y = read_back(copy), z = read_back(pair);
    ASSERT_EQ(x.size(), y.size());
    EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size()), 0) << to_string(v);
    ASSERT_EQ(x.size(), z.size());
    EXPECT_EQ(std::memcmp(x.data(), z.data(), x.size()), 0) << to_string(v) << " ping-pong";
    // Not trivially equal: the buffers hold live, moving particles.
    std::vector<float4> f(n);
    std::memcpy(f.data(), x.data(), n * sizeof(float4));
    int moved = 0;
    for (const float4& q : f) moved += q.y > kHiddenY * 0.5f;
    EXPECT_GT(moved, static_cast<int>(n / 10));
  }
}

}  // namespace

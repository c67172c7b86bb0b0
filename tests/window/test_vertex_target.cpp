// The CPU backend's vertex target (gl/host_target.h) and a CPU scene writing
// through it: what is put reaches the GL buffer at close, nothing put keeps
// the contents, the wait before GL reads is a no-op, and the colour-by ids
// buffer is a vertex target too. Needs a GL context: run under Xvfb.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "gl/host_target.h"
#include "insight/launch_model.h"
#include "scenes/fountain_scene.h"

#include "hidden_window.h"

namespace {

std::vector<unsigned char> read_back(GLuint vbo, size_t bytes) {
  std::vector<unsigned char> out(bytes);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glGetBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), out.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return out;
}

}  // namespace

TEST(HostTarget, UploadsWhatWasPutAtClose) {
  HiddenWindow win("host target");
  if (!win.w) GTEST_SKIP() << "no GL 4.1 context (run under xvfb-run)";
  auto target = cv::make_vertex_target(256, cv::Backend::Cpu, {}, true);
  EXPECT_EQ(target->mode(), cv::TransferMode::HostUpload);
  EXPECT_FALSE(target->double_buffered()) << "the CPU upload needs no pair";
  EXPECT_EQ(target->interop(), nullptr);
  const GLuint vbo = target->vbo();
  ASSERT_NE(vbo, 0u);
  std::vector<unsigned char> a(256), b(256);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<unsigned char>(i), b[i] = 255 - a[i];
  {
    cv::VertexWrite out = target->write(nullptr);
    EXPECT_FALSE(out.on_device());
    out.put(a.data(), a.size());
    out.close();
  }
  target->wait_for_gpu();  // nothing to wait for, and it must not fail
  EXPECT_EQ(target->vbo(), vbo) << "one buffer: the name stays";
  EXPECT_EQ(read_back(vbo, 256), a);
  {
    cv::VertexWrite out = target->write(nullptr);  // nothing put: the contents stay
  }
  EXPECT_EQ(read_back(vbo, 256), a);
  {
    cv::VertexWrite out = target->write(nullptr);
    out.put(b.data(), b.size());
  }  // closed (and uploaded) by the scope
  EXPECT_EQ(read_back(vbo, 256), b);
  EXPECT_EQ(target->take_sync_wait_ms(), 0.f);
}

TEST(HostTarget, ACpuSceneWritesItsParticlesAndIdsThroughTargets) {
  HiddenWindow win("cpu scene");
  if (!win.w) GTEST_SKIP() << "no GL 4.1 context (run under xvfb-run)";
  const unsigned n = 4096;
  cv::FountainScene scene(cv::Backend::Cpu, n);
  EXPECT_EQ(scene.transfer_mode(), cv::TransferMode::HostUpload);
  EXPECT_EQ(scene.vertex_buffer(), nullptr) << "no CUDA memory behind the CPU backend";
  const auto reset = read_back(scene.vbo(), n * sizeof(float4));
  scene.set_colour_by(cv::insight::ColourBy::Warp);
  scene.step();
  scene.wait_for_gpu();
  const auto stepped = read_back(scene.vbo(), n * sizeof(float4));
  EXPECT_NE(stepped, reset) << "the step reached the GL buffer";
  // The ids: the CPU pass's, uploaded through the ids target.
  const cv::ParticleStyle st = scene.styled();
  ASSERT_NE(st.id_vbo, 0u);
  EXPECT_EQ(st.colour_by, static_cast<int>(cv::insight::ColourBy::Warp));
  std::vector<uint32_t> want(n);
  cv::insight::fill_ids(*scene.element_launch(), cv::insight::ColourBy::Warp, want.data());
  const auto ids = read_back(st.id_vbo, n * sizeof(uint32_t));
  EXPECT_EQ(std::memcmp(ids.data(), want.data(), ids.size()), 0);
  // A rebuild for another count swaps in a new target of the new size.
  ASSERT_EQ(scene.reconfigure(2 * n, scene.variant()), std::nullopt);
  EXPECT_EQ(scene.count(), 2 * n);
  EXPECT_EQ(scene.steps(), 0);
  EXPECT_NO_THROW(scene.step());
}

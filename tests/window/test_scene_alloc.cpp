// A particle-count change that cannot be allocated is refused with the reason and
// the scene keeps its previous buffers and keeps stepping. Needs a GL
// context (the vertex buffer): run under Xvfb. RLIMIT_AS makes the allocation
// fail the same way on every machine.
#include <glad/gl.h>  // before GLFW
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <memory>
#include <string>

#include "scenes/fountain_scene.h"
#include "scenes/pi_scene.h"
#include "scenes/swarm_scene.h"
#include "soak/memory_sample.h"

#include "hidden_window.h"

namespace {


// Limits the address space to what is mapped now plus `headroom` for the scope.
struct AddressSpaceLimit {
  rlimit old{};
  explicit AddressSpaceLimit(rlim_t headroom) {
    getrlimit(RLIMIT_AS, &old);
    FILE* f = std::fopen("/proc/self/statm", "r");
    unsigned long long pages = 0;
    if (f && std::fscanf(f, "%llu", &pages) != 1) pages = 0;
    if (f) std::fclose(f);
    rlimit lim{pages * 4096 + headroom, old.rlim_max};
    setrlimit(RLIMIT_AS, &lim);
  }
  ~AddressSpaceLimit() { setrlimit(RLIMIT_AS, &old); }
};

template <typename Scene, typename Reconfigure>
void check_refused_and_kept(Scene& scene, unsigned huge, Reconfigure reconfigure) {
  scene.step();
  const unsigned count = scene.count();
  const GLuint vbo = scene.vbo();
  std::optional<std::string> err;
  {
    AddressSpaceLimit limit(64u << 20);
    err = reconfigure(huge);
  }
  ASSERT_TRUE(err) << "the count change should have failed under the address-space limit";
  EXPECT_NE(err->find(std::to_string(huge)), std::string::npos) << *err;
  EXPECT_EQ(scene.count(), count);
  EXPECT_EQ(scene.vbo(), vbo);  // the same buffer, not a rebuilt one
  const long long steps = scene.steps();
  const bool moves = scene.needs_step();  // the pi points stay put until resampled
  EXPECT_NO_THROW(scene.step());
  if (moves) EXPECT_EQ(scene.steps(), steps + 1);
}

}  // namespace

TEST(SceneAlloc, RefusedCountChangesKeepThePreviousBuffers) {
#ifdef __SANITIZE_ADDRESS__
  GTEST_SKIP() << "AddressSanitizer needs the address space RLIMIT_AS would take";
#endif
  HiddenWindow win("alloc");
  ASSERT_NE(win.w, nullptr) << "no GL 4.1 context (run under xvfb-run)";
  cv::FountainScene fountain(cv::Backend::Cpu, 4096);
  check_refused_and_kept(fountain, cv::FountainScene::kMaxCount,
                         [&](unsigned n) { return fountain.reconfigure(n, fountain.variant()); });
  cv::SwarmScene swarm(cv::Backend::Cpu, 4096);
  check_refused_and_kept(swarm, cv::SwarmScene::kMaxCount,
                         [&](unsigned n) { return swarm.reconfigure(n); });
  cv::PiPointsScene pi(cv::Backend::Cpu, 4096);
  check_refused_and_kept(pi, cv::PiPointsScene::kMaxCount,
                         [&](unsigned n) { return pi.reconfigure(n); });
  // And a count that fits still works afterwards.
  EXPECT_EQ(fountain.reconfigure(8192, fountain.variant()), std::nullopt);
  EXPECT_EQ(fountain.count(), 8192u);
}

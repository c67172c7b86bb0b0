// The scene menu and what the app checks before building a scene (no GL
// needed), and the camera's cursor picking used by the swarm's mouse target.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "cli.h"
#include "render/camera.h"
#include "scenes/nbody_scene.h"
#include "scenes/scene_factory.h"
#include "scenes/scene_set.h"

using namespace cv;

static std::string request_error(SceneKind k, Backend b, SceneRequest r) {
  try {
    check_scene_request(k, b, r);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(SceneMenu, NamesKeysAndOrder) {
  const char* names[] = {"fountain", "swarm", "nbody", "pi"};
  ASSERT_EQ(scene_infos().size(), std::size(names));  // app_tests registers no other scene
  for (int i = 0; i < static_cast<int>(std::size(names)); ++i) {
    EXPECT_STREQ(scene_infos()[i].name, names[i]);
    EXPECT_EQ(scene_infos()[i].kind.index, i);
    EXPECT_EQ(scene_infos()[i].hotkey, i + 1);  // the registry is in key order
    EXPECT_EQ(parse_scene(names[i]), scene_infos()[i].kind);
    EXPECT_EQ(scene_by_hotkey(i + 1), scene_infos()[i].kind);
  }
  EXPECT_FALSE(parse_scene("tetris"));
  EXPECT_FALSE(parse_scene(""));
}

TEST(SceneMenu, RequestsWithinEachScenesLimitsPass) {
  EXPECT_EQ(request_error(*parse_scene("fountain"), Backend::Cpu, {1000, "seed"}), "");
  EXPECT_EQ(request_error(*parse_scene("swarm"), Backend::Cpu, {1, "sparkler"}), "");
  EXPECT_EQ(request_error(*parse_scene("nbody"), Backend::Cpu, {1024, "tiled"}), "");
  EXPECT_EQ(request_error(*parse_scene("nbody"), Backend::Cuda, {1 << 20, "fast"}), "");
  EXPECT_EQ(request_error(*parse_scene("pi"), Backend::Cpu, {100000, std::nullopt}), "");
}

TEST(SceneMenu, BadRequestsNameTheFlagAndTheScene) {
  std::string e = request_error(*parse_scene("swarm"), Backend::Cpu, {std::nullopt, "seed"});
  EXPECT_NE(e.find("--variant"), std::string::npos) << e;
  EXPECT_NE(e.find("swarm, sparkler"), std::string::npos) << e;
  e = request_error(*parse_scene("nbody"), Backend::Cpu, {std::nullopt, "lean"});
  EXPECT_NE(e.find("original, tiled, fast"), std::string::npos) << e;
  e = request_error(*parse_scene("pi"), Backend::Cpu, {std::nullopt, "fast"});
  EXPECT_NE(e.find("no variants"), std::string::npos) << e;
  // The CPU n-body is O(N^2) a step: the limit is lower there and says so.
  e = request_error(*parse_scene("nbody"), Backend::Cpu, {1 << 20, std::nullopt});
  EXPECT_NE(e.find("--n"), std::string::npos) << e;
  EXPECT_NE(e.find("CPU"), std::string::npos) << e;
  EXPECT_NE(e.find(std::to_string(NBodyScene::kMaxCountCpu)), std::string::npos) << e;
  e = request_error(*parse_scene("nbody"), Backend::Cuda, {1, std::nullopt});
  EXPECT_NE(e.find("[2, "), std::string::npos) << e;
  e = request_error(*parse_scene("fountain"), Backend::Cpu, {(1ll << 26) + 1, std::nullopt});
  EXPECT_NE(e.find("fountain"), std::string::npos) << e;
}

TEST(OrbitCamera, PickPlaneHitsTheTargetAtTheScreenCentre) {
  OrbitCamera c;
  c.set_home({0.3f, 0.f, -0.2f}, 5.f, 0.7f, 0.4f);
  auto hit = c.pick_plane(0.f, 0.f, 1.6f, 0.f);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->x, 0.3f, 1e-4f);
  EXPECT_NEAR(hit->y, 0.f, 1e-5f);
  EXPECT_NEAR(hit->z, -0.2f, 1e-4f);
}

TEST(OrbitCamera, PickPlaneFollowsTheCursorAndMissesAboveTheHorizon) {
  OrbitCamera c;
  c.set_home({0.f, 0.f, 0.f}, 5.f, 0.f, 0.3f);  // looking down the -z axis, 17 degrees from above
  auto right = c.pick_plane(0.5f, 0.f, 1.f, 0.f);
  auto lower = c.pick_plane(0.f, -0.5f, 1.f, 0.f);
  ASSERT_TRUE(right && lower);
  EXPECT_GT(right->x, 0.1f);  // cursor right -> +x on the plane
  EXPECT_GT(lower->z, 0.1f);  // cursor lower -> nearer the camera (+z)
  EXPECT_FALSE(
      c.pick_plane(0.f, 0.99f, 1.f, 0.f));  // 22.5 degrees up from the centre: above the horizon
  // Unprojecting the hit point lands back on the cursor.
  const glm::vec4 clip = c.view_proj(1.f) * glm::vec4(*right, 1.f);
  EXPECT_NEAR(clip.x / clip.w, 0.5f, 1e-4f);
  EXPECT_NEAR(clip.y / clip.w, 0.f, 1e-4f);
}

TEST(OrbitCamera, ResetReturnsToTheHome) {
  OrbitCamera c;
  c.set_home({1.f, 2.f, 3.f}, 7.f, 0.1f, 0.2f);
  c.rotate(100, 50);
  c.zoom(3);
  c.pan(10, 10);
  c.reset();
  EXPECT_FLOAT_EQ(c.distance, 7.f);
  EXPECT_FLOAT_EQ(c.yaw, 0.1f);
  EXPECT_FLOAT_EQ(c.pitch, 0.2f);
  EXPECT_FLOAT_EQ(c.target.z, 3.f);
}

// A scene with no buffers (CPU backend, nothing drawn): enough to test the set.
namespace {
class FakeScene : public ParticleScene {
 public:
  FakeScene(const char* name, unsigned n) : ParticleScene(Backend::Cpu), name_(name), n_(n) {}
  const char* name() const override { return name_; }
  ParticleStyle style() const override { return {}; }
  unsigned count() const override { return n_; }
  void reset() override {}
  CameraHome camera_home() const override {
    CameraHome h;
    h.distance = static_cast<float>(n_);
    return h;
  }

 protected:
  void simulate(VertexWrite&, const BlockShape&) override {}

 private:
  const char* name_;
  unsigned n_;
};
}  // namespace

TEST(SceneSet, BuildsOnFirstUseAndKeepsEachScenesState) {
  int built = 0;
  SceneSet set([&](SceneKind k) -> std::unique_ptr<ParticleScene> {
    ++built;
    return std::make_unique<FakeScene>(scene_info(k).name, 10 + static_cast<unsigned>(k.index));
  });
  set.adopt(*parse_scene("fountain"), std::make_unique<FakeScene>("fountain", 5));
  EXPECT_EQ(set.current_kind(), *parse_scene("fountain"));
  EXPECT_EQ(set.current().ui.count_input, 5);
  EXPECT_FLOAT_EQ(set.current().camera.distance, 5.f);  // the scene's home view
  ASSERT_EQ(set.current().scene->set_block(BlockShape{32, 8, 1}), std::nullopt);
  set.current().camera.zoom(2);
  const float zoomed = set.current().camera.distance;

  EXPECT_EQ(set.activate(*parse_scene("nbody")), std::nullopt);
  EXPECT_EQ(set.current_kind(), *parse_scene("nbody"));
  EXPECT_STREQ(set.current().scene->name(), "nbody");
  EXPECT_FLOAT_EQ(set.current().camera.distance, 12.f);
  EXPECT_EQ(built, 1);

  EXPECT_EQ(set.activate(*parse_scene("fountain")), std::nullopt);  // back: as it was left, not rebuilt
  EXPECT_EQ(built, 1);
  EXPECT_EQ(set.current().scene->block().x, 32);
  EXPECT_FLOAT_EQ(set.current().camera.distance, zoomed);
  EXPECT_EQ(set.activate(*parse_scene("nbody")), std::nullopt);
  EXPECT_EQ(built, 1);
}

TEST(SceneSet, AFailedBuildKeepsTheCurrentSceneAndSaysWhy) {
  bool fail = true;
  SceneSet set([&](SceneKind k) -> std::unique_ptr<ParticleScene> {
    if (fail) throw std::runtime_error("cudaMalloc failed: cudaErrorMemoryAllocation");
    return std::make_unique<FakeScene>(scene_info(k).name, 3);
  });
  set.adopt(*parse_scene("swarm"), std::make_unique<FakeScene>("swarm", 7));
  auto err = set.activate(*parse_scene("pi"));
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("pi"), std::string::npos) << *err;
  EXPECT_NE(err->find("cudaErrorMemoryAllocation"), std::string::npos) << *err;
  EXPECT_EQ(set.current_kind(), *parse_scene("swarm"));
  EXPECT_STREQ(set.current().scene->name(), "swarm");
  EXPECT_FALSE(set.built(*parse_scene("pi")));
  fail = false;  // a later try may succeed
  EXPECT_EQ(set.activate(*parse_scene("pi")), std::nullopt);
  EXPECT_EQ(set.current_kind(), *parse_scene("pi"));
}

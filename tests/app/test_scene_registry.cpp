// The scene registry (registry/scene_registry.h): what it refuses, its order
// and its lookups, on a registry of its own (the app's holds the real scenes).
#include <gtest/gtest.h>

#include <stdexcept>

#include "registry/scene_registry.h"
#include "scenes/particle_scene.h"

using namespace cv;

namespace {

SceneDescriptor scene(const char* name, int key) {
  SceneDescriptor d;
  d.name = name;
  d.label = name;
  d.hotkey = key;
  d.max_count = [](Backend) { return 100ll; };
  d.default_count = [](Backend) { return 10ll; };
  d.bytes_per_element = [](const std::optional<std::string>&) { return 16ll; };
  d.make = [](Backend, unsigned, const std::string&,
              const TransferConfig&) -> std::unique_ptr<ParticleScene> {
    return nullptr;
  };
  return d;
}

std::string refusal(SceneRegistry& r, SceneDescriptor d) {
  try {
    r.add(std::move(d));
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(SceneRegistry, KeepsKeyOrderAndNumbersTheKinds) {
  SceneRegistry r;
  r.add(scene("c", 7));
  r.add(scene("a", 2));
  r.add(scene("b", 5));
  ASSERT_EQ(r.all().size(), 3u);
  EXPECT_STREQ(r.all()[0].name, "a");
  EXPECT_STREQ(r.all()[1].name, "b");
  EXPECT_STREQ(r.all()[2].name, "c");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(r.all()[i].kind.index, i);
  ASSERT_TRUE(r.find("b"));
  EXPECT_EQ(r.find("b")->hotkey, 5);
  EXPECT_FALSE(r.find("d"));
  EXPECT_FALSE(r.find(""));
  EXPECT_EQ(r.by_hotkey(7), r.all()[2].kind);
  EXPECT_FALSE(r.by_hotkey(1));
}

TEST(SceneRegistry, RefusesADuplicateNameOrKey) {
  SceneRegistry r;
  r.add(scene("dots", 5));
  std::string e = refusal(r, scene("dots", 6));
  EXPECT_NE(e.find("'dots' registered twice"), std::string::npos) << e;
  e = refusal(r, scene("other", 5));
  EXPECT_NE(e.find("key 5 is dots's"), std::string::npos) << e;
  EXPECT_EQ(r.all().size(), 1u);  // neither was added
}

TEST(SceneRegistry, RefusesAnIncompleteDescriptor) {
  SceneRegistry r;
  EXPECT_NE(refusal(r, scene("", 1)).find("without a name"), std::string::npos);
  EXPECT_NE(refusal(r, scene("a", 0)).find("not 1..9"), std::string::npos);
  EXPECT_NE(refusal(r, scene("a", 10)).find("not 1..9"), std::string::npos);
  SceneDescriptor d = scene("a", 1);
  d.make = nullptr;
  EXPECT_NE(refusal(r, d).find("needs a factory"), std::string::npos);
  d = scene("a", 1);
  d.variants = {"x", "y"};
  d.default_variant = "z";
  EXPECT_NE(refusal(r, d).find("default variant 'z'"), std::string::npos);
  EXPECT_TRUE(r.all().empty());
}

TEST(SceneRegistry, DescriptorHelpers) {
  SceneDescriptor d = scene("a", 1);
  EXPECT_EQ(d.variants_text(), "");
  d.variants = {"lean", "seed"};
  EXPECT_EQ(d.variants_text(), "lean, seed");
  d.params = {{"gravity", ParamType::Number, 0, 1}, {"on", ParamType::Boolean}};
  ASSERT_TRUE(d.param("on"));
  EXPECT_EQ(d.param("on")->type, ParamType::Boolean);
  EXPECT_FALSE(d.param("off"));
}

// The app's own registry: the four built-in scenes, each complete.
TEST(SceneRegistry, TheAppsScenesAreRegisteredOnce) {
  EXPECT_EQ(scene_names_text(), "fountain, swarm, nbody, pi");
  EXPECT_EQ(scene_keys_text(), "1-4");
  for (const SceneDescriptor& d : scene_infos()) {
    EXPECT_EQ(&scene_info(d.kind), &d);
    EXPECT_TRUE(*d.notice) << d.name << " has no notice";
    EXPECT_GE(d.default_count(Backend::Cpu), d.min_count) << d.name;
    EXPECT_LE(d.default_count(Backend::Cpu), d.max_count(Backend::Cpu)) << d.name;
    EXPECT_GT(d.bytes_per_element(std::nullopt), 0) << d.name;
  }
}

// The memory view's models come with the scenes' entries: each one given
// describes a kernel for the scene's variants (a 2D launch of 16x16 here),
// and a scene without one is not drawn (the view says which are).
TEST(SceneRegistry, AccessModelsComeWithTheirScenes) {
  std::string modelled;
  for (const SceneDescriptor& d : scene_infos()) {
    if (!d.access_model) continue;
    modelled += (modelled.empty() ? "" : ", ") + std::string(d.name);
    const std::vector<std::string> variants =
        d.variants.empty() ? std::vector<std::string>{""} : d.variants;
    for (const std::string& v : variants) {
      const auto k = d.access_model(v, 4096, {16, 16, 1});
      ASSERT_TRUE(k) << d.name << " variant " << v;
      EXPECT_FALSE(k->accesses.empty()) << d.name << " variant " << v;
      EXPECT_EQ(k->block_dim.x, 16u) << d.name;
    }
  }
  EXPECT_EQ(modelled, "fountain, swarm");
}

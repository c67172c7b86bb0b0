#pragma once
// The scene menu: names, keys, and construction with the command line's
// --n / --variant checked per scene.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/device_info.h"
#include "scenes/particle_scene.h"

namespace cv {

enum class SceneKind { Fountain = 0, Swarm = 1, NBody = 2, Pi = 3 };
constexpr int kSceneCount = 4;

struct SceneInfo {
  SceneKind kind;
  const char* name;      // --scene value
  const char* label;     // the combo
  const char* variants;  // for messages: "lean, seed"; "" when the scene has none
};
const std::vector<SceneInfo>& scene_infos();
const SceneInfo& scene_info(SceneKind k);
std::optional<SceneKind> parse_scene(const std::string& name);

struct SceneRequest {
  std::optional<long long> n;
  std::optional<std::string> variant;
};

// Throws UsageError ("--n: ...", "--variant: ...") when the request does not
// fit the scene on this backend; allocates nothing.
void check_scene_request(SceneKind kind, Backend backend, const SceneRequest& req);

// Checks, then builds the scene (needs a current GL context) with `transfer`
// (the configuration's interop settings). Throws UsageError for a bad request,
// other exceptions for allocation/CUDA failures.
std::unique_ptr<ParticleScene> make_scene(SceneKind kind, Backend backend,
                                          const SceneRequest& req = {},
                                          const TransferConfig& transfer = {});

}  // namespace cv

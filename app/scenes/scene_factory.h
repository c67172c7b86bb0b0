#pragma once
// Construction of a registered scene (registry/scene_registry.h) with the
// command line's --n / --variant checked against its descriptor.
#include <memory>
#include <optional>
#include <string>

#include "common/device_info.h"
#include "registry/scene_registry.h"
#include "scenes/particle_scene.h"

namespace cv {

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

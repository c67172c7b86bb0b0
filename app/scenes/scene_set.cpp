#include "scenes/scene_set.h"

#include <cuda_runtime_api.h>

namespace cv {

void SceneSet::adopt(SceneKind kind, std::unique_ptr<ParticleScene> scene) {
  SceneSlot& s = slots_.at(kind.index);
  s.scene = std::move(scene);
  s.ui.sync_from(*s.scene);
  const auto home = s.scene->camera_home();
  s.camera.set_home(home.target, home.distance, home.yaw, home.pitch);
  s.scene->take_camera_refit();  // the home above already fits
  current_ = kind;
}

std::optional<std::string> SceneSet::activate(SceneKind kind) {
  if (!built(kind)) {
    std::unique_ptr<ParticleScene> scene;
    try {
      scene = factory_(kind);
      if (!scene) return std::string("no such scene");
    } catch (const std::exception& e) {
      cudaGetLastError();  // an out-of-memory error must not stick to the next call
      return std::string("cannot start ") + scene_info(kind).name + ": " + e.what();
    }
    const std::optional<SceneKind> keep = current_;
    adopt(kind, std::move(scene));
    current_ = keep;
  }
  current_ = kind;
  return std::nullopt;
}

}  // namespace cv

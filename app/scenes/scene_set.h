#pragma once
// The scenes of the menu, each built on first use and then kept with its
// sliders and camera, so switching back finds it as it was left. A scene that
// cannot be built (allocation, CUDA error) leaves the current one in place.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "render/camera.h"
#include "scenes/particle_scene.h"
#include "scenes/scene_factory.h"
#include "scenes/scene_ui.h"

namespace cv {

struct SceneSlot {
  std::unique_ptr<ParticleScene> scene;
  SceneUi ui;
  OrbitCamera camera;
};

class SceneSet {
 public:
  using Factory = std::function<std::unique_ptr<ParticleScene>(SceneKind)>;
  explicit SceneSet(Factory factory)
      : factory_(std::move(factory)), slots_(scene_infos().size()) {}

  // Takes a scene built elsewhere (the one the command line asked for) and makes it current.
  void adopt(SceneKind kind, std::unique_ptr<ParticleScene> scene);
  // Makes `kind` current, building it first if needed. On failure returns the
  // reason (the exception's message) and keeps the current scene.
  std::optional<std::string> activate(SceneKind kind);

  bool has_current() const { return current_.has_value(); }
  SceneKind current_kind() const { return *current_; }
  SceneSlot& current() { return slots_.at(current_->index); }
  const SceneSlot& slot(SceneKind kind) const { return slots_.at(kind.index); }
  bool built(SceneKind kind) const { return slot(kind).scene != nullptr; }

 private:
  Factory factory_;
  std::vector<SceneSlot> slots_;  // one per registered scene
  std::optional<SceneKind> current_;
};

}  // namespace cv

#pragma once
// A scene's tunables by name (its descriptor's params, registry/scene_registry.h):
// presets read and write them through these bindings, and the descriptor gives
// each value's valid range.
#include <string>
#include <vector>

#include "registry/scene_registry.h"
#include "scenes/particle_scene.h"

namespace cv::presets {

using KnobPtr = ParamPtr;

struct Knob {
  const char* key;  // the preset's name for it, e.g. "gravity"
  KnobPtr ptr;
  double min = 0, max = 0;  // inclusive; unused for bool
};

// The scene's bindings (ParticleScene::params) with the descriptor's ranges,
// in the descriptor's order. A binding the descriptor lacks is left out.
std::vector<Knob> knobs_of(ParticleScene& scene, SceneKind kind);

}  // namespace cv::presets

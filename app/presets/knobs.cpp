#include "presets/knobs.h"

namespace cv::presets {

std::vector<Knob> knobs_of(ParticleScene& scene, SceneKind kind) {
  const std::vector<ParamBinding> bound = scene.param_bindings();
  std::vector<Knob> knobs;
  for (const SceneParam& p : scene_info(kind).params)
    for (const ParamBinding& b : bound)
      if (std::string(b.key) == p.key) knobs.push_back({p.key, b.ptr, p.min, p.max});
  return knobs;
}

}  // namespace cv::presets

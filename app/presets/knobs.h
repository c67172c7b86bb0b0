#pragma once
// A scene's tunables by name (the sliders of its panel that are not count,
// variant or block): presets read and write them through these tables, and
// the same table gives each value's valid range. The functions bind to plain
// fields, so the tables are usable (and testable) without a GL context.
#include <string>
#include <variant>
#include <vector>

#include "fountain/fountain_math.h"
#include "nbody/nbody_math.h"
#include "scenes/scene_factory.h"
#include "swarm/swarm_math.h"

namespace cv {
class ParticleScene;
}

namespace cv::presets {

using KnobPtr = std::variant<float*, int*, bool*>;

struct Knob {
  const char* key;  // the preset's name for it, e.g. "gravity"
  KnobPtr ptr;
  double min = 0, max = 0;  // inclusive; unused for bool
};

std::vector<Knob> fountain_knobs(fountain::Params& p, float& point_size);
std::vector<Knob> swarm_knobs(swarm::Params& p, float& point_size, bool& follow_pointer);
std::vector<Knob> nbody_knobs(nbody::Params& p, float& point_size, float& speed_scale,
                              int& steps_per_frame, int& energy_every);
std::vector<Knob> pi_knobs(float& point_size);

// The table of a scene kind bound to scratch values: for names, types and
// ranges only (parsing). Never write through its pointers.
std::vector<Knob> knob_table(SceneKind kind);

// The table bound to a live scene (dynamic type must match `kind`).
std::vector<Knob> knobs_of(ParticleScene& scene, SceneKind kind);

const char* type_name(const KnobPtr& p);  // "number", "integer", "boolean"

}  // namespace cv::presets

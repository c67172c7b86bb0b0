#include "presets/knobs.h"

#include "scenes/fountain_scene.h"
#include "scenes/nbody_scene.h"
#include "scenes/pi_scene.h"
#include "scenes/swarm_scene.h"

namespace cv::presets {

// Ranges are what makes physical sense (and keeps the simulation finite), a
// little wider than the sliders so a value typed with ctrl+click still saves
// and loads.
std::vector<Knob> fountain_knobs(fountain::Params& p, float& point_size) {
  return {
      {"max_age", &p.max_age, 1, 1e6},
      {"gravity", &p.gravity, 0, 1e-2},
      {"bounce", &p.restitution, 0, 1},
      {"table_radius", &p.table_radius, 0.1, 100},
      {"spread", &p.spread, 0, 1},
      {"launch_speed", &p.launch_speed, 0, 1},
      {"launch_jitter", &p.launch_jitter, 0, 1},
      {"emitter_radius", &p.emitter_radius, 0, 10},
      {"emitter_speed", &p.emitter_speed, -1, 1},
      {"point_size", &point_size, 0.5, 500},
  };
}

std::vector<Knob> swarm_knobs(swarm::Params& p, float& point_size, bool& follow_pointer) {
  return {
      {"attraction", &p.attraction, 0, 1e-2},
      {"max_age", &p.max_age, 1, 1e6},
      {"dt", &p.dt, 0.01, 10},
      {"spawn_radius", &p.spawn_radius, 0, 10},
      {"spawn_speed", &p.spawn_speed, 0, 1},
      {"gravity", &p.gravity, 0, 1e-2},
      {"drag", &p.drag, 0, 1},
      {"point_size", &point_size, 0.5, 500},
      {"follow_mouse", &follow_pointer},
  };
}

std::vector<Knob> nbody_knobs(nbody::Params& p, float& point_size, float& speed_scale,
                              int& steps_per_frame, int& energy_every) {
  return {
      {"G", &p.G, 1e-6, 1e6},
      {"dt", &p.dt, 1e-6, 1},
      {"softening", &p.softening, 1e-6, 10},  // > 0: the force law needs eps^2 > 0
      {"steps_per_frame", &steps_per_frame, 1, 100},
      {"energy_every", &energy_every, 0, 100000},
      {"point_size", &point_size, 0.1, 500},
      {"speed_colours", &speed_scale, 0.01, 100},
  };
}

std::vector<Knob> pi_knobs(float& point_size) {
  return {{"point_size", &point_size, 0.5, 500}};
}

std::vector<Knob> knob_table(SceneKind kind) {
  // Scratch targets: the table is read for keys, types and ranges only.
  static fountain::Params fp;
  static swarm::Params sp;
  static nbody::Params np;
  static float f1, f2;
  static int i1, i2;
  static bool b1;
  switch (kind) {
    case SceneKind::Fountain:
      return fountain_knobs(fp, f1);
    case SceneKind::Swarm:
      return swarm_knobs(sp, f1, b1);
    case SceneKind::NBody:
      return nbody_knobs(np, f1, f2, i1, i2);
    case SceneKind::Pi:
      return pi_knobs(f1);
  }
  return {};
}

std::vector<Knob> knobs_of(ParticleScene& scene, SceneKind kind) {
  switch (kind) {
    case SceneKind::Fountain:
      if (auto* s = dynamic_cast<FountainScene*>(&scene))
        return fountain_knobs(s->params(), s->point_size);
      break;
    case SceneKind::Swarm:
      if (auto* s = dynamic_cast<SwarmScene*>(&scene))
        return swarm_knobs(s->params(), s->point_size, s->follow_pointer);
      break;
    case SceneKind::NBody:
      if (auto* s = dynamic_cast<NBodyScene*>(&scene))
        return nbody_knobs(s->params(), s->point_size, s->speed_scale, s->steps_per_frame,
                           s->energy_every);
      break;
    case SceneKind::Pi:
      if (auto* s = dynamic_cast<PiPointsScene*>(&scene)) return pi_knobs(s->point_size);
      break;
  }
  return {};
}

const char* type_name(const KnobPtr& p) {
  if (std::holds_alternative<float*>(p)) return "number";
  if (std::holds_alternative<int*>(p)) return "integer";
  return "boolean";
}

}  // namespace cv::presets

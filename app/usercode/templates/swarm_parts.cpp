#include "usercode/templates/swarm_parts.h"

#include <cstddef>
#include <cstring>

#include "usercode/templates/colour_ids.h"
#include "usercode/templates/particle_check.h"
#include "usercode/templates/swarm_verdict.h"
#include "usercode/templates/swarm_args.h"
#include "swarm/swarm.h"
#include "usercode_kernel_math.h"
#include "usercode_prelude.h"

namespace cv::usercode::swarm_template {
namespace {

unsigned count_of(const Workload& w) { return static_cast<unsigned>(w.n); }

// Each scalar is the feeder's (the scene's), else the built-in's own.
swarm::Variant variant_of(const Workload& w) { return read_or(w, swarm_args::variant, swarm::Variant::Swarm); }
swarm::Params params_of(const Workload& w) {
  return read_or(w, swarm_args::params, swarm::default_params(variant_of(w)));
}
// Step `w.step` since a reset: the target on its path (a scene gives its own,
// the mouse's), the random key of the built-in's step counter.
float3 target_of(const Workload& w) { return read_or(w, swarm_args::target, swarm::path_target(w.step)); }
unsigned key_of(const Workload& w) {
  return read_or(w, swarm_args::key, static_cast<unsigned>(swarm::step_key(w.seed, w.step)));
}

swarm::InitialState start(const Workload& w) {
  return swarm::initial_state(count_of(w), variant_of(w), params_of(w), w.seed, swarm::path_target(0));
}

SpanSpec float4s(Access access, SpanArg::From from, const char* size_text) {
  SpanSpec s;
  s.elem_type = access == Access::Read ? "const float4" : "float4";
  s.elem_bytes = sizeof(float4);
  s.access = access;
  s.size_text = size_text;
  s.size = [](const Workload& w) { return static_cast<unsigned long long>(w.n); };
  s.source = from;
  return s;
}

}  // namespace

std::string math_prelude() {
  return std::string(prelude::math_shims_h) + prelude_math::swarm_math_h + "\n";
}

void fill(TemplateSpec& t) {
  t.feeds = Feeds::Scene;
  t.feeds_name = "swarm";
  t.entry = "swarm_step";
  // The scene's vertex buffers when it shares them, else the runner's own.
  SpanSpec in = float4s(Access::Read, SpanArg::From::Shared, "n (particles): x, y, z, age01");
  in.init = [](const Workload& w) { return bytes_of_all(start(w).vbo); };
  SpanSpec out = float4s(Access::Write, SpanArg::From::Shared, "n (particles): x, y, z, age01");
  out.read_back = true;
  SpanSpec state = float4s(Access::ReadWrite, SpanArg::From::State, "n: vx, vy, vz, age");
  state.init = [](const Workload& w) { return bytes_of_all(start(w).state); };
  t.args = {
      span_arg("in", in),
      span_arg("out", out),
      span_arg("state", state),
      scalar_arg("g", {"cv::swarm::Grid", [](const Workload& w) { return bytes_of(swarm::make_grid(count_of(w))); },
                       {{offsetof(swarm::Grid, count), sizeof(unsigned), {"in", "out", "state"}}}}),
      scalar_arg(swarm_args::target, {target_of}),
      scalar_arg(swarm_args::key, {key_of}),
      scalar_arg(swarm_args::variant, {variant_of}),
      scalar_arg(swarm_args::params, {params_of}),
      span_arg("ids", colour_ids_span()),
  };
  // The built-in's layout (kernels/swarm/swarm.cu): x threads walk a row, y
  // (and z) threads walk rows.
  t.shape = [](const Workload& w) {
    const swarm::Grid g = swarm::make_grid(count_of(w));
    const unsigned bx = static_cast<unsigned>(w.block.x), by = static_cast<unsigned>(w.block.y),
                   bz = static_cast<unsigned>(w.block.z);
    LaunchShape s;
    s.grid[0] = (g.width + bx - 1) / bx;
    s.grid[1] = (g.height + by * bz - 1) / (by * bz);
    s.block[0] = bx, s.block[1] = by, s.block[2] = bz;
    return s;
  };
  t.reference_text =
      "the built-in's math (swarm_math.h) stepped from the same constructed state, target and "
      "random key: both variants, steering and respawns; each component within its float32 "
      "rounding bound";
  t.tolerance_text =
      "per particle and component: twice a bound on the distance between two correct float32 "
      "evaluations of the steps (any order, FMA contraction, rsqrtf), accumulated step by step; ages exact";
  particle_scene_rules(t);
  t.cases = swarm_verdict::cases();
  t.prepare = t.cases.front().prepare;  // the registry makes t.check of it
  t.builtin_variant = "swarm";
  t.cpu_twin = "swarm";
  t.vs_variants = {"swarm", "sparkler"};
}

}  // namespace cv::usercode::swarm_template

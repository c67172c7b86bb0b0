#include "usercode/templates/fountain_parts.h"

#include <cstddef>
#include <cstring>

#include "usercode/templates/fountain_args.h"
#include "fountain/fountain.h"
#include "usercode/templates/colour_ids.h"
#include "usercode/templates/fountain_verdict.h"
#include "usercode/templates/particle_check.h"

namespace cv::usercode::fountain_template {
namespace {

constexpr uint64_t kFrameSeed = 7;  // the frames bench and explain replay

unsigned count_of(const Workload& w) { return static_cast<unsigned>(w.n); }

fountain::Params params_of(const Workload& w) { return read_or(w, fountain_args::params, {}); }

// The frame of step `w.step` since a reset (bench's and explain's launches; a scene gives its own).
fountain::Frame frame_of(const Workload& w) {
  const fountain::Params p = params_of(w);
  fountain::FrameClock clock(kFrameSeed);
  fountain::Frame f = clock.next(p);
  for (int k = 0; k < w.step; ++k) f = clock.next(p);
  return f;
}

fountain::InitialState start(const Workload& w) {
  return fountain::initial_state(fountain::make_grid(count_of(w)), params_of(w), w.seed);
}

SpanSpec particles(Access access, bool read_back) {
  SpanSpec s;
  s.elem_type = access == Access::Read ? "const float4" : "float4";
  s.elem_bytes = sizeof(float4);
  s.access = access;
  s.size_text = "n (particles)";
  s.size = [](const Workload& w) { return static_cast<unsigned long long>(w.n); };
  s.source = SpanArg::From::Shared;  // the scene's vertex buffers; else the runner's own
  s.read_back = read_back;
  return s;
}

}  // namespace

void fill(TemplateSpec& t) {
  t.feeds = Feeds::Scene;
  t.feeds_name = "fountain";
  t.entry = "fountain_step";
  SpanSpec in = particles(Access::Read, false);
  in.init = [](const Workload& w) { return bytes_of_all(start(w).positions); };
  SpanSpec vy;
  vy.elem_type = "float";
  vy.elem_bytes = sizeof(float);
  vy.access = Access::ReadWrite;
  vy.size_text = "n";
  vy.size = in.size;
  vy.source = SpanArg::From::State;
  vy.init = [](const Workload& w) { return bytes_of_all(start(w).vy); };
  t.args = {
      span_arg("in", in),
      span_arg("out", particles(Access::Write, true)),
      span_arg("vy", vy),
      scalar_arg("g", {"cv::Grid", [](const Workload& w) { return bytes_of(fountain::make_grid(count_of(w))); },
                       {{offsetof(fountain::Grid, count), sizeof(unsigned), {"in", "out", "vy"}}}}),
      scalar_arg(fountain_args::frame, {frame_of}),
      scalar_arg(fountain_args::params, {params_of}),
      span_arg("ids", colour_ids_span()),
  };
  t.shape = [](const Workload& w) {
    const fountain::Grid g = fountain::make_grid(count_of(w));
    const unsigned bx = static_cast<unsigned>(w.block.x), by = static_cast<unsigned>(w.block.y);
    LaunchShape s;
    s.grid[0] = (g.width + bx - 1) / bx;
    s.grid[1] = (g.height + by - 1) / by;
    s.block[0] = bx, s.block[1] = by, s.block[2] = static_cast<unsigned>(w.block.z);
    return s;
  };
  t.reference_text =
      "the built-in's math (fountain_math.h) stepped from the same constructed state: launch, flight, "
      "bounces on the table and at its edge, misses beside it, respawns; each component within its "
      "float32 rounding bound";
  t.tolerance_text =
      "per particle and component: twice a bound on the distance between two correct float32 "
      "evaluations of the steps (any order, FMA contraction), accumulated step by step; ages exact";
  particle_scene_rules(t);
  t.cases = fountain_verdict::cases();
  t.prepare = t.cases.front().prepare;  // the registry makes t.check of it
  t.builtin_variant = "lean";
  t.cpu_twin = "lean";
}

}  // namespace cv::usercode::fountain_template

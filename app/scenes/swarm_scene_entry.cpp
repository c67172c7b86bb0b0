// The swarm's registry entry (registry/scene_registry.h) and the hooks the app
// calls on it (ParticleScene): one place says what the swarm is.
#include "scenes/scene_user_kernel.h"
#include "scenes/swarm_scene.h"
#include "swarm/swarm.h"
#include "swarm/swarm_access.h"

namespace cv {
namespace {

std::vector<SceneParam> param_table() {
  using T = ParamType;
  return {
      {"attraction", T::Number, 0, 1e-2, 0, 1e-4, "%.2e", nullptr,
       "Speed gained per step along the unit vector to (swarm) or from (sparkler) the target.",
       true},
      {"max_age", T::Number, 1, 1e6, 10, 2000, "%.0f", "max age",
       "Steps a particle lives before it respawns at the target. Colour shows age: pale young, "
       "violet old."},
      {"dt", T::Number, 0.01, 10},
      {"spawn_radius", T::Number, 0, 10, 0, 1, "%.3f", "spawn radius",
       "How far from the target a particle respawns, per axis."},
      {"spawn_speed", T::Number, 0, 1, 0, 0.05, "%.2e", "spawn speed",
       "Speed a particle respawns with, per axis (the sparkler's burst).", true},
      {"gravity", T::Number, 0, 1e-2, 0, 5e-4, "%.2e", nullptr,
       "Downward speed gained per step (the sparkler falls, the swarm floats at 0)."},
      {"drag", T::Number, 0, 1, 0, 0.05, "%.3f", nullptr,
       "Fraction of the velocity lost per step; 0 is document 004's undamped swarm."},
      {"point_size", T::Number, 0.5, 500, 2, 200, "%.0f", "point size",
       "Sprite size in pixels at distance 1 (drawing only)."},
      {"follow_mouse", T::Boolean},
  };
}

const char* const kNotice =
    "The same 2D launch as the fountain, but every particle reads one shared value, the "
    "target: a uniform read that the whole warp shares for free.\n\n"
    "Divergence: when a particle's age runs out it respawns, taking the other branch. "
    "Threads of one warp that disagree on a branch run both paths one after the other "
    "with half the lanes masked, so a frame where many particles respawn at different "
    "times costs more than the work suggests.\n\n"
    "Switch the target to the mouse and watch a few million threads steer at once.";

SceneDescriptor descriptor() {
  SceneDescriptor d;
  d.name = "swarm";
  d.label = "swarm";
  d.hotkey = 2;
  d.variants = names_of(swarm::all_variants(), [](auto x) { return swarm::to_string(x); });
  d.default_variant = swarm::to_string(swarm::Variant::Swarm);
  d.max_count = [](Backend) { return static_cast<long long>(SwarmScene::kMaxCount); };
  d.default_count = [](Backend) { return static_cast<long long>(SwarmScene::kDefaultCount); };
  // Position+age twice (VBO, staging), velocity+age: three float4s.
  d.bytes_per_element = [](const std::optional<std::string>&) { return 3ll * 16; };
  d.params = param_table();
  d.notice = kNotice;
  d.access_model = [](const std::string&, unsigned count, const BlockShape& b) {
    return std::optional(insight::swarm_access_kernel(count, b));
  };
  d.runs_user_kernels = true;  // templates swarm_kernel and swarm_particle
  d.soak_gpu[0] = 1u << 20, d.soak_gpu[1] = 65536;
  d.soak_cpu[0] = 16384, d.soak_cpu[1] = 65536;
  d.make = [](Backend b, unsigned n, const std::string& v,
               const TransferConfig& t) -> std::unique_ptr<ParticleScene> {
    return std::make_unique<SwarmScene>(b, n, *swarm::parse_variant(v), t);
  };
  return d;
}

const SceneRegistrar reg(descriptor());

}  // namespace

std::vector<ParamBinding> SwarmScene::bind_params(swarm::Params& p, float& point_size,
                                                  bool& follow_pointer) {
  return {{"attraction", &p.attraction},   {"max_age", &p.max_age},
          {"dt", &p.dt},                   {"spawn_radius", &p.spawn_radius},
          {"spawn_speed", &p.spawn_speed}, {"gravity", &p.gravity},
          {"drag", &p.drag},               {"point_size", &point_size},
          {"follow_mouse", &follow_pointer}};
}

// A new variant keeps the particles and loads its default parameters; a new
// count rebuilds.
std::optional<std::string> SwarmScene::rebuild_for(const RebuildRequest& r, bool* rebuilt) {
  if (rebuilt) *rebuilt = false;
  if (r.variant) {
    const auto v = swarm::parse_variant(*r.variant);
    if (!v) return "'" + *r.variant + "' is not a swarm variant";
    if (*v != variant_) set_variant(*v);
  }
  if (r.count == count_) return std::nullopt;
  auto err = reconfigure(r.count);
  if (rebuilt) *rebuilt = !err;
  return err;
}

std::optional<SceneKernel> SwarmScene::kernel() const {
  if (const usercode::UserKernel* uk = user_kernel_running()) return scene_user::kernel_of(*uk, name());
  return SceneKernel{swarm::kernel_attributes(), "swarm (both variants run this kernel)"};
}

}  // namespace cv

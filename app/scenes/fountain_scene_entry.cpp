// The fountain's registry entry (registry/scene_registry.h) and the hooks the
// app calls on it (ParticleScene): one place says what the fountain is.
#include "fountain/fountain.h"
#include "fountain/fountain_access.h"
#include "scenes/fountain_scene.h"
#include "scenes/scene_user_kernel.h"

namespace cv {
namespace {

// Ranges are what makes physical sense (and keeps the simulation finite), a
// little wider than the sliders so a value typed with ctrl+click still saves.
std::vector<SceneParam> param_table() {
  using T = ParamType;
  return {
      {"max_age", T::Number, 1, 1e6, 10, 2000, "%.0f", "max age",
       "Steps a particle lives before respawning at the emitter."},
      {"gravity", T::Number, 0, 1e-2, 0, 5e-4, "%.5f", nullptr, "Vertical speed lost per step."},
      {"bounce", T::Number, 0, 1, 0, 1, "%.3f", nullptr,
       "Fraction of vertical speed kept when a particle hits the table."},
      {"table_radius", T::Number, 0.1, 100, 0.5, 10, "%.3f", "table radius",
       "Radius of the table top the particles bounce on; beyond it they fall."},
      {"spread", T::Number, 0, 1},
      {"launch_speed", T::Number, 0, 1},
      {"launch_jitter", T::Number, 0, 1},
      {"emitter_radius", T::Number, 0, 10},
      {"emitter_speed", T::Number, -1, 1, 0, 0.1, "%.3f", "emitter speed",
       "Radians per step the emitter circles: 0 is a still fountain."},
      {"point_size", T::Number, 0.5, 500, 2, 200, "%.0f", "point size",
       "Sprite size in pixels at distance 1 (drawing only)."},
  };
}

const char* const kNotice =
    "Every particle is one GPU thread, and every frame the kernel writes its new position "
    "straight into the vertex buffer that GL draws: no copy through the CPU.\n\n"
    "Block shape: the particles form a 2D grid and each block covers a tile of it. "
    "Neighbouring threads of a warp (the 32 threads that run in lockstep) should touch "
    "neighbouring particles, so that a warp's loads merge into a few wide memory "
    "transactions (coalescing). Try 256x1 against 1x256: same thread count, but with "
    "1x256 a warp's 32 threads sit in 32 different rows, far apart in memory. Try 1x1: "
    "one thread per block leaves 31 of every warp's 32 lanes idle, which is why the "
    "document 004's table drops from 75 fps to 49.\n\n"
    "Variants: lean moves 40 bytes per particle and step, original 80. The kernel is "
    "memory-bound, so halving the bytes nearly halves the kernel time.";

// Device bytes a particle costs: the VBO pair plus the kernel's own state.
long long bytes_per_particle(const std::optional<std::string>& variant) {
  const auto v = variant ? fountain::parse_variant(*variant) : std::nullopt;
  const bool original = v && *v == fountain::Variant::Original;
  const long long vbo = static_cast<long long>(
      fountain::vbo_bytes(original ? fountain::Variant::Original : fountain::Variant::Lean, 1));
  return 2 * vbo + (original ? 16 : 4);  // + state (original: a float4) or vy (lean)
}

SceneDescriptor descriptor() {
  SceneDescriptor d;
  d.name = "fountain";
  d.label = "fountain";
  d.hotkey = 1;
  d.variants = names_of(fountain::all_variants(), [](auto x) { return fountain::to_string(x); });
  d.default_variant = fountain::to_string(fountain::Variant::Lean);
  d.max_count = [](Backend) { return static_cast<long long>(FountainScene::kMaxCount); };
  d.default_count = [](Backend) { return static_cast<long long>(FountainScene::kDefaultCount); };
  d.bytes_per_element = bytes_per_particle;
  d.params = param_table();
  d.notice = kNotice;
  d.access_model = insight::fountain_access_kernel;
  d.runs_user_kernels = true;
  d.soak_gpu[0] = 1u << 20, d.soak_gpu[1] = 65536;
  d.soak_cpu[0] = 16384, d.soak_cpu[1] = 65536;
  d.make = [](Backend b, unsigned n, const std::string& v,
               const TransferConfig& t) -> std::unique_ptr<ParticleScene> {
    return std::make_unique<FountainScene>(b, n, *fountain::parse_variant(v), t);
  };
  return d;
}

const SceneRegistrar reg(descriptor());

}  // namespace

std::vector<ParamBinding> FountainScene::bind_params(fountain::Params& p, float& point_size) {
  return {{"max_age", &p.max_age},
          {"gravity", &p.gravity},
          {"bounce", &p.restitution},
          {"table_radius", &p.table_radius},
          {"spread", &p.spread},
          {"launch_speed", &p.launch_speed},
          {"launch_jitter", &p.launch_jitter},
          {"emitter_radius", &p.emitter_radius},
          {"emitter_speed", &p.emitter_speed},
          {"point_size", &point_size}};
}

std::optional<std::string> FountainScene::rebuild_for(const RebuildRequest& r, bool* rebuilt) {
  if (rebuilt) *rebuilt = false;
  auto v = variant_;
  if (r.variant) {
    const auto pv = fountain::parse_variant(*r.variant);
    if (!pv) return "'" + *r.variant + "' is not a fountain variant";
    v = *pv;
  }
  if (r.count == count_ && v == variant_) return std::nullopt;
  auto err = reconfigure(r.count, v);
  if (rebuilt) *rebuilt = !err;
  return err;
}

std::optional<SceneKernel> FountainScene::kernel() const {
  SceneKernel k;
  if (const usercode::UserKernel* uk = user_kernel_running()) return scene_user::kernel_of(*uk, name());
  k.attributes = fountain::kernel_attributes(variant_);
  k.context = std::string("fountain, variant ") + fountain::to_string(variant_);
  return k;
}

}  // namespace cv

// N-body's registry entry (registry/scene_registry.h) and the hooks the app
// calls on it (ParticleScene): one place says what the n-body scene is.
#include "nbody/nbody.h"
#include "scenes/nbody_scene.h"
#include "scenes/scene_user_kernel.h"

namespace cv {
namespace {

std::vector<std::string> initial_names() {
  const nbody::Initial all[] = {nbody::Initial::Sphere, nbody::Initial::Disk,
                                nbody::Initial::Galaxies};
  return names_of(all, [](nbody::Initial ic) { return nbody::to_string(ic); });
}

std::vector<std::string> fast_build_names() {
  std::vector<std::string> v = {"auto"};
  for (const std::string& b : nbody::fast_tile_names()) v.push_back(b);
  return v;
}

std::vector<SceneParam> param_table() {
  using T = ParamType;
  return {
      {"G", T::Number, 1e-6, 1e6},
      {"dt", T::Number, 1e-6, 1, 1e-4, 1e-2, "%.4f", nullptr,
       "Time step. Larger steps integrate faster and drift more: watch the energy.", true},
      // > 0: the force law needs eps^2 > 0.
      {"softening", T::Number, 1e-6, 10, 1e-3, 0.2, "%.3f", nullptr,
       "eps in r / (r^2 + eps^2)^(3/2): keeps close encounters finite.", true},
      {"steps_per_frame", T::Integer, 1, 100, 1, 20, "%d", "steps / frame",
       "More simulated time per frame; the kernel plot then covers all of them."},
      {"energy_every", T::Integer, 0, 100000, 0, 120, "%d", "every k frames",
       "0: only on demand. Off by default above 65,536 bodies: it costs about one step."},
      {"point_size", T::Number, 0.1, 500, 0.5, 20, "%.1f", "point size",
       "Body size in pixels (drawing only)."},
      {"speed_colours", T::Number, 0.01, 100, 0.1, 4, "%.2f", "speed colours",
       "Speed that maps to orange, relative to the 95th percentile at reset. Blue slow, white, "
       "orange fast."},
  };
}

const char* const kNotice =
    "All pairs: N bodies need N^2 interactions per step, 20 floating-point operations "
    "each, so this is the scene where the GPU's arithmetic shows (GFLOP/s in the timing "
    "panel).\n\n"
    "original reads every other body from global memory; tiled has a block load a tile of "
    "bodies into shared memory once and every thread reuse it, cutting global traffic "
    "by the block size. fast gives each thread several bodies so each shared-memory "
    "load feeds more arithmetic.\n\n"
    "Softening (eps) keeps the force finite when two bodies nearly collide; too small "
    "and close passes fling bodies out. The time step dt trades speed for accuracy: "
    "raise it and watch the energy drift grow. Block size: a multiple of 32 fills whole "
    "warps; larger tiles reuse more but leave fewer blocks per SM (occupancy).";

SceneDescriptor descriptor() {
  SceneDescriptor d;
  d.name = "nbody";
  d.label = "n-body";
  d.hotkey = 3;
  d.variants = names_of(nbody::all_variants(), [](auto x) { return nbody::to_string(x); });
  d.default_variant = nbody::to_string(nbody::Variant::Fast);
  d.count_noun = "bodies";
  d.usage_note = "1D block";
  d.runs_user_kernels = true;  // template nbody_kernel: your accelerations, integrated here
  d.min_count = 2;
  d.max_count = [](Backend b) { return static_cast<long long>(NBodyScene::max_count(b)); };
  d.default_count = [](Backend b) { return static_cast<long long>(NBodyScene::default_count(b)); };
  // VBO, staging; bodies, velocities; >= 2 acceleration slices: six float4s.
  d.bytes_per_element = [](const std::optional<std::string>&) { return 6ll * 16; };
  d.params = param_table();
  d.choices = {{"initial", initial_names, true}, {"fast_build", fast_build_names}};
  d.notice = kNotice;
  d.soak_gpu[0] = 16384, d.soak_gpu[1] = 4096;
  d.soak_cpu[0] = 512, d.soak_cpu[1] = 1024;
  d.make = [](Backend b, unsigned n, const std::string& v,
               const TransferConfig& t) -> std::unique_ptr<ParticleScene> {
    return std::make_unique<NBodyScene>(b, n, *nbody::parse_variant(v), nbody::Initial::Galaxies,
                                        t);
  };
  return d;
}

const SceneRegistrar reg(descriptor());

}  // namespace

std::vector<ParamBinding> NBodyScene::bind_params(nbody::Params& p, float& point_size,
                                                  float& speed_scale, int& steps_per_frame,
                                                  int& energy_every) {
  return {{"G", &p.G},
          {"dt", &p.dt},
          {"softening", &p.softening},
          {"steps_per_frame", &steps_per_frame},
          {"energy_every", &energy_every},
          {"point_size", &point_size},
          {"speed_colours", &speed_scale}};
}

std::map<std::string, std::string> NBodyScene::choices() const {
  return {{"initial", nbody::to_string(initial_)},
          {"fast_build", fast_build.empty() ? "auto" : fast_build}};
}

// The fast build, checked against the block the scene will run (the preset's
// or the current one) before that block is applied, which checks it in turn.
std::optional<std::string> NBodyScene::set_choice(const std::string& key, const std::string& value,
                                                  const BlockShape& next_block) {
  if (key != "fast_build") return "'" + key + "' is not a setting of the nbody scene";
  const std::string name = value == "auto" ? "" : value;
  if (!name.empty() && next_block.threads() > nbody::fast_tile_max_threads(name))
    return "build " + name + " runs blocks of at most " +
           std::to_string(nbody::fast_tile_max_threads(name)) + " threads, not " +
           std::to_string(next_block.threads()) + "; keeping " +
           (fast_build.empty() ? "auto" : fast_build);
  fast_build = name;
  return std::nullopt;
}

// The variant switches live; a new count or initial condition rebuilds.
std::optional<std::string> NBodyScene::rebuild_for(const RebuildRequest& r, bool* rebuilt) {
  if (rebuilt) *rebuilt = false;
  if (r.variant) {
    const auto v = nbody::parse_variant(*r.variant);
    if (!v) return "'" + *r.variant + "' is not an nbody variant";
    variant = *v;
  }
  auto ic = initial_;
  if (auto it = r.choices.find("initial"); it != r.choices.end())
    if (auto pi = nbody::parse_initial(it->second)) ic = *pi;
  if (r.count == count_ && ic == initial_) return std::nullopt;
  auto err = reconfigure(r.count, ic);  // checks the backend's limit and names it
  if (rebuilt) *rebuilt = !err;
  return err;
}

std::optional<SceneKernel> NBodyScene::kernel() const {
  if (const usercode::UserKernel* uk = user_kernel_running()) return scene_user::kernel_of(*uk, name());
  return SceneKernel{nbody::kernel_attributes(variant, block(), fast_build),
                     std::string("nbody, variant ") + nbody::to_string(variant) +
                         " (the force kernel; gather and finish are light)"};
}

}  // namespace cv

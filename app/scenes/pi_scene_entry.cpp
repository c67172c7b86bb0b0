// The pi points' registry entry (registry/scene_registry.h) and the hooks the
// app calls on it (ParticleScene): one place says what the pi scene is.
#include "labs/pi/pi_points.h"
#include "scenes/pi_scene.h"

namespace cv {
namespace {

const char* const kNotice =
    "Monte-Carlo pi: a point of the unit square lands inside the quarter circle with "
    "probability pi/4, so pi ~ 4 x inside / total. Each GPU thread draws its own points "
    "from its own random stream (no two threads may share one).\n\n"
    "The error shrinks only as 1/sqrt(n): a hundred times more points for one more "
    "correct digit, which is why this job wants thousands of threads. Counting the hits "
    "is a reduction: many threads adding into one total, which is where races come in "
    "(see the count3 lab).";

SceneDescriptor descriptor() {
  SceneDescriptor d;
  d.name = "pi";
  d.label = "pi points";
  d.hotkey = 4;
  d.count_noun = "points";
  d.max_count = [](Backend) { return static_cast<long long>(PiPointsScene::kMaxCount); };
  d.default_count = [](Backend) { return static_cast<long long>(PiPointsScene::kDefaultCount); };
  d.bytes_per_element = [](const std::optional<std::string>&) { return 2ll * 16; };
  d.params = {{"point_size", ParamType::Number, 0.5, 500, 1, 40, "%.0f", "point size",
               "Point size in pixels (drawing only)."}};
  d.notice = kNotice;
  d.soak_gpu[0] = d.soak_cpu[0] = 10000;
  d.soak_gpu[1] = d.soak_cpu[1] = 50000;
  d.make = [](Backend b, unsigned n, const std::string&,
               const TransferConfig& t) -> std::unique_ptr<ParticleScene> {
    return std::make_unique<PiPointsScene>(b, n, t);
  };
  return d;
}

const SceneRegistrar reg(descriptor());

}  // namespace

std::optional<std::string> PiPointsScene::rebuild_for(const RebuildRequest& r, bool* rebuilt) {
  if (rebuilt) *rebuilt = false;
  if (r.count == count_) return std::nullopt;
  auto err = reconfigure(r.count);
  if (rebuilt) *rebuilt = !err;
  return err;
}

std::optional<SceneKernel> PiPointsScene::kernel() const {
  return SceneKernel{pi::points_kernel_attributes(), "pi points"};
}

}  // namespace cv

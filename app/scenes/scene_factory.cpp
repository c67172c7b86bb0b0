#include "scenes/scene_factory.h"

#include <algorithm>

#include "bench/bench.h"
#include "cli.h"
#include "scenes/scene_memory.h"

namespace cv {

void check_scene_request(SceneKind kind, Backend backend, const SceneRequest& req) {
  const SceneDescriptor& info = scene_info(kind);
  if (req.n) {
    const long long lo = info.min_count, hi = info.max_count(backend);
    if (*req.n < lo || *req.n > hi)
      throw UsageError("--n: " + std::to_string(*req.n) + " is outside the " + info.name +
                       " scene's range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]" +
                       (backend == Backend::Cpu && hi < info.max_count(Backend::Cuda)
                            ? " on the CPU backend"
                            : ""));
    // Small GPUs: refuse before allocating, naming what fits.
    if (auto fit = check_scene_memory(kind, backend, *req.n, req.variant); fit && !fit->fits)
      throw UsageError("--n: " + fit->message);
  }
  // An older spelling (`--variant seed`) stands for its variant's name.
  const bench::Target* bt = bench::find_target(info.name);
  if (req.variant && std::find(info.variants.begin(), info.variants.end(),
                               bt ? bench::canonical_variant(*bt, *req.variant) : *req.variant) ==
                         info.variants.end()) {
    if (info.variants.empty())
      throw UsageError(std::string("--variant: the ") + info.name + " scene has no variants");
    throw UsageError("--variant: '" + *req.variant + "' is not a " + info.name + " variant (" +
                     info.variants_text() + ")");
  }
}

std::unique_ptr<ParticleScene> make_scene(SceneKind kind, Backend backend, const SceneRequest& req,
                                          const TransferConfig& transfer) {
  check_scene_request(kind, backend, req);
  const SceneDescriptor& info = scene_info(kind);
  return info.make(backend, static_cast<unsigned>(req.n.value_or(info.default_count(backend))),
                   req.variant.value_or(info.default_variant), transfer);
}

}  // namespace cv

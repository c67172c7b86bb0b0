#include "scenes/scene_factory.h"

#include "cli.h"
#include "fountain/fountain.h"
#include "nbody/nbody.h"
#include "scenes/fountain_scene.h"
#include "scenes/nbody_scene.h"
#include "scenes/pi_scene.h"
#include "scenes/scene_memory.h"
#include "scenes/swarm_scene.h"
#include "swarm/swarm.h"

namespace cv {

const std::vector<SceneInfo>& scene_infos() {
  static const std::vector<SceneInfo> v{
      {SceneKind::Fountain, "fountain", "1 fountain", "lean, seed"},
      {SceneKind::Swarm, "swarm", "2 swarm", "swarm, sparkler"},
      {SceneKind::NBody, "nbody", "3 n-body", "seed, tiled, fast"},
      {SceneKind::Pi, "pi", "4 pi points", ""},
  };
  return v;
}

const SceneInfo& scene_info(SceneKind k) {
  return scene_infos()[static_cast<int>(k)];
}

std::optional<SceneKind> parse_scene(const std::string& name) {
  for (const SceneInfo& s : scene_infos())
    if (name == s.name) return s.kind;
  return std::nullopt;
}

namespace {

long long max_count(SceneKind kind, Backend backend) {
  switch (kind) {
    case SceneKind::Fountain:
      return FountainScene::kMaxCount;
    case SceneKind::Swarm:
      return SwarmScene::kMaxCount;
    case SceneKind::NBody:
      return NBodyScene::max_count(backend);
    case SceneKind::Pi:
      return PiPointsScene::kMaxCount;
  }
  return 0;
}

long long min_count(SceneKind kind) {
  return kind == SceneKind::NBody ? 2 : 1;
}

bool known_variant(SceneKind kind, const std::string& v) {
  switch (kind) {
    case SceneKind::Fountain:
      return fountain::parse_variant(v).has_value();
    case SceneKind::Swarm:
      return swarm::parse_variant(v).has_value();
    case SceneKind::NBody:
      return nbody::parse_variant(v).has_value();
    case SceneKind::Pi:
      return false;
  }
  return false;
}

}  // namespace

void check_scene_request(SceneKind kind, Backend backend, const SceneRequest& req) {
  const SceneInfo& info = scene_info(kind);
  if (req.n) {
    const long long lo = min_count(kind), hi = max_count(kind, backend);
    if (*req.n < lo || *req.n > hi)
      throw UsageError(
          "--n: " + std::to_string(*req.n) + " is outside the " + info.name + " scene's range [" +
          std::to_string(lo) + ", " + std::to_string(hi) + "]" +
          (kind == SceneKind::NBody && backend == Backend::Cpu ? " on the CPU backend" : ""));
    // Small GPUs: refuse before allocating, naming what fits.
    if (auto fit = check_scene_memory(kind, backend, *req.n, req.variant); fit && !fit->fits)
      throw UsageError("--n: " + fit->message);
  }
  if (req.variant && !known_variant(kind, *req.variant)) {
    if (!*info.variants)
      throw UsageError(std::string("--variant: the ") + info.name + " scene has no variants");
    throw UsageError("--variant: '" + *req.variant + "' is not a " + info.name + " variant (" +
                     info.variants + ")");
  }
}

std::unique_ptr<ParticleScene> make_scene(SceneKind kind, Backend backend, const SceneRequest& req,
                                          const TransferConfig& transfer) {
  check_scene_request(kind, backend, req);
  switch (kind) {
    case SceneKind::Fountain: {
      const auto v = req.variant ? *fountain::parse_variant(*req.variant) : fountain::Variant::Lean;
      return std::make_unique<FountainScene>(
          backend, static_cast<unsigned>(req.n.value_or(FountainScene::kDefaultCount)), v,
          transfer);
    }
    case SceneKind::Swarm: {
      const auto v = req.variant ? *swarm::parse_variant(*req.variant) : swarm::Variant::Swarm;
      return std::make_unique<SwarmScene>(
          backend, static_cast<unsigned>(req.n.value_or(SwarmScene::kDefaultCount)), v, transfer);
    }
    case SceneKind::NBody: {
      const auto v = req.variant ? *nbody::parse_variant(*req.variant) : nbody::Variant::Fast;
      return std::make_unique<NBodyScene>(
          backend, static_cast<unsigned>(req.n.value_or(NBodyScene::default_count(backend))), v,
          nbody::Initial::Galaxies, transfer);
    }
    case SceneKind::Pi:
      return std::make_unique<PiPointsScene>(
          backend, static_cast<unsigned>(req.n.value_or(PiPointsScene::kDefaultCount)), transfer);
  }
  return nullptr;
}

}  // namespace cv

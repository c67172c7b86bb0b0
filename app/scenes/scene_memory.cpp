#include "scenes/scene_memory.h"

#include "fountain/fountain.h"

namespace cv {

long long device_bytes_per_element(SceneKind kind, const std::optional<std::string>& variant) {
  constexpr long long f4 = 16;  // a float4
  switch (kind) {
    case SceneKind::Fountain: {
      const auto v = variant ? fountain::parse_variant(*variant) : std::nullopt;
      const bool seed = v && *v == fountain::Variant::Seed;
      const long long vbo = static_cast<long long>(
          fountain::vbo_bytes(seed ? fountain::Variant::Seed : fountain::Variant::Lean, 1));
      return 2 * vbo + (seed ? f4 : 4);  // + state (seed) or vy (lean)
    }
    case SceneKind::Swarm:
      return 2 * f4 + f4;  // position+age twice (VBO, staging), velocity+age
    case SceneKind::NBody:
      return 2 * f4 + 2 * f4 +
             2 * f4;  // VBO, staging; bodies, velocities; >= 2 acceleration slices
    case SceneKind::Pi:
      return 2 * f4;
  }
  return f4;
}

std::optional<MemoryFit> check_scene_memory(SceneKind kind, Backend backend, long long count,
                                            const std::optional<std::string>& variant) {
  if (backend != Backend::Cuda) return std::nullopt;
  const auto free_bytes = device_free_bytes();
  if (!free_bytes) return std::nullopt;
  const char* what = kind == SceneKind::NBody ? "bodies"
                     : kind == SceneKind::Pi  ? "points"
                                              : "particles";
  return fit_count(count, device_bytes_per_element(kind, variant), *free_bytes, what,
                   device_info().name);
}

}  // namespace cv

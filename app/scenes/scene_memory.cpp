#include "scenes/scene_memory.h"

namespace cv {

long long device_bytes_per_element(SceneKind kind, const std::optional<std::string>& variant) {
  return scene_info(kind).bytes_per_element(variant);
}

std::optional<MemoryFit> check_scene_memory(SceneKind kind, Backend backend, long long count,
                                            const std::optional<std::string>& variant) {
  if (backend != Backend::Cuda) return std::nullopt;
  const auto free_bytes = device_free_bytes();
  if (!free_bytes) return std::nullopt;
  const SceneDescriptor& info = scene_info(kind);
  return fit_count(count, info.bytes_per_element(variant), *free_bytes, info.count_noun,
                   device_info().name);
}

}  // namespace cv

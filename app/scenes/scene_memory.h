#pragma once
// GPU memory a scene's count costs, checked before anything is allocated: a
// request that does not fit is refused with the limit named (--n), and a
// preset asking for more is scaled down with a note (never silently).
#include <optional>
#include <string>

#include "common/memory_fit.h"
#include "registry/scene_registry.h"

namespace cv {

// Device bytes one element costs on the CUDA backend: the vertex buffer, the
// kernel's private state, and the copy path's staging buffer (worst case).
long long device_bytes_per_element(SceneKind kind, const std::optional<std::string>& variant);

// Checks `count` against the selected device's free memory; nullopt on the CPU
// backend or when the free memory cannot be read (the allocation then decides).
std::optional<MemoryFit> check_scene_memory(SceneKind kind, Backend backend, long long count,
                                            const std::optional<std::string>& variant);

}  // namespace cv

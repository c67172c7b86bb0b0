#pragma once
// Memory in use by this process, for the soak run: host resident set size
// (/proc/self/statm) and device memory in use (cudaMemGetInfo, CUDA backend).
#include <cstdint>
#include <optional>

#include "common/device_info.h"

namespace cv {

// Resident bytes, or nullopt where /proc is not available.
std::optional<uint64_t> host_rss_bytes();
// total - free device memory (the whole device, so other processes count too);
// nullopt on the CPU backend. Throws CudaError when the query fails.
std::optional<uint64_t> gpu_used_bytes(Backend backend);

}  // namespace cv

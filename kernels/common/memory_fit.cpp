#include "memory_fit.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>

namespace cv {

long long memory_headroom(long long free_bytes) {
  return std::max(256ll << 20, free_bytes / 10);
}

std::string gib_text(long long bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1ll << 30));
  return buf;
}

MemoryFit fit_count(long long requested, long long bytes_per_element, long long free_bytes,
                    const std::string& what, const std::string& device_name) {
  MemoryFit f;
  const long long per = std::max(bytes_per_element, 1ll);
  f.usable_bytes = std::max(0ll, free_bytes - memory_headroom(free_bytes));
  f.max_count = f.usable_bytes / per;
  f.need_bytes = requested * per;
  f.fits = requested <= f.max_count;
  if (f.fits) {
    f.max_count = requested;
    return f;
  }
  f.message = std::to_string(requested) + " " + what + " need " + gib_text(f.need_bytes) +
              " of GPU memory (" + std::to_string(per) + " B each); " + device_name + " has " +
              gib_text(free_bytes) + " free, of which " + gib_text(f.usable_bytes) +
              " can be used (the rest stays for the driver and OpenGL): at most " +
              std::to_string(f.max_count) + " " + what;
  return f;
}

std::optional<long long> device_free_bytes(std::string* error) {
  size_t free_b = 0, total_b = 0;
  const cudaError_t e = cudaMemGetInfo(&free_b, &total_b);
  if (e != cudaSuccess) {
    if (error) *error = std::string("cudaMemGetInfo: ") + cudaGetErrorName(e);
    cudaGetLastError();
    return std::nullopt;
  }
  return static_cast<long long>(free_b);
}

}  // namespace cv

#include "soak/memory_sample.h"

#include <unistd.h>

#include <cuda_runtime_api.h>

#include <cstdio>

#include "common/cuda_check.h"

namespace cv {

std::optional<uint64_t> host_rss_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return std::nullopt;
  unsigned long long size = 0, resident = 0;
  const int got = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  if (got != 2) return std::nullopt;
  return static_cast<uint64_t>(resident) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

std::optional<uint64_t> gpu_used_bytes(Backend backend) {
  if (backend != Backend::Cuda) return std::nullopt;
  size_t free_bytes = 0, total = 0;
  CV_CUDA(cudaMemGetInfo(&free_bytes, &total));
  return static_cast<uint64_t>(total - free_bytes);
}

}  // namespace cv

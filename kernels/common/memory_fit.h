#pragma once
// Whether N elements fit in the GPU's free memory, checked before allocating
// (a 4 GB laptop GPU, a GPU shared with the desktop): pure arithmetic plus one
// cudaMemGetInfo. The answer names the limit so a refusal can say it.
#include <optional>
#include <string>

namespace cv {

struct MemoryFit {
  bool fits = true;
  long long max_count = 0;   // the most elements that fit (<= the request when it fits)
  long long need_bytes = 0;  // what the request needs
  long long usable_bytes = 0;
  std::string message;  // set when it does not fit: names the count, the need and the limit
};

// Keeps this much free for the driver, the GL side and the UI: 256 MiB or 10%
// of the free memory, whichever is more.
long long memory_headroom(long long free_bytes);

// `what` is e.g. "particles"; bytes_per_element is everything one element costs
// on the device (vertex buffer, private state, copy staging).
MemoryFit fit_count(long long requested, long long bytes_per_element, long long free_bytes,
                    const std::string& what, const std::string& device_name);

// cudaMemGetInfo on the current device; nullopt (with *error) when it fails.
std::optional<long long> device_free_bytes(std::string* error = nullptr);

// "1.5 GiB"
std::string gib_text(long long bytes);

}  // namespace cv

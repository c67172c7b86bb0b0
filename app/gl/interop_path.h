#pragma once
// Which CUDA -> GL transfer path a vertex/image buffer uses, chosen once at
// start. The chain, best first: External (CUDA-allocated memory imported into
// GL once: no per-frame map), Map (registered GL buffer mapped each frame),
// Copy (device -> host -> glBufferSubData). Each step down carries the reason.
// The configuration (config/config.h: CUDAVIZ_INTEROP, CUDAVIZ_FORCE_COPY) picks
// where the chain starts (tests and measurements) and the buffer count.
#include <string>

#include "config/interop_setting.h"  // InteropPath, InteropConfig

namespace cv {

// How a vertex target's contents reach GL: one of the chain's paths, or the
// CPU backend's upload of host memory.
enum class TransferMode { External, Interop, CopyFallback, HostUpload };
// "external memory", "interop", "copy fallback", "host upload"
const char* to_string(TransferMode m);

// The fallback chain as data: given where it starts and why each path could
// not be set up (empty = it works), the path used and the reasons of the paths
// skipped, joined with "; " ("" when the first one tried works).
struct InteropChoice {
  InteropPath path = InteropPath::Copy;
  std::string reason;
};
InteropChoice choose_interop_path(InteropPath start, const std::string& external_error,
                                  const std::string& map_error);

}  // namespace cv

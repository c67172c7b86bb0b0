#pragma once
// Which CUDA -> GL transfer path a vertex/image buffer uses, chosen once at
// start. The chain, best first: External (CUDA-allocated memory imported into
// GL once: no per-frame map), Map (registered GL buffer mapped each frame),
// Copy (device -> host -> glBufferSubData). Each step down carries the reason.
// CUDAVIZ_INTEROP picks where the chain starts (tests and measurements) and the
// buffer count; CUDAVIZ_FORCE_COPY=1 (older spelling) starts it at Copy.
#include <string>

namespace cv {

enum class InteropPath { External, Map, Copy };
// How a vertex target's contents reach GL: one of the chain's paths, or the
// CPU backend's upload of host memory.
enum class TransferMode { External, Interop, CopyFallback, HostUpload };
// "external memory", "interop", "copy fallback", "host upload"
const char* to_string(TransferMode m);
const char* to_string(InteropPath p);  // "external", "map", "copy"

struct InteropConfig {
  InteropPath start = InteropPath::External;  // the first path tried
  bool single = false;                        // one buffer even where ping-pong works
};

// Parses CUDAVIZ_INTEROP: a comma-separated list of external|map|copy (where the
// chain starts) and single|double (buffer count), e.g. "map,single"; null or
// empty gives the defaults. force_copy: CUDAVIZ_FORCE_COPY's value. Throws
// std::invalid_argument naming the bad word and the accepted ones.
InteropConfig parse_interop_config(const char* interop, const char* force_copy);
// The same from the environment.
InteropConfig interop_config_from_env();

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

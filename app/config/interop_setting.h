#pragma once
// How the CUDA -> GL transfer is set up, as the configuration gives it
// (CUDAVIZ_INTEROP, CUDAVIZ_FORCE_COPY); gl/interop_path.h walks the chain.
#include <string>

namespace cv {

// The chain, best first: External (CUDA-allocated memory imported into GL
// once: no per-frame map), Map (registered GL buffer mapped each frame), Copy
// (device -> host -> glBufferSubData).
enum class InteropPath { External, Map, Copy };
const char* to_string(InteropPath p);  // "external", "map", "copy"

struct InteropConfig {
  InteropPath start = InteropPath::External;  // the first path tried
  bool single = false;                        // one buffer even where ping-pong works
};

// What a scene's vertex buffers are built with: the chain's start and buffer
// count, and CUDAVIZ_GL_FINISH (a diagnostic: glFinish before each step, so
// the map finds GL idle; a map time that drops with it was a wait for GL's
// earlier work, not a cost of mapping).
struct TransferConfig {
  InteropConfig interop;
  bool gl_finish = false;
};

// Parses CUDAVIZ_INTEROP: a comma-separated list of external|map|copy (where the
// chain starts) and single|double (buffer count), e.g. "map,single"; null or
// empty gives the defaults. force_copy: CUDAVIZ_FORCE_COPY's value (older
// spelling: set and not "0" starts at copy). Throws std::invalid_argument
// naming the bad word and the accepted ones.
InteropConfig parse_interop_config(const char* interop, const char* force_copy);

}  // namespace cv

#include "system/interop_findings.h"

namespace cv::sys {
namespace {

// The finding for the path the app ends on.
Finding path_finding(const Facts& f, InteropPath path) {
  const InteropFacts& i = f.gl.interop;
  switch (path) {
    case InteropPath::External:
      return {Level::Ok, "interop",
              "the app uses external memory: CUDA allocates the vertex buffers (cuMemCreate) and "
              "GL imports them once (GL_EXT_memory_object_fd): no map per frame",
              ""};
    case InteropPath::Map:
      return {Level::Ok, "interop",
              "the app uses the map path: a test buffer registered with CUDA "
              "(cudaGraphicsGLRegisterBuffer), mapped each frame: the particles are written "
              "straight into the VBO",
              ""};
    default:
      break;
  }
  if (i.start == InteropPath::Copy)
    return {Level::Info, "interop",
            "the app uses the copy path (frames copied through the host): forced by " + i.setting,
            ""};
  std::string fix = "nothing breaks: the copy path is used (slower at millions of particles)";
  if (f.display.wsl)
    fix += "; WSL2 does not support interop";
  else if (non_nvidia_gl(f.gl))
    fix += "; to fix, run GL on the NVIDIA GPU: " + std::string(kPrimeOffloadLine);
  return {Level::Warn, "interop",
          "the app uses the copy path: each frame goes device -> host -> glBufferSubData", fix};
}

}  // namespace

InteropPath interop_path(const InteropFacts& i) {
  return choose_interop_path(i.start, i.external_error, i.map_error).path;
}

void interop_findings(const Facts& f, std::vector<Finding>& out) {
  const InteropFacts& i = f.gl.interop;
  if (!i.config_error.empty()) {
    out.push_back({Level::Error, "interop", i.config_error + ": cudaviz refuses to start",
                   "unset it, or give a comma list of external|map|copy (where the chain "
                   "starts) and single|double (buffers), e.g. CUDAVIZ_INTEROP=map,single"});
    return;
  }
  if (!i.tried) return;  // the CPU backend uploads from the host: no chain
  if (!i.setting.empty())
    out.push_back({Level::Info, "interop",
                   i.setting + ": the chain starts at " + to_string(i.start) +
                       (i.single ? ", one buffer per scene" : ""),
                   ""});
  if (!i.error.empty()) {
    out.push_back({Level::Warn, "interop", "a test vertex buffer could not be made: " + i.error,
                   "the scenes' buffers would fail the same way: check the free GPU memory "
                   "and the errors above"});
    return;
  }
  // The paths tried before the one used, best first, each with its failure.
  const InteropPath path = interop_path(i);
  if (i.start == InteropPath::External && path != InteropPath::External)
    out.push_back({Level::Info, "interop",
                   "external memory failed: " + i.external_error + " (GL: " + f.gl.renderer + ")",
                   ""});
  if (i.start != InteropPath::Copy && path == InteropPath::Copy)
    out.push_back({Level::Info, "interop", "map failed: " + i.map_error, ""});
  out.push_back(path_finding(f, path));
}

}  // namespace cv::sys

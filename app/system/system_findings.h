#pragma once
// Facts -> findings: what works, what does not, and for each problem a fix in
// plain words. Pure functions (no CUDA, no GL), unit-tested with fake facts.
#include <functional>
#include <string>
#include <vector>

#include "system/system_facts.h"

namespace cv::sys {

enum class Level { Ok, Info, Warn, Error };
const char* to_string(Level l);  // "ok", "note", "problem", "cannot run"

struct Finding {
  Level level = Level::Info;
  std::string topic;  // "driver", "GPU 0", "display", "OpenGL", "interop", ...
  std::string text;   // what was found
  std::string fix;    // what to do; empty when nothing is needed
};

// How the app would run here, best first.
// CudaInterop is the registered-buffer map path.
enum class RunMode { CudaExternal, CudaInterop, CudaCopy, Cpu, Cannot };
const char* describe(RunMode m);

// The display server from $DISPLAY, $WAYLAND_DISPLAY and $XDG_SESSION_TYPE,
// and WSL from $WSL_DISTRO_NAME or /proc/version's text.
DisplayServer classify_display(const std::string& display, const std::string& wayland,
                               const std::string& session_type);
bool is_wsl(const std::string& wsl_distro_name, const std::string& proc_version);
const char* to_string(DisplayServer s);

// The launch line that puts OpenGL on the NVIDIA GPU of a hybrid laptop.
extern const char* const kPrimeOffloadLine;

// Whether CUDA can compute on the selected device (driver new enough, code for it).
bool cuda_usable(const CudaFacts& c);
// Whether the GL renderer is a software rasterizer (llvmpipe, Xvfb, remote desktops).
bool software_gl(const GlFacts& g);
// Whether the GL context runs on a GPU other than NVIDIA's (Intel/AMD iGPU).
bool non_nvidia_gl(const GlFacts& g);

RunMode run_mode(const Facts& f);
std::vector<Finding> findings(const Facts& f);
// 0 when the app can run in some mode (the CPU backend counts), 1 when it cannot.
int exit_code(const Facts& f);

}  // namespace cv::sys

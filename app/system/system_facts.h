#pragma once
// What `cudaviz doctor` and the control panel's "system" section found about
// the machine, as plain data. Probing fills it (system_probe.h); turning it
// into findings is a pure function (system_findings.h), tested with fake facts.
#include <string>
#include <vector>

#include "gl/interop_path.h"

namespace cv::sys {

enum class DisplayServer { None, X11, Wayland, XWayland };

struct DisplayFacts {
  DisplayServer server = DisplayServer::None;
  bool wsl = false;             // WSL_DISTRO_NAME, or "microsoft" in /proc/version
  std::string display;          // $DISPLAY
  std::string wayland;          // $WAYLAND_DISPLAY
  std::string session_type;     // $XDG_SESSION_TYPE
  std::string prime_offload;    // $__NV_PRIME_RENDER_OFFLOAD
  std::string visible_devices;  // $CUDA_VISIBLE_DEVICES ("" when unset)
  bool visible_devices_set = false;
};

struct CudaDeviceFacts {
  int ordinal = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  long long memory_bytes = 0;
  long long free_bytes = -1;   // -1 when not measured
  std::string predicted_code;  // from the architecture list: "sm_90 SASS", "no code (...)"
  bool predicted_has_code = false;
  bool code_checked = false;  // the run-time check (cudaFuncGetAttributes) ran
  bool code_ok = false;
  std::string code_error;  // its error name, when it failed
};

struct CudaFacts {
  int driver_version = 0;   // cudaDriverGetVersion; 0: no driver installed
  int runtime_version = 0;  // this build's CUDA runtime (CUDART_VERSION)
  int needed_driver = 0;    // the oldest driver CUDA version the build runs on
  std::string built_architectures;
  std::string count_error;  // cudaGetDeviceCount's error name, if it failed
  std::vector<CudaDeviceFacts> devices;
  int selected = 0;  // the device the app computes on
};

// The CUDA -> GL transfer path the app's vertex buffers take (interop_path.h):
// a test buffer built by the app's own InteropBuffer down the same chain,
// external memory -> map -> copy, and why each path tried failed.
struct InteropFacts {
  // CUDAVIZ_INTEROP / CUDAVIZ_FORCE_COPY: where the chain starts, buffer count.
  std::string setting;       // e.g. "CUDAVIZ_INTEROP=map,single"; "" when unset
  std::string config_error;  // the setting does not parse (the app refuses to start)
  InteropPath start = InteropPath::External;
  bool single = false;
  bool tried = false;          // CUDA usable and a GL context: the test buffer was built
  std::string external_error;  // "" when it worked or was not tried
  std::string map_error;       // likewise
  std::string error;           // the test buffer could not be made at all
};

struct GlFacts {
  bool tried = false;    // a display existed, so a context was attempted
  bool context = false;  // an OpenGL 4.1 core context was created
  std::string error;     // why not
  std::string vendor, renderer, version;
  // cudaGLGetDevices on the current context: CUDA devices that drive it.
  bool gl_devices_checked = false;
  std::vector<int> gl_devices;
  std::string gl_devices_error;
  InteropFacts interop;
};

struct Facts {
  DisplayFacts display;
  CudaFacts cuda;
  GlFacts gl;
};

}  // namespace cv::sys

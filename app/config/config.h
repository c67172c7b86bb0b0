#pragma once
// The environment, read once (docs/architecture.md "Configuration"): main()
// fills one Config from the process environment at start-up and passes it down
// (constructor or parameter); nothing below app/core and nothing in kernels/
// calls getenv (the CTest test deps.no_getenv checks it). kernels/ get plain
// values through setters the app calls (core/apply_config.h).
//
// config_from_environment is pure: it reads through `lookup` (getenv's shape),
// so tests feed it a map. A bad value is kept as an error beside its field, in
// the words the consumer has always used (variable, value, what is allowed):
// each consumer reacts as it did when it read the variable itself (a scene
// refuses to start, the doctor reports "cannot run", a test hook is ignored
// with a line on stderr).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/cpu_simd.h"
#include "common/fault_injection.h"
#include "config/interop_setting.h"

namespace cv {

// getenv's shape: the variable's value, or nullptr when it is unset.
using EnvLookup = std::function<const char*(const char*)>;

// Where the shipped data and the helper programs are ("" : unset).
struct PathConfig {
  std::string assets;      // CUDAVIZ_ASSETS: the shipped data's folder, tried first (io/data_dir.h)
  std::string kernel_dir;  // CUDAVIZ_KERNEL_DIR: the kernel templates' folder
  std::string runner;      // CUDAVIZ_RUNNER: the cudaviz-runner program, tried first
  // CUDAVIZ_CODEMIRROR_DIR: Debian's libjs-codemirror, served to the challenge's
  // editor page (set but empty: none, the page's plain textarea).
  std::string codemirror_dir = "/usr/share/javascript/codemirror";
  std::optional<std::string> path;  // PATH, for ffmpeg and the host compiler (unset: none)
  std::string cxx;                  // CXX: the host compiler for the CPU path of "Your kernel"
  std::string tmpdir = "/tmp";      // TMPDIR (unset or empty: /tmp)
  std::string config_home;          // $XDG_CONFIG_HOME, else $HOME/.config; "" when neither is set
};

// What the doctor and the device panel report about the session (system/).
struct SystemEnv {
  std::string display;                              // DISPLAY
  std::string wayland_display;                      // WAYLAND_DISPLAY
  std::string session_type;                         // XDG_SESSION_TYPE
  std::string prime_offload;                        // __NV_PRIME_RENDER_OFFLOAD
  std::string wsl_distro;                           // WSL_DISTRO_NAME
  std::optional<std::string> cuda_visible_devices;  // CUDA_VISIBLE_DEVICES (set, even empty)
};

struct Config {
  PathConfig paths;
  SystemEnv system;

  // GL and the CUDA -> GL transfer.
  std::optional<bool> gl_debug;  // CUDAVIZ_GL_DEBUG: set -> not "0"; unset -> the build's default
  InteropConfig interop;         // CUDAVIZ_INTEROP / CUDAVIZ_FORCE_COPY (defaults when bad)
  std::string interop_error;     // why CUDAVIZ_INTEROP is refused; "" when it is fine
  std::string interop_setting;   // "CUDAVIZ_INTEROP=map CUDAVIZ_FORCE_COPY=1" as set; "" when unset
  bool gl_finish = false;  // CUDAVIZ_GL_FINISH: glFinish before each scene step (a diagnostic)

  // The kernels' process-wide choices (handed to kernels/ by core/apply_config).
  std::string nbody_tile;          // CUDAVIZ_NBODY_TILE: a fast build name, "auto" or "" (the plan)
  std::optional<FaultSpec> fault;  // CUDAVIZ_FAULT=launch:<name>[:after=N]
  std::string fault_error;         // a malformed CUDAVIZ_FAULT: no fault is injected
  std::optional<SimdPath> cpu_simd;  // CUDAVIZ_CPU_SIMD=baseline|avx2
  std::string cpu_simd_error;        // an unknown CUDAVIZ_CPU_SIMD: the best path is used

  // Test and demo hooks of the window.
  bool resize_storm = false;                          // CUDAVIZ_RESIZE_STORM (soak/window_faults.h)
  std::optional<long long> close_at_frame;            // CUDAVIZ_CLOSE_AT_FRAME=N
  std::string close_at_frame_error;                   // a malformed value: ignored
  std::optional<std::vector<double>> lesson_predict;  // CUDAVIZ_LESSON_PREDICT=a,b,...
  std::string lesson_predict_error;                   // a malformed value: no prediction is entered

  // What scenes build their vertex buffers with (interop and gl_finish above).
  TransferConfig transfer() const { return {interop, gl_finish}; }
  // The GL debug output this run asks for: the variable, else on in debug builds.
  bool gl_debug_on() const;
  // Every refused value, one line each ("" fields left out), for the doctor and start-up.
  std::vector<std::string> problems() const;
};

// Reads every variable above through `lookup` and validates each.
Config config_from_environment(const EnvLookup& lookup);

// "VAR=value" when the variable is set (used in messages); "" when it is not.
std::string setting_text(const EnvLookup& lookup, const char* name);

}  // namespace cv

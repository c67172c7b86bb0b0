#include "system/system_findings.h"

#include <algorithm>
#include <cstdio>

#include "common/cuda_arch.h"
#include "common/device_info.h"
#include "system/interop_findings.h"

namespace cv::sys {

const char* const kPrimeOffloadLine =
    "__NV_PRIME_RENDER_OFFLOAD=1 __GLX_VENDOR_LIBRARY_NAME=nvidia cudaviz";

namespace {

bool contains(const std::string& s, const char* what) {
  std::string a = s, b = what;
  auto lower = [](std::string& x) {
    std::transform(x.begin(), x.end(), x.begin(), [](unsigned char c) { return std::tolower(c); });
  };
  lower(a);
  lower(b);
  return a.find(b) != std::string::npos;
}

std::string gib(long long bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1ll << 30));
  return buf;
}

const CudaDeviceFacts* selected_device(const CudaFacts& c) {
  for (const auto& d : c.devices)
    if (d.ordinal == c.selected) return &d;
  return nullptr;
}

bool device_has_code(const CudaDeviceFacts& d) {
  return d.code_checked ? d.code_ok : d.predicted_has_code;
}

void driver_findings(const CudaFacts& c, std::vector<Finding>& out) {
  const std::string built = "this build uses CUDA " + cuda_version_text(c.runtime_version) +
                            " and needs a driver for CUDA " + cuda_version_text(c.needed_driver) +
                            " or newer";
  if (c.driver_version == 0) {
    out.push_back({Level::Info, "driver",
                   "no NVIDIA driver installed (" + built + "): every demo runs on the CPU backend",
                   "to use an NVIDIA GPU, install its driver (Linux R580 or newer for CUDA 13)"});
  } else if (c.driver_version < c.needed_driver) {
    out.push_back({Level::Warn, "driver",
                   "the driver supports CUDA " + cuda_version_text(c.driver_version) + "; " + built,
                   driver_too_old_sentence(c.driver_version, c.needed_driver)});
  } else {
    out.push_back({Level::Ok, "driver",
                   "driver for CUDA " + cuda_version_text(c.driver_version) + "; " + built, ""});
  }
}

void device_findings(const CudaFacts& c, std::vector<Finding>& out) {
  if (c.driver_version > 0 && c.devices.empty())
    out.push_back({Level::Info, "GPU",
                   "no CUDA device" + (c.count_error.empty() ? "" : " (" + c.count_error + ")"),
                   c.driver_version < c.needed_driver ? ""
                                                      : "check that the GPU is seated and "
                                                        "CUDA_VISIBLE_DEVICES does not hide it"});
  for (const CudaDeviceFacts& d : c.devices) {
    const std::string topic = "GPU " + std::to_string(d.ordinal);
    std::string text = d.name + ", compute capability " + std::to_string(d.cc_major) + "." +
                       std::to_string(d.cc_minor) + ", " + gib(d.memory_bytes);
    if (d.free_bytes >= 0) text += " (" + gib(d.free_bytes) + " free)";
    text += "; code in this build: " + d.predicted_code;
    if (d.code_checked && !d.code_ok) text += "; check: " + d.code_error;
    if (d.ordinal == c.selected) text += " [the app computes here]";
    if (device_has_code(d)) {
      out.push_back({Level::Ok, topic, text, ""});
    } else if (contains(d.code_error, "UnsupportedPtxVersion")) {
      out.push_back(
          {Level::Warn, topic, text, driver_too_old_sentence(c.driver_version, c.runtime_version)});
    } else {
      out.push_back(
          {Level::Warn, topic, text,
           "this binary cannot run kernels on it; " + cmake_fix_line(d.cc_major, d.cc_minor)});
    }
  }
}

void display_findings(const DisplayFacts& d, std::vector<Finding>& out) {
  if (d.visible_devices_set)
    out.push_back({Level::Info, "CUDA_VISIBLE_DEVICES",
                   "set to '" + d.visible_devices + "': GPU numbers above are as it leaves them",
                   ""});
  if (d.wsl)
    out.push_back({Level::Info, "WSL2",
                   "running under WSL2, where CUDA-OpenGL interop is not supported",
                   "nothing to do: the app copies each frame through the host (the copy path, "
                   "slower at millions of particles); for full speed run it natively"});
  switch (d.server) {
    case DisplayServer::None:
      out.push_back(
          {Level::Error, "display",
           "no display ($DISPLAY and $WAYLAND_DISPLAY are unset): the window cannot open; "
           "`cudaviz bench` and `cudaviz sweep` still run",
           "run it in a desktop session, or headless with "
           "xvfb-run -a cudaviz --frames 60 --screenshot out.png"});
      break;
    case DisplayServer::Wayland:
      out.push_back({Level::Error, "display",
                     "Wayland session without XWayland ($WAYLAND_DISPLAY set, $DISPLAY unset): "
                     "cudaviz's GLFW talks X11",
                     "enable XWayland (most desktops have it on), or log in to an X11 session "
                     "(\"GNOME on Xorg\" at the login screen)"});
      break;
    case DisplayServer::XWayland:
      out.push_back({Level::Info, "display",
                     "Wayland session: cudaviz runs through XWayland ($DISPLAY=" + d.display + ")",
                     "if the window fails to open or interop falls back on the NVIDIA driver, log "
                     "in to an X11 session (\"GNOME on Xorg\") or start with " +
                         std::string(kPrimeOffloadLine)});
      break;
    case DisplayServer::X11:
      out.push_back({Level::Ok, "display", "X11 ($DISPLAY=" + d.display + ")", ""});
      break;
  }
}

void gl_findings(const Facts& f, std::vector<Finding>& out) {
  const GlFacts& g = f.gl;
  if (!g.tried) return;
  if (!g.context) {
    out.push_back({Level::Error, "OpenGL", "no OpenGL 4.1 core context: " + g.error,
                   "update the graphics driver; as a fallback Mesa's software renderer works: "
                   "LIBGL_ALWAYS_SOFTWARE=1 cudaviz"});
    return;
  }
  out.push_back({Level::Ok, "OpenGL", g.vendor + " | " + g.renderer + " | " + g.version, ""});
  const bool cuda = cuda_usable(f.cuda);
  if (cuda && !f.display.wsl && non_nvidia_gl(g)) {
    if (software_gl(g))
      out.push_back({Level::Warn, "OpenGL",
                     "OpenGL is a software renderer (" + g.renderer +
                         ", e.g. Xvfb or a remote desktop) while CUDA has a GPU: frames are copied "
                         "through the host",
                     "run on the desktop the NVIDIA GPU drives (not over Xvfb/VNC) for interop"});
    else
      out.push_back({Level::Warn, "OpenGL",
                     "OpenGL runs on " + g.renderer +
                         ", not on the NVIDIA GPU (a hybrid laptop or the monitor on the board's "
                         "GPU): frames are copied through the host",
                     "start cudaviz on the NVIDIA GPU with the PRIME render offload line: " +
                         std::string(kPrimeOffloadLine) +
                         " (or plug the monitor into the NVIDIA card)"});
  }
  if (g.gl_devices_checked) {
    if (!g.gl_devices.empty()) {
      std::string list;
      for (int d : g.gl_devices) list += (list.empty() ? "" : ", ") + std::to_string(d);
      const bool same = std::find(g.gl_devices.begin(), g.gl_devices.end(), f.cuda.selected) !=
                        g.gl_devices.end();
      out.push_back(
          {same ? Level::Ok : Level::Warn, "GL device",
           "CUDA device " + list + " drives the GL context" +
               (same ? "" : "; the app computes on GPU " + std::to_string(f.cuda.selected)),
           same ? ""
                : "use --device " + std::to_string(g.gl_devices.front()) +
                      " so CUDA and GL share the GPU"});
    } else if (cuda) {
      out.push_back(
          {Level::Info, "GL device",
           "no CUDA device drives the GL context (cudaGLGetDevices: " + g.gl_devices_error + ")",
           ""});
    }
  }
}

}  // namespace

const char* to_string(Level l) {
  switch (l) {
    case Level::Ok:
      return "ok";
    case Level::Info:
      return "note";
    case Level::Warn:
      return "problem";
    default:
      return "cannot run";
  }
}

const char* describe(RunMode m) {
  switch (m) {
    case RunMode::CudaExternal:
      return "CUDA with interop (external memory: GL draws CUDA's buffers, no map per frame)";
    case RunMode::CudaInterop:
      return "CUDA with interop (mapped VBO)";
    case RunMode::CudaCopy:
      return "CUDA with the copy path (frames copied through the host)";
    case RunMode::Cpu:
      return "CPU backend (every demo, on the CPU)";
    default:
      return "the window cannot open here";
  }
}

const char* to_string(DisplayServer s) {
  switch (s) {
    case DisplayServer::X11:
      return "X11";
    case DisplayServer::Wayland:
      return "Wayland";
    case DisplayServer::XWayland:
      return "Wayland (XWayland)";
    default:
      return "none";
  }
}

DisplayServer classify_display(const std::string& display, const std::string& wayland,
                               const std::string& session_type) {
  const bool wayland_session = !wayland.empty() || session_type == "wayland";
  if (!display.empty()) return wayland_session ? DisplayServer::XWayland : DisplayServer::X11;
  return wayland_session ? DisplayServer::Wayland : DisplayServer::None;
}

bool is_wsl(const std::string& wsl_distro_name, const std::string& proc_version) {
  return !wsl_distro_name.empty() || contains(proc_version, "microsoft") ||
         contains(proc_version, "wsl");
}

bool cuda_usable(const CudaFacts& c) {
  if (c.driver_version == 0 || c.driver_version < c.needed_driver) return false;
  const CudaDeviceFacts* d = selected_device(c);
  return d && device_has_code(*d);
}

bool software_gl(const GlFacts& g) {
  return contains(g.renderer, "llvmpipe") || contains(g.renderer, "softpipe") ||
         contains(g.renderer, "swrast") || contains(g.renderer, "svga");
}

bool non_nvidia_gl(const GlFacts& g) {
  return g.context && !contains(g.vendor, "nvidia") && !contains(g.renderer, "nvidia");
}

RunMode run_mode(const Facts& f) {
  const bool window = f.gl.tried && f.gl.context;
  if (!window || !f.gl.interop.config_error.empty()) return RunMode::Cannot;
  if (!cuda_usable(f.cuda)) return RunMode::Cpu;
  const InteropFacts& i = f.gl.interop;
  if (!i.tried || !i.error.empty()) return RunMode::CudaCopy;
  switch (interop_path(i)) {
    case InteropPath::External:
      return RunMode::CudaExternal;
    case InteropPath::Map:
      return RunMode::CudaInterop;
    default:
      return RunMode::CudaCopy;
  }
}

std::vector<Finding> findings(const Facts& f) {
  std::vector<Finding> out;
  driver_findings(f.cuda, out);
  device_findings(f.cuda, out);
  display_findings(f.display, out);
  gl_findings(f, out);
  interop_findings(f, out);
  return out;
}

int exit_code(const Facts& f) {
  return run_mode(f) == RunMode::Cannot ? 1 : 0;
}

}  // namespace cv::sys

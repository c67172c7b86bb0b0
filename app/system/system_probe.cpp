#include "system/system_probe.h"

#include <glad/gl.h>  // before cuda_gl_interop.h, which includes GL headers
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "common/cuda_arch.h"
#include "common/device_code.h"
#include "common/device_info.h"
#include "common/device_select.h"
#include "gl/interop_buffer.h"
#include "gl/interop_path.h"
#include "system/system_findings.h"

namespace cv::sys {
namespace {

std::string error_text(const char* call, cudaError_t e) {
  cudaGetLastError();
  return std::string(call) + ": " + cudaGetErrorName(e);
}

// CUDAVIZ_INTEROP / CUDAVIZ_FORCE_COPY, as the configuration read them.
void probe_interop_setting(InteropFacts& i, const Config& config) {
  i.setting = config.interop_setting;
  i.config_error = config.interop_error;
  i.start = config.interop.start;
  i.single = config.interop.single;
}

// The app's own InteropBuffer, built as a ping-pong scene builds its vertex
// buffers, walks the chain; what each path said is kept.
void probe_interop_path(InteropFacts& i) {
  constexpr size_t kTestBytes = 4096;
  i.tried = true;
  try {
    const InteropBuffer buf(kTestBytes, Backend::Cuda, i.start, !i.single);
    i.external_error = buf.external_error();
    i.map_error = buf.map_error();
  } catch (const std::exception& e) {
    cudaGetLastError();
    i.error = e.what();
  }
}

CudaDeviceFacts device_facts(int dev, bool check_code, const std::vector<ArchTarget>* built) {
  CudaDeviceFacts d;
  d.ordinal = dev;
  cudaDeviceProp p{};
  if (cudaError_t e = cudaGetDeviceProperties(&p, dev); e != cudaSuccess) {
    d.name = "(" + error_text("cudaGetDeviceProperties", e) + ")";
    d.predicted_code = "unknown";
    return d;
  }
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.memory_bytes = static_cast<long long>(p.totalGlobalMem);
  const std::string list = built_architectures();
  const CodeMatch m = built ? code_for(*built, p.major, p.minor) : CodeMatch{};
  d.predicted_has_code = m.kind != CodeKind::None;
  d.predicted_code = built ? describe(m, list) : "unknown (built for " + list + ")";
  if (!check_code) return d;
  if (cudaError_t e = cudaSetDevice(dev); e != cudaSuccess) {
    d.code_checked = true;
    d.code_error = error_text("cudaSetDevice", e);
    return d;
  }
  const DeviceCode c = probe_device_code();
  d.code_checked = true;
  d.code_ok = c.ok;
  d.code_error = c.error;
  size_t free_b = 0, total_b = 0;
  if (c.ok && cudaMemGetInfo(&free_b, &total_b) == cudaSuccess)
    d.free_bytes = static_cast<long long>(free_b);
  cudaGetLastError();
  return d;
}

}  // namespace

DisplayFacts probe_display(const SystemEnv& env) {
  DisplayFacts d;
  d.display = env.display;
  d.wayland = env.wayland_display;
  d.session_type = env.session_type;
  d.prime_offload = env.prime_offload;
  d.visible_devices_set = env.cuda_visible_devices.has_value();
  d.visible_devices = env.cuda_visible_devices.value_or("");
  std::ifstream pv("/proc/version");
  const std::string proc_version((std::istreambuf_iterator<char>(pv)),
                                 std::istreambuf_iterator<char>());
  d.wsl = is_wsl(env.wsl_distro, proc_version);
  d.server = classify_display(d.display, d.wayland, d.session_type);
  return d;
}

CudaFacts probe_cuda(bool check_every_device) {
  CudaFacts c;
  c.runtime_version = built_runtime_version();
  c.needed_driver = c.runtime_version / 1000 * 1000;  // minor-version compatibility
  c.built_architectures = built_architectures();
  c.selected = selected_device();
  if (cudaDriverGetVersion(&c.driver_version) != cudaSuccess) c.driver_version = 0;
  cudaGetLastError();
  int count = 0;
  if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    c.count_error = error_text("cudaGetDeviceCount", e);
    return c;
  }
  const auto built = parse_architectures(c.built_architectures);
  for (int dev = 0; dev < count; ++dev) {
    const bool check = check_every_device || dev == c.selected;
    c.devices.push_back(device_facts(dev, check, built ? &*built : nullptr));
  }
  if (cudaSetDevice(c.selected) != cudaSuccess) cudaGetLastError();
  return c;
}

void probe_current_gl(GlFacts& gl, bool cuda_usable, const Config& config) {
  auto text = [](GLenum name) {
    const GLubyte* s = glGetString(name);
    return s ? std::string(reinterpret_cast<const char*>(s)) : std::string("(null)");
  };
  gl.vendor = text(GL_VENDOR);
  gl.renderer = text(GL_RENDERER);
  gl.version = text(GL_VERSION);
  probe_interop_setting(gl.interop, config);
  int driver = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0) return;  // no CUDA to ask
  unsigned count = 0;
  int devices[16] = {};
  gl.gl_devices_checked = true;
  if (cudaError_t e = cudaGLGetDevices(&count, devices, 16, cudaGLDeviceListAll); e != cudaSuccess)
    gl.gl_devices_error = error_text("cudaGLGetDevices", e);
  else
    gl.gl_devices.assign(devices, devices + std::min<unsigned>(count, 16));
  if (cuda_usable && gl.interop.config_error.empty()) probe_interop_path(gl.interop);
}

}  // namespace cv::sys

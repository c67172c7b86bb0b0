#include "system/startup.h"

#include <glad/gl.h>
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>

#include "cli.h"
#include "common/device_select.h"

namespace cv::sys {

std::optional<std::string> device_flag_error(int requested, int count, const std::string& why) {
  if (requested >= 0 && requested < count) return std::nullopt;
  const std::string n = std::to_string(requested);
  if (count <= 0) return "--device " + n + ": this machine has no usable CUDA device (" + why + ")";
  return "--device " + n + ": this machine has " + std::to_string(count) + " CUDA device" +
         (count == 1 ? "" : "s") + " (0 to " + std::to_string(count - 1) +
         "; CUDA_VISIBLE_DEVICES applies)";
}

std::optional<std::string> device_flag_error_here(int requested) {
  int count = 0;
  std::string why;
  if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    why = std::string("cudaGetDeviceCount: ") + cudaGetErrorName(e);
    cudaGetLastError();
    count = 0;
  }
  return device_flag_error(requested, count, why);
}

void apply_device_flag(std::optional<int> requested) {
  if (!requested) return;
  if (auto err = device_flag_error_here(*requested)) throw UsageError(*err);
  select_device(*requested);
  set_device_chosen_by_user(true);
}

std::optional<std::string> cuda_blocked_sentence(const std::string& backend_request) {
  if (backend_request == "cpu") return std::nullopt;
  const DeviceInfo& d = device_info();
  if (!d.blocked) return std::nullopt;
  return d.unavailable_reason;
}

Backend follow_gl_device(const std::string& backend_request, Backend current, std::ostream& err) {
  auto say_cpu = [&] {
    if (auto why = cuda_blocked_sentence(backend_request))
      err << "cudaviz: " << *why << "; running on the CPU backend\n";
  };
  int driver = 0;
  if (backend_request == "cpu" || device_chosen_by_user() ||
      cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0) {
    cudaGetLastError();
    say_cpu();
    return current;
  }
  unsigned count = 0;
  int devices[8] = {};
  if (cudaGLGetDevices(&count, devices, 8, cudaGLDeviceListAll) != cudaSuccess || count == 0 ||
      devices[0] == selected_device()) {
    cudaGetLastError();  // GL on another vendor's GPU: keep the device we have
    say_cpu();
    return current;
  }
  const int before = selected_device();
  select_device(devices[0]);
  if (device_info().available) {
    err << "cudaviz: computing on CUDA device " << devices[0] << " (" << device_info().name
        << "), which drives the OpenGL context\n";
    return Backend::Cuda;
  }
  select_device(before);  // the display's GPU cannot run this build: stay where we were
  say_cpu();
  return current;
}

std::string cpu_backend_title() {
  const DeviceInfo& d = device_info();
  if (!d.blocked) return "CPU backend";
  const bool driver = d.unavailable_reason.rfind("the NVIDIA driver", 0) == 0;
  return driver ? "CPU backend (NVIDIA driver too old: see the control panel)"
                : "CPU backend (no code for " + d.name + " in this build: see the control panel)";
}

}  // namespace cv::sys

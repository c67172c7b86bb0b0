#pragma once
// Gathers the facts of system_facts.h from the configuration (the environment
// as main() read it: config/config.h), the CUDA runtime and the current GL context. Never throws; every failure is recorded as text
// with the call and the error name.
#include "config/config.h"
#include "system/system_facts.h"

namespace cv::sys {

// $DISPLAY, $WAYLAND_DISPLAY, $XDG_SESSION_TYPE, WSL, CUDA_VISIBLE_DEVICES.
DisplayFacts probe_display(const SystemEnv& env);

// Driver and runtime versions and every CUDA device. With `check_every_device`
// the run-time code check runs on each device (a context on each: the doctor);
// otherwise only on the selected one (the running app). The selected device is
// current again afterwards.
CudaFacts probe_cuda(bool check_every_device);

// Needs a current GL context: vendor/renderer/version, the interop setting
// (config.interop: CUDAVIZ_INTEROP), cudaGLGetDevices, and, when CUDA is usable,
// a test vertex buffer built by the app's InteropBuffer down its path chain
// (what each path said is kept).
void probe_current_gl(GlFacts& gl, bool cuda_usable, const Config& config);

}  // namespace cv::sys

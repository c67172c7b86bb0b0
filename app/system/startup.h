#pragma once
// Which CUDA device the app computes on, and what it says when CUDA cannot be
// used although a GPU is there (no code for it in this binary, driver too
// old): the window runs the CPU backend and says why (stderr, title bar,
// control panel); bench and sweep exit 1 with the same sentence.
#include <optional>
#include <ostream>
#include <string>

#include "common/device_info.h"

namespace cv::sys {

// The message for `--device N` when the machine has `count` devices (pure);
// nullopt when N is one of them. `why` says why there are none.
std::optional<std::string> device_flag_error(int requested, int count, const std::string& why);

// device_flag_error for the devices CUDA counts on this machine.
std::optional<std::string> device_flag_error_here(int requested);

// --device N: checks N against the devices CUDA sees (CUDA_VISIBLE_DEVICES
// applies) and selects it; throws UsageError naming the count otherwise.
void apply_device_flag(std::optional<int> requested);

// The sentence when CUDA was asked for (auto or cuda) but cannot be used on a
// GPU that is there; nullopt when CUDA is usable, absent, or not asked for.
std::optional<std::string> cuda_blocked_sentence(const std::string& backend_request);

// After the window's GL context is current: unless --device was given, compute
// on the CUDA device that drives the GL context (cudaGLGetDevices), so interop
// can map its buffers; prints the choice, or why the CPU backend runs, to `err`.
// Returns the backend to use.
Backend follow_gl_device(const std::string& backend_request, Backend current, std::ostream& err);

// "CPU backend", or "CPU backend (<why CUDA cannot run>)" for the title bar.
std::string cpu_backend_title();

}  // namespace cv::sys

#pragma once
// NVRTC reached through dlopen, not linked: the app must start (and the CPU
// path work) on a machine without the CUDA toolkit's libnvrtc; there the
// compile says so in one sentence.
#include <nvrtc.h>

#include <string>

namespace cv::usercode {

struct NvrtcApi {
  decltype(&nvrtcVersion) version = nullptr;
  decltype(&nvrtcGetErrorString) error_string = nullptr;
  decltype(&nvrtcCreateProgram) create = nullptr;
  decltype(&nvrtcDestroyProgram) destroy = nullptr;
  decltype(&nvrtcCompileProgram) compile = nullptr;
  decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
  decltype(&nvrtcGetProgramLog) log = nullptr;
  decltype(&nvrtcGetPTXSize) ptx_size = nullptr;
  decltype(&nvrtcGetPTX) ptx = nullptr;
  decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
  decltype(&nvrtcGetCUBIN) cubin = nullptr;
  decltype(&nvrtcGetNumSupportedArchs) num_archs = nullptr;
  decltype(&nvrtcGetSupportedArchs) archs = nullptr;
  std::string error;  // why NVRTC cannot be used ("" when loaded)
  std::string library;  // the file loaded

  // Loaded once per process (thread-safe); check `error`.
  static const NvrtcApi& get();
};

}  // namespace cv::usercode

#pragma once
// Made-up machines for `cudaviz doctor`'s pure logic (facts in, findings out),
// shared by test_system_findings.cpp and test_doctor_interop.cpp.
#include <string>
#include <vector>

#include "system/system_facts.h"
#include "system/system_findings.h"

namespace cv::sys::fake {

// A desktop with a working NVIDIA GPU driving an X11 display: every interop
// path works, so the app takes the first, external memory.
inline Facts healthy() {
  Facts f;
  f.display.server = DisplayServer::X11;
  f.display.display = ":0";
  f.cuda.driver_version = 13000;
  f.cuda.runtime_version = 13000;
  f.cuda.needed_driver = 13000;
  f.cuda.built_architectures = "86-real;75-virtual";
  CudaDeviceFacts d;
  d.ordinal = 0;
  d.name = "NVIDIA GeForce RTX 3060";
  d.cc_major = 8;
  d.cc_minor = 6;
  d.memory_bytes = 12ll << 30;
  d.predicted_code = "sm_86 SASS";
  d.predicted_has_code = d.code_checked = d.code_ok = true;
  f.cuda.devices.push_back(d);
  f.gl.tried = f.gl.context = true;
  f.gl.vendor = "NVIDIA Corporation";
  f.gl.renderer = "NVIDIA GeForce RTX 3060/PCIe/SSE2";
  f.gl.version = "4.6.0 NVIDIA 580.65.06";
  f.gl.gl_devices_checked = true;
  f.gl.gl_devices = {0};
  f.gl.interop.tried = true;
  return f;
}

inline const Finding* find(const std::vector<Finding>& v, const std::string& topic, Level level) {
  for (const Finding& f : v)
    if (f.topic == topic && f.level == level) return &f;
  return nullptr;
}

inline int problems(const std::vector<Finding>& v) {
  int n = 0;
  for (const Finding& f : v) n += f.level == Level::Warn || f.level == Level::Error;
  return n;
}

}  // namespace cv::sys::fake

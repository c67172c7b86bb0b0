#pragma once
// Helpers for emu_tests: build a kernel file against the app's prelude (as
// the app does for BuildKind::Cpu), load it, and launch it with buffers.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "emu_test_prelude.h"
#include "usercode/emu/build.h"
#include "usercode/emu/emu.h"

namespace cv::emu::test {

// A built and loaded module; the build directory lives as long as it.
struct Built {
  BuildResult build;
  std::unique_ptr<Module> module;
  Kernel kernel;
};

// template: "count3", "pi", "fountain_kernel" or "" (cudaviz.h alone).
inline Built build_kernel(const std::string& source, const std::string& entry, const std::string& tmpl = "",
                          bool explain = false, bool verdict = false, bool checked = false) {
  BuildRequest q;
  q.source = source;
  q.entries = {entry};
  q.explain = explain;
  q.verdict = verdict;
  q.checked = checked;
  // Whole kernels' template headers hold only their declaration, which the
  // kernel's own extern "C" definition gives: the app's cudaviz.h is enough.
  q.headers = {{"cudaviz.h", emu_test::prelude::cudaviz_h},
               {"cudaviz_count3.h", "\n"},
               {"cudaviz_pi.h", "\n"},
               {"cudaviz_fountain_kernel.h", "\n"}};
  q.includes = {"cudaviz.h"};
  if (!tmpl.empty()) q.includes.push_back("cudaviz_" + tmpl + ".h");
  Built b;
  b.build = build_module(q);
  if (!b.build.ok) {
    ADD_FAILURE() << "build failed: " << b.build.first_error() << "\n" << b.build.log.substr(0, 3000);
    return b;
  }
  b.module = std::make_unique<Module>(b.build.shared_object, explain, "kernel.cu");
  b.kernel = b.module->kernel(entry);
  return b;
}

inline std::string shipped(const std::string& name) {
  std::ifstream in(std::string(CUDAVIZ_SOURCE_DIR) + "/assets/kernels/" + name, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

template <class T>
struct SpanArg {
  T* data;
  unsigned long long size;
};

inline usercode::LaunchShape shape(unsigned gx, unsigned bx, unsigned gy = 1, unsigned by = 1,
                                   unsigned dyn = 0) {
  usercode::LaunchShape s;
  s.grid[0] = gx, s.grid[1] = gy;
  s.block[0] = bx, s.block[1] = by;
  s.dynamic_shared_bytes = dyn;
  return s;
}

template <class T>
usercode::BufferView view(std::vector<T>& v, const std::string& name, bool writable = true) {
  return {v.data(), v.size() * sizeof(T), static_cast<unsigned>(sizeof(T)), name, writable};
}

}  // namespace cv::emu::test

// `cudaviz doctor`'s interop findings on made-up machines: the path the app's
// chain (external memory -> map -> copy) ends on, and each path tried before it
// with why it failed, in that order; CUDAVIZ_INTEROP's start and bad values.
#include <gtest/gtest.h>

#include "fake_machines.h"
#include "system/doctor.h"
#include "system/interop_findings.h"
#include "system/system_findings.h"

using namespace cv;
using namespace cv::sys;
using namespace cv::sys::fake;

namespace {

// The interop findings' texts, in report order.
std::vector<std::string> interop_lines(const std::vector<Finding>& found) {
  std::vector<std::string> lines;
  for (const Finding& f : found)
    if (f.topic == "interop") lines.push_back(std::string(to_string(f.level)) + ": " + f.text);
  return lines;
}

bool starts(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// The H100 under Xvfb with Mesa's GLX, as the 2026-11-23 run found it: Mesa
// offers GL_EXT_memory_object_fd but its device is not CUDA's; registering fails.
Facts h100_under_mesa() {
  Facts f = healthy();
  f.cuda.devices[0].name = "NVIDIA H100 80GB HBM3";
  f.gl.vendor = "Mesa/X.org";
  f.gl.renderer = "llvmpipe (LLVM 15.0.6, 256 bits)";
  f.gl.gl_devices.clear();
  f.gl.gl_devices_error = "cudaGLGetDevices: cudaErrorUnknown";
  f.gl.interop.external_error =
      "GL's device UUID (1 device(s)) is not CUDA device 0 (NVIDIA H100 80GB HBM3)";
  f.gl.interop.map_error = "cudaGraphicsGLRegisterBuffer: cudaErrorUnknown";
  return f;
}

}  // namespace

TEST(DoctorInterop, ExternalMemoryWorksOneLine) {
  const Facts f = healthy();
  const auto lines = interop_lines(findings(f));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(starts(lines[0], "ok: the app uses external memory")) << lines[0];
  EXPECT_EQ(run_mode(f), RunMode::CudaExternal);
  EXPECT_NE(format_report(f, findings(f))
                .find("verdict: cudaviz runs here: CUDA with interop "
                      "(external memory"),
            std::string::npos);
}

TEST(DoctorInterop, MesaTriesExternalThenMapThenCopyInThatOrder) {
  const Facts f = h100_under_mesa();
  const auto found = findings(f);
  const auto lines = interop_lines(found);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "note: external memory failed: GL's device UUID (1 device(s)) is not CUDA device 0 "
            "(NVIDIA H100 80GB HBM3) (GL: llvmpipe (LLVM 15.0.6, 256 bits))");
  EXPECT_EQ(lines[1], "note: map failed: cudaGraphicsGLRegisterBuffer: cudaErrorUnknown");
  EXPECT_TRUE(starts(lines[2], "problem: the app uses the copy path")) << lines[2];
  EXPECT_EQ(run_mode(f), RunMode::CudaCopy);
  EXPECT_EQ(exit_code(f), 0);
  const std::string report = format_report(f, found);
  EXPECT_LT(report.find("external memory failed"), report.find("map failed"));
  EXPECT_LT(report.find("map failed"), report.find("[problem] interop: the app uses the copy"));
  // The app's own chain gives the same path and the same reasons.
  const InteropChoice app = choose_interop_path(InteropPath::External, f.gl.interop.external_error,
                                                f.gl.interop.map_error);
  EXPECT_EQ(app.path, interop_path(f.gl.interop));
  EXPECT_NE(app.reason.find(f.gl.interop.map_error), std::string::npos);
}

TEST(DoctorInterop, ExtensionMissingFallsToTheMapPath) {
  Facts f = healthy();
  f.gl.interop.external_error = "GL_EXT_memory_object_fd not supported by this GL";
  const auto found = findings(f);
  const auto lines = interop_lines(found);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_TRUE(starts(lines[0], "note: external memory failed: GL_EXT_memory_object_fd"))
      << lines[0];
  EXPECT_NE(lines[0].find("(GL: NVIDIA GeForce RTX 3060"), std::string::npos) << lines[0];
  EXPECT_TRUE(starts(lines[1], "ok: the app uses the map path")) << lines[1];
  EXPECT_EQ(problems(found), 0);  // the map path is full interop
  EXPECT_EQ(run_mode(f), RunMode::CudaInterop);
}

TEST(DoctorInterop, SettingStartsTheChainLater) {
  Facts f = healthy();
  f.gl.interop.setting = "CUDAVIZ_INTEROP=map,single";
  f.gl.interop.start = InteropPath::Map;
  f.gl.interop.single = true;
  // External is not tried from map: an error there would not count.
  f.gl.interop.external_error = "not tried";
  const auto lines = interop_lines(findings(f));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "note: CUDAVIZ_INTEROP=map,single: the chain starts at map, one buffer per "
            "scene");
  EXPECT_TRUE(starts(lines[1], "ok: the app uses the map path")) << lines[1];
  EXPECT_EQ(run_mode(f), RunMode::CudaInterop);
}

TEST(DoctorInterop, ForcedCopyIsANoteNotAProblem) {
  Facts f = healthy();
  f.gl.interop.setting = "CUDAVIZ_FORCE_COPY=1";
  f.gl.interop.start = InteropPath::Copy;
  const auto found = findings(f);
  const auto lines = interop_lines(found);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1],
            "note: the app uses the copy path (frames copied through the host): forced by "
            "CUDAVIZ_FORCE_COPY=1");
  EXPECT_EQ(problems(found), 0);
  EXPECT_EQ(run_mode(f), RunMode::CudaCopy);
}

TEST(DoctorInterop, BadSettingStopsTheApp) {
  Facts f = healthy();
  f.gl.interop = InteropFacts{};
  f.gl.interop.setting = "CUDAVIZ_INTEROP=fast";
  f.gl.interop.config_error =
      "CUDAVIZ_INTEROP: 'fast' is not one of external, map, copy, single, double";
  const auto found = findings(f);
  const Finding* e = find(found, "interop", Level::Error);
  ASSERT_NE(e, nullptr);
  EXPECT_NE(e->text.find("'fast'"), std::string::npos);
  EXPECT_NE(e->fix.find("unset it"), std::string::npos);
  EXPECT_EQ(run_mode(f), RunMode::Cannot);
  EXPECT_EQ(exit_code(f), 1);
  EXPECT_NE(format_report(f, found).find("verdict: cudaviz cannot start here"), std::string::npos);
  // Also on a machine without CUDA: the CPU backend reads it too.
  f.cuda.driver_version = 0;
  f.cuda.devices.clear();
  EXPECT_EQ(exit_code(f), 1);
}

TEST(DoctorInterop, TestBufferThatCannotBeMadeIsAProblem) {
  Facts f = healthy();
  f.gl.interop.error = "cudaMalloc(staging): cudaErrorMemoryAllocation";
  const auto found = findings(f);
  const Finding* w = find(found, "interop", Level::Warn);
  ASSERT_NE(w, nullptr);
  EXPECT_NE(w->text.find("cudaErrorMemoryAllocation"), std::string::npos);
  EXPECT_EQ(interop_lines(found).size(), 1u);
}

TEST(DoctorInterop, NotProbedWithoutCuda) {
  Facts f = healthy();
  f.cuda.driver_version = 0;
  f.cuda.devices.clear();
  f.gl.interop.tried = false;
  f.gl.interop.setting = "CUDAVIZ_INTEROP=map";  // the CPU backend has no chain to start
  f.gl.interop.start = InteropPath::Map;
  EXPECT_TRUE(interop_lines(findings(f)).empty());
  EXPECT_EQ(run_mode(f), RunMode::Cpu);
}

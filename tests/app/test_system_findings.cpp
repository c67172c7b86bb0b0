// `cudaviz doctor`'s logic on made-up machines: facts in, findings (each
// problem with its fix), run mode and exit code out. Also the display/WSL
// classification, the --device message and the command line.
#include <gtest/gtest.h>

#include "cli.h"
#include "fake_machines.h"
#include "common/device_info.h"
#include "scenes/scene_memory.h"
#include "system/doctor.h"
#include "system/startup.h"
#include "system/system_findings.h"

using namespace cv;
using namespace cv::sys;
using namespace cv::sys::fake;

TEST(Doctor, HealthyDesktopHasNoProblems) {
  const Facts f = healthy();
  const auto found = findings(f);
  EXPECT_EQ(problems(found), 0);
  EXPECT_EQ(run_mode(f), RunMode::CudaExternal);
  EXPECT_EQ(exit_code(f), 0);
  EXPECT_NE(find(found, "interop", Level::Ok), nullptr);
  EXPECT_NE(find(found, "GL device", Level::Ok), nullptr);
}

TEST(Doctor, HybridLaptopGetsThePrimeLine) {
  Facts f = healthy();
  f.gl.vendor = "Intel";
  f.gl.renderer = "Mesa Intel(R) UHD Graphics 620 (KBL GT2)";
  f.gl.gl_devices.clear();
  f.gl.gl_devices_error = "cudaGLGetDevices: cudaErrorNoDevice";
  f.gl.interop.external_error = "GL's device UUID (1 device(s)) is not CUDA device 0";
  f.gl.interop.map_error = "cudaGraphicsGLRegisterBuffer: cudaErrorUnknown";
  const auto found = findings(f);
  const Finding* gl = find(found, "OpenGL", Level::Warn);
  ASSERT_NE(gl, nullptr);
  EXPECT_NE(gl->fix.find("__NV_PRIME_RENDER_OFFLOAD=1 __GLX_VENDOR_LIBRARY_NAME=nvidia cudaviz"),
            std::string::npos);
  const Finding* interop = find(found, "interop", Level::Warn);
  ASSERT_NE(interop, nullptr);
  EXPECT_NE(interop->text.find("copy path"), std::string::npos);
  EXPECT_NE(interop->fix.find("copy path"), std::string::npos);
  EXPECT_NE(interop->fix.find("__NV_PRIME_RENDER_OFFLOAD=1"), std::string::npos);
  EXPECT_EQ(run_mode(f), RunMode::CudaCopy);
  EXPECT_EQ(exit_code(f), 0);
}

TEST(Doctor, SoftwareGlIsNotCalledHybrid) {
  Facts f = healthy();
  f.gl.vendor = "Mesa/X.org";
  f.gl.renderer = "llvmpipe (LLVM 15.0.6, 256 bits)";
  f.gl.interop.external_error = "GL's device UUID (1 device(s)) is not CUDA device 0";
  f.gl.interop.map_error = "cudaGraphicsGLRegisterBuffer: cudaErrorUnknown";
  const auto found1 = findings(f);
  const Finding* gl = find(found1, "OpenGL", Level::Warn);
  ASSERT_NE(gl, nullptr);
  EXPECT_NE(gl->text.find("software renderer"), std::string::npos);
  EXPECT_EQ(gl->fix.find("PRIME"), std::string::npos);
}

TEST(Doctor, WaylandWithAndWithoutXWayland) {
  EXPECT_EQ(classify_display(":0", "", "x11"), DisplayServer::X11);
  EXPECT_EQ(classify_display(":0", "wayland-0", "wayland"), DisplayServer::XWayland);
  EXPECT_EQ(classify_display(":1", "", "wayland"), DisplayServer::XWayland);
  EXPECT_EQ(classify_display("", "wayland-0", ""), DisplayServer::Wayland);
  EXPECT_EQ(classify_display("", "", "tty"), DisplayServer::None);

  Facts f = healthy();
  f.display.server = DisplayServer::XWayland;
  const auto found2 = findings(f);
  const Finding* x = find(found2, "display", Level::Info);
  ASSERT_NE(x, nullptr);
  EXPECT_NE(x->text.find("XWayland"), std::string::npos);
  EXPECT_NE(x->fix.find("X11 session"), std::string::npos);

  f.display.server = DisplayServer::Wayland;
  f.gl = GlFacts{};
  f.gl.tried = true;
  f.gl.error = "glfwInit failed: X11: The DISPLAY environment variable is missing";
  const auto found = findings(f);
  const Finding* w = find(found, "display", Level::Error);
  ASSERT_NE(w, nullptr);
  EXPECT_NE(w->fix.find("XWayland"), std::string::npos);
  EXPECT_EQ(exit_code(f), 1);
}

TEST(Doctor, Wsl2UsesTheCopyPath) {
  EXPECT_TRUE(is_wsl("Ubuntu", ""));
  EXPECT_TRUE(is_wsl("", "Linux version 5.15.153.1-microsoft-standard-WSL2"));
  EXPECT_FALSE(is_wsl("", "Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org)"));
  Facts f = healthy();
  f.display.wsl = true;
  f.gl.vendor = "Microsoft Corporation";
  f.gl.renderer = "D3D12 (NVIDIA GeForce RTX 3060)";
  f.gl.interop.external_error = "GL_EXT_memory_object_fd not supported by this GL";
  f.gl.interop.map_error = "cudaGraphicsGLRegisterBuffer: cudaErrorOperatingSystem";
  const auto found = findings(f);
  const Finding* wsl = find(found, "WSL2", Level::Info);
  ASSERT_NE(wsl, nullptr);
  EXPECT_NE(wsl->fix.find("copy path"), std::string::npos);
  const Finding* interop = find(found, "interop", Level::Warn);
  ASSERT_NE(interop, nullptr);
  EXPECT_NE(interop->fix.find("WSL2"), std::string::npos);
  EXPECT_EQ(find(found, "OpenGL", Level::Warn), nullptr);  // not mistaken for a hybrid laptop
  EXPECT_EQ(run_mode(f), RunMode::CudaCopy);
}

TEST(Doctor, OldDriverNamesTheVersionNeeded) {
  Facts f = healthy();
  f.cuda.driver_version = 12040;
  f.gl.interop.tried = false;
  const auto found = findings(f);
  const Finding* drv = find(found, "driver", Level::Warn);
  ASSERT_NE(drv, nullptr);
  EXPECT_NE(drv->fix.find("supports CUDA 12.4 but this build needs CUDA 13.0"), std::string::npos);
  EXPECT_NE(drv->fix.find("R580"), std::string::npos);
  EXPECT_EQ(run_mode(f), RunMode::Cpu);
  EXPECT_EQ(exit_code(f), 0);  // the CPU backend still runs
}

TEST(Doctor, NoCodeForThisGpuGivesTheCmakeLine) {
  Facts f = healthy();
  CudaDeviceFacts& d = f.cuda.devices[0];
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.predicted_code = "no code (built for 89-real)";
  d.predicted_has_code = false;
  d.code_ok = false;
  d.code_error = "cudaFuncGetAttributes: cudaErrorNoKernelImageForDevice";
  const auto found = findings(f);
  const Finding* gpu = find(found, "GPU 0", Level::Warn);
  ASSERT_NE(gpu, nullptr);
  EXPECT_NE(gpu->text.find("cudaErrorNoKernelImageForDevice"), std::string::npos);
  EXPECT_NE(gpu->fix.find("-DCMAKE_CUDA_ARCHITECTURES=90"), std::string::npos);
  EXPECT_EQ(run_mode(f), RunMode::Cpu);
  EXPECT_EQ(exit_code(f), 0);
  // A PTX the driver is too old to JIT is a driver problem, not a build problem.
  d.code_error = "cudaFuncGetAttributes: cudaErrorUnsupportedPtxVersion";
  const auto found3 = findings(f);
  const Finding* ptx = find(found3, "GPU 0", Level::Warn);
  ASSERT_NE(ptx, nullptr);
  EXPECT_NE(ptx->fix.find("update the NVIDIA driver"), std::string::npos);
}

TEST(Doctor, NoDriverRunsTheCpuBackend) {
  Facts f = healthy();
  f.cuda.driver_version = 0;
  f.cuda.devices.clear();
  f.cuda.count_error = "cudaGetDeviceCount: cudaErrorInsufficientDriver";
  f.gl.vendor = "Mesa/X.org";
  f.gl.renderer = "llvmpipe";
  f.gl.gl_devices_checked = f.gl.interop.tried = false;
  const auto found = findings(f);
  EXPECT_NE(find(found, "driver", Level::Info), nullptr);
  EXPECT_EQ(problems(found), 0);  // a machine without an NVIDIA GPU is not a problem
  EXPECT_EQ(run_mode(f), RunMode::Cpu);
  EXPECT_EQ(exit_code(f), 0);
  const std::string report = format_report(f, found);
  EXPECT_NE(report.find("verdict: cudaviz runs here: CPU backend"), std::string::npos);
}

TEST(Doctor, NoDisplayCannotRun) {
  Facts f = healthy();
  f.display.server = DisplayServer::None;
  f.gl = GlFacts{};
  const auto found = findings(f);
  const Finding* d = find(found, "display", Level::Error);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->fix.find("xvfb-run"), std::string::npos);
  EXPECT_EQ(exit_code(f), 1);
  EXPECT_NE(format_report(f, found).find("exit 1"), std::string::npos);
}

TEST(Doctor, GlOnAnotherCudaDevice) {
  Facts f = healthy();
  f.gl.gl_devices = {1};
  const auto found4 = findings(f);
  const Finding* g = find(found4, "GL device", Level::Warn);
  ASSERT_NE(g, nullptr);
  EXPECT_NE(g->fix.find("--device 1"), std::string::npos);
}

TEST(Doctor, SentencesShared) {
  EXPECT_EQ(driver_too_old_sentence(12080, 13000),
            "the NVIDIA driver supports CUDA 12.8 but this build needs CUDA 13.0 (Linux R580 or "
            "newer): update the NVIDIA driver");
  const std::string s = no_code_sentence(0, "NVIDIA H100 80GB HBM3", 9, 0, "89-real");
  EXPECT_NE(s.find("GPU 0 (NVIDIA H100 80GB HBM3, compute capability 9.0) has no code in this "
                   "build (built for 89-real)"),
            std::string::npos);
  EXPECT_NE(s.find("-DCMAKE_CUDA_ARCHITECTURES=90"), std::string::npos);
}

TEST(DeviceFlag, MessagesNameTheCount) {
  EXPECT_FALSE(device_flag_error(0, 1, ""));
  EXPECT_FALSE(device_flag_error(1, 2, ""));
  EXPECT_EQ(*device_flag_error(2, 2, ""),
            "--device 2: this machine has 2 CUDA devices (0 to 1; CUDA_VISIBLE_DEVICES applies)");
  EXPECT_EQ(*device_flag_error(1, 1, ""),
            "--device 1: this machine has 1 CUDA device (0 to 0; CUDA_VISIBLE_DEVICES applies)");
  EXPECT_NE(
      device_flag_error(0, 0, "cudaGetDeviceCount: cudaErrorNoDevice")->find("cudaErrorNoDevice"),
      std::string::npos);
}

TEST(DeviceFlag, CommandLine) {
  EXPECT_EQ(parse_command_line({"doctor"}).kind, Command::Kind::Doctor);
  EXPECT_THROW(parse_command_line({"doctor", "--device", "0"}), UsageError);
  EXPECT_EQ(parse_command_line({"--device", "1"}).run.device, 1);
  EXPECT_FALSE(parse_command_line({}).run.device.has_value());
  EXPECT_EQ(parse_command_line({"bench", "pi", "--device=2"}).bench.device, 2);
  EXPECT_EQ(
      parse_command_line({"sweep", "fountain", "--shapes", "8x8", "--device", "0"}).sweep.device,
      0);
  EXPECT_THROW(parse_command_line({"--device", "-1"}), UsageError);
  EXPECT_THROW(parse_command_line({"--device", "gpu0"}), UsageError);
  EXPECT_THROW(parse_command_line({"--device"}), UsageError);
}

TEST(DeviceFlag, BadOrdinalIsAUsageErrorHere) {
  // On any machine: device 1000 does not exist, and the message says how many do.
  try {
    apply_device_flag(1000);
    FAIL() << "--device 1000 was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--device 1000: this machine has"), std::string::npos);
  }
}

TEST(SceneMemory, BytesPerElementCoverVboStateAndStaging) {
  EXPECT_EQ(device_bytes_per_element(*parse_scene("fountain"), std::nullopt), 2 * 16 + 4);
  EXPECT_EQ(device_bytes_per_element(*parse_scene("fountain"), std::string("seed")), 2 * 32 + 16);
  EXPECT_GE(device_bytes_per_element(*parse_scene("nbody"), std::nullopt), 3 * 16);
  // The CPU backend allocates nothing on a GPU: no check.
  EXPECT_FALSE(check_scene_memory(*parse_scene("fountain"), Backend::Cpu, 1ll << 30, std::nullopt));
}

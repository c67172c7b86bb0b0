// The environment read once (app/config/config.h): config_from_environment is
// fed a map, so every variable's reading, default and refusal is checked here
// without touching the process environment.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/cpu_simd.h"
#include "common/fault_injection.h"
#include "config/config.h"
#include "nbody/nbody.h"

namespace {

using Env = std::map<std::string, std::string>;

cv::Config read(const Env& env) {
  return cv::config_from_environment([&env](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(Config, EmptyEnvironmentGivesTheDefaults) {
  const cv::Config c = read({});
  EXPECT_EQ(c.paths.assets, "");
  EXPECT_EQ(c.paths.kernel_dir, "");
  EXPECT_EQ(c.paths.runner, "");
  EXPECT_FALSE(c.paths.path.has_value());
  EXPECT_EQ(c.paths.tmpdir, "/tmp");
  EXPECT_EQ(c.paths.config_home, "");
  EXPECT_FALSE(c.gl_debug.has_value());
  EXPECT_EQ(c.interop.start, cv::InteropPath::External);
  EXPECT_FALSE(c.interop.single);
  EXPECT_EQ(c.interop_setting, "");
  EXPECT_FALSE(c.gl_finish);
  EXPECT_EQ(c.nbody_tile, "");
  EXPECT_FALSE(c.fault.has_value());
  EXPECT_FALSE(c.cpu_simd.has_value());
  EXPECT_FALSE(c.resize_storm);
  EXPECT_FALSE(c.close_at_frame.has_value());
  EXPECT_FALSE(c.lesson_predict.has_value());
  EXPECT_FALSE(c.system.cuda_visible_devices.has_value());
  EXPECT_TRUE(c.problems().empty());
}

TEST(Config, ReadsPathsAndTheSession) {
  const cv::Config c = read({{"CUDAVIZ_ASSETS", "/a"},
                             {"CUDAVIZ_KERNEL_DIR", "/k"},
                             {"CUDAVIZ_RUNNER", "/r/cudaviz-runner"},
                             {"PATH", "/x:/y"},
                             {"CXX", "clang++"},
                             {"TMPDIR", "/scratch"},
                             {"HOME", "/home/t"},
                             {"DISPLAY", ":1"},
                             {"WAYLAND_DISPLAY", "wayland-0"},
                             {"XDG_SESSION_TYPE", "wayland"},
                             {"__NV_PRIME_RENDER_OFFLOAD", "1"},
                             {"WSL_DISTRO_NAME", "Debian"},
                             {"CUDA_VISIBLE_DEVICES", ""}});
  EXPECT_EQ(c.paths.assets, "/a");
  EXPECT_EQ(c.paths.kernel_dir, "/k");
  EXPECT_EQ(c.paths.runner, "/r/cudaviz-runner");
  EXPECT_EQ(c.paths.path, "/x:/y");
  EXPECT_EQ(c.paths.cxx, "clang++");
  EXPECT_EQ(c.paths.tmpdir, "/scratch");
  EXPECT_EQ(c.paths.config_home, "/home/t/.config");
  EXPECT_EQ(c.system.display, ":1");
  EXPECT_EQ(c.system.wayland_display, "wayland-0");
  EXPECT_EQ(c.system.session_type, "wayland");
  EXPECT_EQ(c.system.prime_offload, "1");
  EXPECT_EQ(c.system.wsl_distro, "Debian");
  ASSERT_TRUE(c.system.cuda_visible_devices.has_value());  // set, even empty, hides every GPU
  EXPECT_EQ(*c.system.cuda_visible_devices, "");
  // XDG_CONFIG_HOME wins over HOME; an empty TMPDIR is /tmp.
  const cv::Config x = read({{"XDG_CONFIG_HOME", "/cfg"}, {"HOME", "/home/t"}, {"TMPDIR", ""}});
  EXPECT_EQ(x.paths.config_home, "/cfg");
  EXPECT_EQ(x.paths.tmpdir, "/tmp");
}

TEST(Config, SwitchesAreOffWhenEmptyOrZero) {
  for (const char* off : {"", "0", "0x"}) {
    const cv::Config c = read({{"CUDAVIZ_GL_FINISH", off}, {"CUDAVIZ_RESIZE_STORM", off}});
    EXPECT_FALSE(c.gl_finish) << off;
    EXPECT_FALSE(c.resize_storm) << off;
  }
  const cv::Config on = read({{"CUDAVIZ_GL_FINISH", "1"}, {"CUDAVIZ_RESIZE_STORM", "yes"}});
  EXPECT_TRUE(on.gl_finish);
  EXPECT_TRUE(on.resize_storm);
  EXPECT_EQ(read({{"CUDAVIZ_GL_DEBUG", "0"}}).gl_debug, false);
  EXPECT_FALSE(read({{"CUDAVIZ_GL_DEBUG", "0"}}).gl_debug_on());
  EXPECT_TRUE(read({{"CUDAVIZ_GL_DEBUG", "1"}}).gl_debug_on());
  EXPECT_FALSE(read({{"CUDAVIZ_GL_DEBUG", ""}}).gl_debug.has_value());  // unset: the build's default
}

TEST(Config, InteropSettingAndItsRefusal) {
  const cv::Config c = read({{"CUDAVIZ_INTEROP", "map,single"}});
  EXPECT_EQ(c.interop.start, cv::InteropPath::Map);
  EXPECT_TRUE(c.interop.single);
  EXPECT_EQ(c.interop_setting, "CUDAVIZ_INTEROP=map,single");
  EXPECT_EQ(c.transfer().interop.start, cv::InteropPath::Map);
  const cv::Config forced = read({{"CUDAVIZ_INTEROP", "external"}, {"CUDAVIZ_FORCE_COPY", "1"}});
  EXPECT_EQ(forced.interop.start, cv::InteropPath::Copy);
  EXPECT_EQ(forced.interop_setting, "CUDAVIZ_INTEROP=external CUDAVIZ_FORCE_COPY=1");
  const cv::Config bad = read({{"CUDAVIZ_INTEROP", "fast"}});
  EXPECT_EQ(bad.interop_error,
            "CUDAVIZ_INTEROP: 'fast' is not one of external, map, copy, single, double");
  EXPECT_EQ(bad.interop_setting, "CUDAVIZ_INTEROP=fast");  // the doctor shows what was set
  ASSERT_EQ(bad.problems().size(), 1u);
  EXPECT_EQ(bad.problems()[0], bad.interop_error);
}

TEST(Config, KernelChoicesAndTheirRefusals) {
  const cv::Config c = read({{"CUDAVIZ_NBODY_TILE", "pairs8"},
                             {"CUDAVIZ_FAULT", "launch:cpu swarm step:after=5"},
                             {"CUDAVIZ_CPU_SIMD", "baseline"}});
  EXPECT_EQ(c.nbody_tile, "pairs8");
  ASSERT_TRUE(c.fault.has_value());
  EXPECT_EQ(c.fault->pattern, "cpu swarm step");
  EXPECT_EQ(c.fault->after, 5);
  EXPECT_EQ(c.cpu_simd, cv::SimdPath::Baseline);
  EXPECT_TRUE(c.problems().empty());

  const cv::Config bad = read({{"CUDAVIZ_FAULT", "crash:*"}, {"CUDAVIZ_CPU_SIMD", "sse9"}});
  EXPECT_FALSE(bad.fault.has_value());
  EXPECT_NE(bad.fault_error.find("CUDAVIZ_FAULT='crash:*'"), std::string::npos) << bad.fault_error;
  EXPECT_FALSE(bad.cpu_simd.has_value());
  EXPECT_EQ(bad.cpu_simd_error, "CUDAVIZ_CPU_SIMD=sse9 is not baseline or avx2");
  EXPECT_EQ(bad.problems().size(), 2u);
}

TEST(Config, WindowHooksAndTheirRefusals) {
  const cv::Config c =
      read({{"CUDAVIZ_CLOSE_AT_FRAME", "25"}, {"CUDAVIZ_LESSON_PREDICT", "3,0.5,-2"}});
  EXPECT_EQ(c.close_at_frame, 25);
  ASSERT_TRUE(c.lesson_predict.has_value());
  EXPECT_EQ(*c.lesson_predict, (std::vector<double>{3, 0.5, -2}));

  const cv::Config bad =
      read({{"CUDAVIZ_CLOSE_AT_FRAME", "5x"}, {"CUDAVIZ_LESSON_PREDICT", "3,many"}});
  EXPECT_FALSE(bad.close_at_frame.has_value());
  EXPECT_EQ(bad.close_at_frame_error, "CUDAVIZ_CLOSE_AT_FRAME='5x' is not a frame number");
  EXPECT_FALSE(bad.lesson_predict.has_value());
  EXPECT_EQ(bad.lesson_predict_error, "CUDAVIZ_LESSON_PREDICT: 'many' is not a number");
  // Too many digits for a frame count is refused, not wrapped.
  EXPECT_FALSE(read({{"CUDAVIZ_CLOSE_AT_FRAME", "1234567890123"}}).close_at_frame.has_value());
}

// The kernels' setters the app calls with the configuration (core/apply_config).
TEST(Config, KernelSettersReplaceTheEnvironment) {
  const cv::SimdPath before = cv::default_simd_path();
  EXPECT_TRUE(cv::set_default_simd_path(cv::SimdPath::Baseline));
  EXPECT_EQ(cv::default_simd_path(), cv::SimdPath::Baseline);
  cv::set_default_simd_path(before);

  const cv::BlockShape block{256, 1, 1};
  const std::string planned = cv::nbody::fast_tile_for(block);
  cv::nbody::set_default_fast_tile("no_such_build", "CUDAVIZ_NBODY_TILE");
  try {
    cv::nbody::fast_tile_for(block);
    ADD_FAILURE() << "an unknown default build was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'no_such_build' (from CUDAVIZ_NBODY_TILE)"),
              std::string::npos)
        << e.what();
  }
  cv::nbody::set_default_fast_tile("", "CUDAVIZ_NBODY_TILE");
  EXPECT_EQ(cv::nbody::fast_tile_for(block), planned);
}

}  // namespace

// The recipe's scene-fed template, checked with a scene and a template that
// exist only in the tests: dots_turn (dots_template.cpp) fed by the dots scene
// through its ScalarKeys (dots_args.h), compiled and run on the CPU through
// the runner (the emulator) against the scene's own math, then run by the
// scene's hook (dots_user_kernel.cpp) in place of the built-in step.
#include <glad/gl.h>  // before GLFW
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "dots_args.h"
#include "dots_math.h"
#include "hidden_window.h"
#include "registry/scene_registry.h"
#include "scenes/scene_factory.h"
#include "test_config.h"
#include "usercode/client/runner_client.h"
#include "usercode/compile/compile.h"
#include "usercode/client/user_kernel.h"
#include "usercode/templates/template_registry.h"

namespace cv {
namespace {

using usercode::UserKernel;
using usercode::UserKernelState;

SceneKind dots() { return *parse_scene("dots"); }

// A user kernel on the CPU backend with the test template's file, compiled.
void load_dots_turn(UserKernel& uk) {
  const usercode::TemplateSpec* t = usercode::find_template("dots_turn");
  ASSERT_NE(t, nullptr);
  uk.submit(usercode::read_template_source(*t, test_config().paths));
  for (int i = 0; i < 5000 && uk.status().state == UserKernelState::Compiling; ++i) {
    uk.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_EQ(uk.status().state, UserKernelState::Ready) << uk.status().headline << "\n"
                                                         << uk.status().fallback;
}

usercode::UserKernelOptions cpu_options() {
  usercode::UserKernelOptions o;
  o.backend = Backend::Cpu;
  o.paths = test_config().paths;
  return o;
}

TEST(DotsTemplate, FeedsTheDotsSceneWithTypedArguments) {
  const usercode::TemplateSpec* t = usercode::find_template("dots_turn");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->feeds, usercode::Feeds::Scene);
  EXPECT_EQ(t->feeds_name, "dots");
  const std::vector<const usercode::TemplateSpec*> fed = usercode::templates_feeding("dots");
  ASSERT_EQ(fed.size(), 1u);
  EXPECT_EQ(fed[0], t);
  ASSERT_NE(t->arg("turn"), nullptr);
  EXPECT_EQ(t->arg("turn")->scalar.type, usercode::dots_args::turn.type);
  ASSERT_NE(t->arg("spiral"), nullptr);
  EXPECT_EQ(t->arg("spiral")->scalar.type, usercode::dots_args::spiral.type);
}

// NVRTC builds it for sm_75 without a GPU (the GPU path the scene takes on CUDA).
TEST(DotsTemplate, CompilesCleanWithNvrtc) {
  if (usercode::nvrtc_status().rfind("NVRTC ", 0) != 0) GTEST_SKIP() << usercode::nvrtc_status();
  usercode::CompileRequest req;
  req.source = usercode::read_template_source(*usercode::find_template("dots_turn"), test_config().paths);
  req.arch = "sm_75";
  const usercode::CompileResult r = usercode::compile(req);
  EXPECT_TRUE(r.ok) << r.error << "\n" << r.log;
  EXPECT_TRUE(r.diagnostics.empty()) << r.log;
  ASSERT_FALSE(r.entry_points.empty());
  EXPECT_NE(r.ptx.find(".entry " + r.entry_points[0]), std::string::npos);
}

TEST(DotsTemplate, RunsThroughTheRunnerAsTheScenesMath) {
  UserKernel uk(cpu_options());
  ASSERT_NO_FATAL_FAILURE(load_dots_turn(uk));
  EXPECT_TRUE(uk.feeds("dots"));
  const usercode::TemplateSpec& t = *usercode::find_template("dots_turn");
  const unsigned n = 1000;
  for (bool spiral : {false, true}) {
    usercode::Workload w;
    w.n = n;
    w.block = {128, 1, 1};
    w.reset = true;
    usercode::put(w, usercode::dots_args::turn, 0.75f);
    usercode::put(w, usercode::dots_args::spiral, spiral ? 1u : 0u);
    const usercode::LaunchOutcome r = uk.launch(w);
    ASSERT_TRUE(r.ok) << (r.fault ? r.fault->describe() : std::string("no fault"));
    const std::vector<float> got = r.values<float>("out");
    ASSERT_EQ(got.size(), 4u * n);
    long long off = 0;
    for (unsigned i = 0; i < n; ++i) {
      const float4 want = dots::dot(i, n, 0.75f, spiral);
      off += std::fabs(got[4 * i] - want.x) > 1e-5f || std::fabs(got[4 * i + 1] - want.y) > 1e-5f ||
             got[4 * i + 3] != want.w;
    }
    EXPECT_EQ(off, 0) << (spiral ? "spiral" : "ring");
    // The template's own check says the same, and fails a frame one dot off.
    usercode::ReadBack rb{{"out", std::vector<char>(reinterpret_cast<const char*>(got.data()),
                                                     reinterpret_cast<const char*>(got.data() + got.size()))}};
    EXPECT_TRUE(t.check(w, rb, Backend::Cpu).correct);
    reinterpret_cast<float*>(rb["out"].data())[4 * 17] += 0.01f;
    EXPECT_FALSE(t.check(w, rb, Backend::Cpu).correct);
  }
}

TEST(DotsTemplate, TheScenesHookRunsItInPlaceOfTheBuiltIn) {
  HiddenWindow win("dots template");
  if (!win.w) GTEST_SKIP() << "no display or GL context";
  UserKernel uk(cpu_options());
  ASSERT_NO_FATAL_FAILURE(load_dots_turn(uk));
  std::unique_ptr<ParticleScene> scene = make_scene(dots(), Backend::Cpu, {500, "spiral"});
  ASSERT_TRUE(scene);
  EXPECT_TRUE(scene->runs_user_kernels());
  auto* host = scene->as<StudentKernelHost>();
  ASSERT_NE(host, nullptr);
  host->set_user_kernel(&uk);
  scene->step();
  EXPECT_TRUE(scene->kernel_is_yours()) << host->user_note();
  EXPECT_EQ(host->user_kernel_running(), &uk);
  host->set_user_kernel(nullptr);
  scene->step();
  EXPECT_FALSE(scene->kernel_is_yours());
  EXPECT_EQ(host->user_kernel_running(), nullptr);
}

}  // namespace
}  // namespace cv

// The scene templates of "Your kernel" (swarm_particle, swarm_kernel,
// nbody_kernel and its examples nbody_allpairs and nbody_tiled): registered
// for their scenes, compiling clean with NVRTC for sm_75 (no GPU needed) with
// errors at the student's lines, the per-particle swarm run on the CPU path
// through the runner against the built-in CPU swarm step by step, and the
// n-body acceleration check itself (it must fail a wrong answer).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "nbody/nbody.h"
#include "swarm/swarm.h"
#include "usercode/compile/compile.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_registry.h"
#include "usercode/templates/fountain_args.h"
#include "usercode/templates/nbody_args.h"
#include "usercode/templates/nbody_parts.h"
#include "usercode/templates/swarm_args.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

bool nvrtc_missing() { return nvrtc_status().rfind("NVRTC ", 0) != 0; }

const char* const kSceneFiles[] = {"swarm_particle", "swarm_kernel", "nbody_kernel", "nbody_allpairs",
                                   "nbody_tiled"};

std::string shipped(const std::string& name) {
  const TemplateEntry* e = find_entry(name);
  if (!e) throw std::runtime_error("no template or example named " + name);
  return read_template_source(*e, test_config().paths);
}

// Each scalar a scene feeds (its ScalarKey) is an argument of every template
// of that scene, of the key's declared type: a scene and its template agree
// on one name and one type, written once.
template <class T>
void expect_declared(const char* tmpl, const ScalarKey<T>& k) {
  const TemplateSpec* t = find_template(tmpl);
  ASSERT_NE(t, nullptr) << tmpl;
  const ArgSpec* found = nullptr;
  for (const ArgSpec& a : t->args)
    if (a.name == k.name) found = &a;
  ASSERT_NE(found, nullptr) << tmpl << " declares no argument " << k.name;
  EXPECT_FALSE(found->is_span) << tmpl << "'s " << k.name;
  EXPECT_EQ(found->scalar.type, k.type) << tmpl << "'s " << k.name;
  ASSERT_TRUE(found->scalar.value) << tmpl << "'s " << k.name << " has no default";
  EXPECT_EQ(found->scalar.value(Workload{}).size(), sizeof(T)) << tmpl << "'s " << k.name;
  Workload w;  // the feeder's bytes (zeros) win over the fallback (0x5a bytes)
  w.scalars[k.name] = std::vector<char>(sizeof(T), 0);
  T fallback;
  std::memset(static_cast<void*>(&fallback), 0x5a, sizeof(T));
  EXPECT_EQ(bytes_of(read_or(w, k, fallback)), std::vector<char>(sizeof(T), 0)) << k.name;
  EXPECT_EQ(bytes_of(read_or(Workload{}, k, fallback)), bytes_of(fallback)) << k.name;
}

TEST(SceneTemplates, ScalarKeysAreTheTemplatesArguments) {
  for (const char* t : {"fountain_kernel", "fountain_particle"}) {
    expect_declared(t, fountain_args::params);
    expect_declared(t, fountain_args::frame);
  }
  for (const char* t : {"swarm_kernel", "swarm_particle"}) {
    expect_declared(t, swarm_args::target);
    expect_declared(t, swarm_args::key);
    expect_declared(t, swarm_args::variant);
    expect_declared(t, swarm_args::params);
  }
  expect_declared("nbody_kernel", nbody_args::eps2);
}

CompileResult gpu_build(const std::string& src, bool checked = false) {
  CompileRequest req;
  req.source = src;
  req.arch = "sm_75";  // no device here: a chosen architecture
  req.checked = checked;
  return compile(req);
}

TEST(SceneTemplates, EachSceneOffersItsTemplates) {
  auto names = [](std::string_view scene) {
    std::vector<std::string> v;
    for (const TemplateSpec* t : templates_feeding(scene)) v.push_back(t->name);
    return v;
  };
  EXPECT_EQ(names("swarm"), (std::vector<std::string>{"swarm_kernel", "swarm_particle"}));
  EXPECT_EQ(names("nbody"), (std::vector<std::string>{"nbody_kernel"}));
  for (const char* example : {"nbody_allpairs", "nbody_tiled"}) {
    const TemplateEntry* e = find_entry(example);
    ASSERT_NE(e, nullptr) << example;
    EXPECT_TRUE(e->example);
    EXPECT_EQ(e->spec->name, "nbody_kernel");
  }
  // Only the per-particle form runs on the CPU without the emulator.
  EXPECT_TRUE(runs_on_cpu(*find_template("swarm_particle")));
}

TEST(SceneTemplates, EachCompilesCleanWithNvrtc) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  for (const char* name : kSceneFiles)
    for (bool checked : {false, true}) {
      const CompileResult r = gpu_build(shipped(name), checked);
      EXPECT_TRUE(r.ok) << name << (checked ? " (checked)" : "") << ": " << r.error << "\n" << r.log;
      EXPECT_TRUE(r.diagnostics.empty()) << name << ": " << r.log;
      EXPECT_FALSE(r.cubin.empty()) << name;
      ASSERT_FALSE(r.entry_points.empty()) << name;
      EXPECT_NE(r.ptx.find(".entry " + r.entry_points[0]), std::string::npos) << name;
      EXPECT_TRUE(r.resources.known) << name << "\n" << r.log;
    }
}

// The kernels use the app's own math through the prelude (kernels/*/*_math.h
// embedded at build time): the n-body tiled example's rsqrt is the built-in's.
TEST(SceneTemplates, PreludeCarriesTheKernelsOwnMath) {
  const std::string swarm_prelude = prelude_text(*find_template("swarm_kernel"));
  EXPECT_NE(swarm_prelude.find("kernels/swarm/swarm_math.h"), std::string::npos);
  EXPECT_NE(swarm_prelude.find("CV_HD void respawn("), std::string::npos);
  EXPECT_NE(swarm_prelude.find("swarm_step(cv::Span<const float4> in"), std::string::npos);
  const std::string nbody_prelude = prelude_text(*find_template("nbody_kernel"));
  EXPECT_NE(nbody_prelude.find("rsqrt.approx.ftz.f32"), std::string::npos);
  EXPECT_NE(nbody_prelude.find("body_accelerations(cv::Span<const float4> bodies"), std::string::npos);
  if (nvrtc_missing()) return;
  const CompileResult tiled = gpu_build(shipped("nbody_tiled"));
  EXPECT_NE(tiled.ptx.find("rsqrt.approx.ftz.f32"), std::string::npos);
  EXPECT_NE(tiled.ptx.find(".shared"), std::string::npos);  // the tile
}

// A mistake put into each shipped file at a known line is reported at that
// line: the prelude before it does not shift the numbers.
TEST(SceneTemplates, ErrorsAtTheStudentsLines) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  for (const char* name : kSceneFiles) {
    std::istringstream in(shipped(name));
    std::string text, line;
    int n = 0, at = 0;
    while (std::getline(in, line)) {
      text += line + "\n";
      ++n;
      // After the first line that opens a function's body.
      if (!at && line.rfind("//", 0) != 0 && line.find(") {") != std::string::npos) {
        text += "  undefined_name += 1;\n";
        at = ++n;
      }
    }
    ASSERT_GT(at, 0) << name;
    const CompileResult r = gpu_build(text);
    EXPECT_FALSE(r.ok) << name;
    EXPECT_EQ(r.first_error_line(), at) << name << "\n" << r.log;
    EXPECT_NE(r.first_error().find("undefined_name"), std::string::npos) << name << ": " << r.first_error();
  }
}

TEST(SceneTemplates, SwarmParticleOnTheHostCompiler) {
  if (find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
  CompileRequest req;
  req.source = shipped("swarm_particle");
  req.build = BuildKind::Cpu;
  const CompileResult r = compile(req);
  EXPECT_TRUE(r.ok) << r.error << r.log;
  EXPECT_TRUE(r.diagnostics.empty()) << r.log;
  EXPECT_EQ(r.entry_points.at(0), "cv_swarm_range");
  req.source = "// template: swarm_particle\nCV_HD void particle_step(cv::swarm::Particle& s, const float3& t,\n"
               "    uint32_t key, uint32_t index, cv::swarm::Variant v, const cv::swarm::Params& p) {\n"
               "  s.x += undefined_name;\n}\n";
  const CompileResult bad = compile(req);
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.first_error_line(), 4) << bad.log;
}

class SceneTemplatesCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
    std::string why;
    path_ = find_runner(test_config().paths.runner, &why);
    if (path_.empty()) GTEST_FAIL() << why;
  }
  // `steps` steps of `source` (a swarm_particle file) on the CPU path from a
  // reset, each compared with the built-in CPU swarm (SwarmCpu) from the same
  // start, targets and keys; returns the particles off by more than 1e-4
  // (relative) at the worst step.
  long long worst_step(const std::string& source, swarm::Variant v, unsigned n, int steps) {
    CompileRequest req;
    req.source = source;
    req.build = BuildKind::Cpu;
    const CompileResult c = compile(req);
    EXPECT_TRUE(c.ok) << c.error << c.log;
    if (!c.ok) return -1;
    RunnerClient client(path_, Backend::Cpu);
    const LoadOutcome lo = client.load(c, 2.0);
    EXPECT_TRUE(lo.ok) << lo.error;
    const TemplateSpec& t = *find_template("swarm_particle");
    const swarm::Params p = swarm::default_params(v);
    swarm::SwarmCpu ref(n, v);
    ref.reset(p, 5, swarm::path_target(0));
    long long worst = 0;
    for (int k = 0; k < steps; ++k) {
      Workload w;
      w.n = n;
      w.seed = 5;
      w.block = {16, 16, 1};
      w.step = k;
      w.reset = k == 0;
      w.read_back = true;
      put(w, swarm_args::variant, v);
      put(w, swarm_args::params, p);
      const LaunchOutcome out = client.launch(make_launch(t, w), 2.0);
      EXPECT_TRUE(out.ok) << (out.fault ? out.fault->describe() : "");
      if (!out.ok) return -1;
      ref.step(swarm::path_target(k), p);
      const std::vector<float> got = out.values<float>("out");
      EXPECT_EQ(got.size(), 4ull * n);
      if (got.size() != 4ull * n) return -1;
      long long bad = 0;
      for (unsigned i = 0; i < n; ++i) {
        const float4 q = ref.vbo()[i];
        const float want[4] = {q.x, q.y, q.z, q.w};
        bool same = true;
        for (int c4 = 0; c4 < 4; ++c4)
          same = same && std::fabs(got[4 * i + c4] - want[c4]) <= 1e-4f * (1 + std::fabs(want[c4]));
        bad += !same;
      }
      worst = std::max(worst, bad);
    }
    return worst;
  }
  std::string path_;
};

// 700 steps: past max_age (600), so every particle has respawned through the
// template's call of cv::swarm::respawn; both variants.
TEST_F(SceneTemplatesCpu, PerParticleSwarmMatchesTheBuiltInCpuSwarmStepByStep) {
  const std::string src = shipped("swarm_particle");
  EXPECT_EQ(worst_step(src, swarm::Variant::Swarm, 3000, 700), 0);
  EXPECT_EQ(worst_step(src, swarm::Variant::Sparkler, 3000, 300), 0);
}

// The comparison can fail: a swarm that steers the other way is caught.
TEST_F(SceneTemplatesCpu, AWrongSwarmIsCaught) {
  std::string src = shipped("swarm_particle");
  const std::string from = "? p.attraction : -p.attraction)";
  const size_t at = src.find(from);
  ASSERT_NE(at, std::string::npos);
  src.replace(at, from.size(), "? -p.attraction : p.attraction)");
  EXPECT_GT(worst_step(src, swarm::Variant::Swarm, 3000, 20), 100);
}

// The n-body check: the CPU twin's own accelerations (its SIMD order, not the
// check's) pass well inside the tolerance, one body off by 1% fails, and NaN
// fails, named as NaN.
TEST(SceneTemplates, NBodyAccelerationCheckFailsWrongAnswers) {
  nbody::Params p;
  p.G = 1.f;
  const unsigned n = 700;
  nbody::NBodyCpu sim(n);
  sim.reset(nbody::Initial::Galaxies, p, 3);
  const std::vector<float4> bodies = sim.bodies(nbody_template::kPad);
  std::vector<float4> acc = sim.accelerations(p);  // G = 1: without G
  const float eps2 = p.softening * p.softening;
  nbody_template::AccelCheck c = nbody_template::check_accelerations(bodies, n, eps2, acc);
  EXPECT_EQ(c.checked, n);
  EXPECT_EQ(c.matching, n);
  EXPECT_LT(c.worst, 0.1);  // the error over the tolerance: another correct order is far inside
  acc[123].x *= 1.01f;
  acc[123].y *= 1.01f;
  acc[123].z *= 1.01f;
  c = nbody_template::check_accelerations(bodies, n, eps2, acc);
  EXPECT_EQ(c.matching, n - 1);
  ASSERT_TRUE(c.first);
  EXPECT_EQ(c.first->element, "acc[123].x");
  acc[5].y = NAN;
  c = nbody_template::check_accelerations(bodies, n, eps2, acc);
  EXPECT_EQ(c.matching, n - 2);
  ASSERT_TRUE(c.first);
  EXPECT_EQ(c.first->element, "acc[5].y");
  EXPECT_EQ(c.first->got, "NaN");
  // Sampled: at most `samples` bodies, spread over all n.
  c = nbody_template::check_accelerations(bodies, n, eps2, acc, 100);
  EXPECT_LE(c.checked, 101);
  EXPECT_GE(c.checked, 100);
  // Too few accelerations: nothing checked (not correct).
  acc.resize(n / 2);
  EXPECT_EQ(nbody_template::check_accelerations(bodies, n, eps2, acc).checked, 0);
}

}  // namespace
}  // namespace cv::usercode

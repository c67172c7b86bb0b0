// A template that exists only in the tests, fed by a scene (docs/architecture.md
// "Add a template", the scene-fed files): the test-only dots scene's step as a
// whole kernel. Its kernel file is beside this one; no file of the app names it.
#include <cmath>
#include <cstring>

#include "dots_args.h"
#include "dots_math.h"
#include "usercode/templates/template_registry.h"

namespace cv::usercode {
namespace {

SpanSpec dots_out() {
  SpanSpec out;
  out.elem_type = "float4";
  out.elem_bytes = sizeof(float4);
  out.access = Access::Write;
  out.size_text = "n (dots)";
  out.size = [](const Workload& w) { return static_cast<unsigned long long>(w.n); };
  out.source = SpanArg::From::Shared;  // the scene's vertex buffer; else the runner's own
  out.read_back = true;
  return out;
}

// Every dot of `out` against the scene's own math for the workload's turn and variant.
CheckResult check_dots(const Workload& w, const ReadBack& rb, Backend) {
  const unsigned n = static_cast<unsigned>(w.n);
  const float turn = read_or(w, dots_args::turn, 0.f);
  const bool spiral = read_or(w, dots_args::spiral, 0u) != 0;
  std::vector<float4> got;
  if (auto it = rb.find("out"); it != rb.end() && it->second.size() == n * sizeof(float4)) {
    got.resize(n);
    std::memcpy(got.data(), it->second.data(), it->second.size());
  }
  long long matching = 0;
  for (unsigned i = 0; i < got.size(); ++i) {
    const float4 want = dots::dot(i, n, turn, spiral), g = got[i];
    const bool near = std::fabs(g.x - want.x) <= 1e-5f && std::fabs(g.y - want.y) <= 1e-5f &&
                      g.z == want.z && g.w == want.w;
    matching += near ? 1 : 0;
  }
  CheckResult r;
  r.correct = matching == static_cast<long long>(n);
  r.fields["result"] = matching;
  r.fields["reference"] = static_cast<long long>(n);
  return r;
}

TemplateSpec dots_spec() {
  TemplateSpec t;
  t.name = "dots_turn";
  t.description = "Test only: the dots scene's step as a whole kernel.";
  t.file = DOTS_KERNEL_FILE;  // its full path (tests/scene/dots_turn.cu)
  t.order = 1000;
  t.feeds = Feeds::Scene;
  t.feeds_name = "dots";
  t.entry = "dots_turn";
  t.notes = "// The app launches it every step as a 1D grid of ceil(n / threads) blocks:\n"
            "// write every dot of out.";
  t.args = {span_arg("out", dots_out()),
            scalar_arg("n", {"unsigned", [](const Workload& w) { return bytes_of(static_cast<unsigned>(w.n)); }}),
            scalar_arg(dots_args::turn, {[](const Workload&) { return 0.f; }}),
            scalar_arg(dots_args::spiral, {[](const Workload&) { return 0u; }})};
  t.shape = [](const Workload& w) {
    LaunchShape s;
    s.block[0] = static_cast<unsigned>(w.block.x);
    s.grid[0] = static_cast<unsigned>((w.n + w.block.x - 1) / w.block.x);
    return s;
  };
  t.reference_text = "the dots scene's own math (dots_math.h), within 1e-5";
  t.check = check_dots;
  t.default_n = 4096;
  t.max_n = 1 << 16;
  t.default_block = {128, 1, 1};
  t.rate_name = "dots_per_s";
  t.rate = [](long long n) { return static_cast<double>(n); };
  return t;
}

}  // namespace

const TemplateRegistrar dots_template_registration(dots_spec());  // the one registration line

}  // namespace cv::usercode

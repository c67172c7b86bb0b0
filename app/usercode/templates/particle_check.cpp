#include "usercode/templates/particle_check.h"

#include <cmath>
#include <cstring>

namespace cv::usercode {

CheckResult particles_match(const std::vector<float4>& ref, const ReadBack& rb, unsigned n) {
  CheckResult r;
  std::vector<float> got;
  if (auto it = rb.find("out"); it != rb.end()) {
    got.resize(it->second.size() / sizeof(float));
    std::memcpy(got.data(), it->second.data(), got.size() * sizeof(float));
  }
  long long matching = 0;
  for (unsigned i = 0; i < n && got.size() >= 4ull * n && ref.size() >= n; ++i) {
    const float want[4] = {ref[i].x, ref[i].y, ref[i].z, ref[i].w};
    bool same = true;
    for (int c = 0; c < 4; ++c)
      same = same && std::fabs(got[4 * i + c] - want[c]) <= 1e-3f * (1 + std::fabs(want[c]));
    matching += same;
  }
  r.correct = matching == n;
  r.fields["result"] = matching;  // particles equal to the built-in's after the check's steps
  r.fields["reference"] = n;
  return r;
}

void particle_scene_rules(TemplateSpec& t, BuiltinPositions builtin) {
  t.swaps = {{"in", "out"}};
  t.check_steps = 120;
  t.check = [builtin](const Workload& w, const ReadBack& rb, Backend backend) {
    return particles_match(builtin(backend, w, w.step + 1), rb, static_cast<unsigned>(w.n));
  };
  t.default_n = 256 * 256;
  t.max_n = 1ll << 26;
  t.default_block = {16, 16, 1};
  t.rate_name = "particles_per_s";
  t.rate = [](long long n) { return static_cast<double>(n); };
}

}  // namespace cv::usercode

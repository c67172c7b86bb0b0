#include "usercode/templates/nbody_parts.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <vector_functions.h>

#include "nbody/nbody.h"
#include "usercode/templates/nbody_args.h"
#include "usercode_kernel_math.h"
#include "usercode_prelude.h"

namespace cv::usercode::nbody_template {
namespace {

unsigned count_of(const Workload& w) { return static_cast<unsigned>(w.n); }

float eps2_of(const Workload& w) {
  return read_or(w, nbody_args::eps2, nbody::Params{}.softening * nbody::Params{}.softening);
}

// The bench's and the check's bodies: the scene's two galaxies, (x, y, z,
// mass), then kPad zero-mass bodies.
std::vector<float4> bodies_of(const Workload& w) {
  const unsigned n = count_of(w);
  const nbody::Bodies b = nbody::make_bodies(nbody::Initial::Galaxies, n, nbody::Params{}, w.seed);
  std::vector<float4> out(static_cast<size_t>(n) + kPad, make_float4(0.f, 0.f, 0.f, 0.f));
  for (unsigned i = 0; i < n; ++i) out[i] = make_float4(b.pos[i].x, b.pos[i].y, b.pos[i].z, b.vel[i].w);
  return out;
}

template <class T>
std::vector<T> values_of(const std::vector<char>& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

}  // namespace

AccelCheck check_accelerations(const std::vector<float4>& bodies, unsigned n, float eps2,
                               const std::vector<float4>& acc, unsigned samples) {
  AccelCheck c;
  if (n == 0 || acc.size() < n || bodies.size() < n) return c;
  const unsigned stride = std::max(1u, n / std::max(1u, samples));
  std::vector<unsigned> which;
  for (unsigned i = 0; i < n; i += stride) which.push_back(i);
  // The CPU twin's per-interaction math (nbody_math.h), bodies in order.
  std::vector<float3> ref(which.size());
  double sum2 = 0;
  for (size_t q = 0; q < which.size(); ++q) {
    const float3 xi = nbody::xyz(bodies[which[q]]);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (unsigned j = 0; j < n; ++j) nbody::accumulate(a, xi, bodies[j], eps2);
    ref[q] = a;
    sum2 += static_cast<double>(a.x) * a.x + static_cast<double>(a.y) * a.y + static_cast<double>(a.z) * a.z;
  }
  const double rms = std::sqrt(sum2 / static_cast<double>(which.size()));
  for (size_t q = 0; q < which.size(); ++q) {
    const float4 g = acc[which[q]];
    const float3 r = ref[q];
    const double dx = g.x - r.x, dy = g.y - r.y, dz = g.z - r.z;
    const double err = std::sqrt(dx * dx + dy * dy + dz * dz);
    const double scale = std::sqrt(static_cast<double>(r.x) * r.x + static_cast<double>(r.y) * r.y +
                                   static_cast<double>(r.z) * r.z) + rms;
    const double rel = scale > 0 ? err / scale : err;
    c.worst = std::isfinite(rel) ? std::max(c.worst, rel) : INFINITY;
    c.matching += std::isfinite(rel) && rel <= 1e-3;
    ++c.checked;
  }
  return c;
}

void fill(TemplateSpec& t) {
  t.feeds = Feeds::Scene;
  t.feeds_name = "nbody";
  t.entry = "body_accelerations";
  SpanSpec bodies;
  bodies.elem_type = "const float4";
  bodies.elem_bytes = sizeof(float4);
  bodies.access = Access::Read;
  bodies.size_text = "n + 1024 (x, y, z, mass; zero-mass bodies after n)";
  bodies.size = [](const Workload& w) { return static_cast<unsigned long long>(w.n) + kPad; };
  bodies.source = SpanArg::From::Shared;  // the scene's snapshot; else sent (bench: two galaxies)
  bodies.init = [](const Workload& w) {
    const std::vector<float4> b = bodies_of(w);
    std::vector<char> bytes(b.size() * sizeof(float4));
    std::memcpy(bytes.data(), b.data(), bytes.size());
    return bytes;
  };
  SpanSpec acc;
  acc.elem_type = "float4";
  acc.elem_bytes = sizeof(float4);
  acc.access = Access::Write;
  acc.size_text = "n (ax, ay, az, unused), without G";
  acc.size = [](const Workload& w) { return static_cast<unsigned long long>(w.n); };
  acc.source = SpanArg::From::Shared;  // the scene's; else the runner's, read back
  acc.read_back = true;
  t.args = {
      span_arg("bodies", bodies),
      span_arg("acc", acc),
      scalar_arg("n", {"unsigned", [](const Workload& w) { return bytes_of(count_of(w)); }}),
      scalar_arg(nbody_args::eps2, {eps2_of}),
  };
  t.notes = std::string(prelude::math_shims_h) + prelude_math::nbody_math_h +
            "\n"
            "// The app launches it every step as a 1D grid of ceil(n / threads) blocks of the\n"
            "// block from the slider, with threads * 16 bytes of dynamic shared memory\n"
            "// (extern __shared__ float4 tile[]: one body a thread), then multiplies by G\n"
            "// and moves the bodies itself (leapfrog).\n"
            "//   bodies[j] = (x, y, z, mass) for j < n, then zero-mass bodies (at least a\n"
            "//               block's worth), so a tile may read bodies[base + t] untested;\n"
            "//   acc[i]    = the sum over all j of m_j d / (|d|^2 + eps2)^(3/2), d = x_j - x_i,\n"
            "//               without G, for every i < n. eps2 = softening^2 > 0: j == i adds 0.";
  t.shape = [](const Workload& w) {
    LaunchShape s;
    s.block[0] = static_cast<unsigned>(w.block.x);
    s.block[1] = static_cast<unsigned>(w.block.y);
    s.block[2] = static_cast<unsigned>(w.block.z);
    const unsigned long long threads = std::max(1ull, 1ull * s.block[0] * s.block[1] * s.block[2]);
    const unsigned long long n = static_cast<unsigned long long>(std::max(1ll, w.n));
    s.grid[0] = static_cast<unsigned>((n + threads - 1) / threads);
    s.dynamic_shared_bytes = static_cast<unsigned>(threads * sizeof(float4));
    return s;
  };
  t.reference_text =
      "the CPU twin's accelerations (nbody_math.h's accumulate, bodies in order) of the same "
      "bodies: each of up to 2048 bodies spread over all n within 1e-3 * (|a| + rms |a|)";
  t.check_steps = 1;
  t.check = [](const Workload& w, const ReadBack& rb, Backend) {
    CheckResult r;
    const unsigned n = count_of(w);
    auto it = rb.find("acc");
    const std::vector<float4> acc = it == rb.end() ? std::vector<float4>{} : values_of<float4>(it->second);
    std::vector<float4> bodies;
    if (auto b = w.init.find("bodies"); b != w.init.end())
      bodies = values_of<float4>(b->second);
    else
      bodies = bodies_of(w);
    const AccelCheck c = check_accelerations(bodies, n, eps2_of(w), acc);
    r.correct = c.checked > 0 && c.matching == c.checked;
    r.fields["result"] = c.matching;  // checked bodies within the tolerance
    r.fields["reference"] = c.checked;
    r.fields["worst_relative_error"] = c.worst;
    return r;
  };
  t.default_n = 1 << 16;
  t.emulated_default_n = 4096;  // n^2 interactions a step, each thread on a CPU's time
  t.max_n = 1ll << 22;
  t.default_block = {256, 1, 1};
  t.rate_name = "interactions_per_s";
  t.rate = [](long long n) { return static_cast<double>(n) * static_cast<double>(n); };
  t.builtin_variant = "tiled";
  t.vs_variants = {"original", "tiled", "fast"};
}

}  // namespace cv::usercode::nbody_template

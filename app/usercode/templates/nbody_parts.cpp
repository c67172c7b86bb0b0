#include "usercode/templates/nbody_parts.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>

#include <vector_functions.h>

#include "common/parallel_for.h"
#include "nbody/nbody.h"
#include "usercode/templates/check_parts.h"
#include "usercode/templates/particle_check.h"
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

// The verdict's bodies: the scene's galaxies, a cluster of masses from 0.1
// to 10, or pairs closer than the softening (where eps2 decides the pull).
enum class Bodies { Galaxies, Cluster, Pairs };

std::vector<float4> make_case_bodies(const Workload& w, Bodies kind) {
  if (kind == Bodies::Galaxies) return bodies_of(w);
  const unsigned n = count_of(w);
  std::mt19937_64 g(w.seed);
  auto in = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(g); };
  const double eps = nbody::Params{}.softening;
  std::vector<float4> out(static_cast<size_t>(n) + kPad, make_float4(0.f, 0.f, 0.f, 0.f));
  for (unsigned i = 0; i < n; ++i) {
    float4 b = make_float4(static_cast<float>(in(-1, 1)), static_cast<float>(in(-1, 1)),
                           static_cast<float>(in(-1, 1)), static_cast<float>(in(0.1, 10)));
    if (kind == Bodies::Pairs && i % 2 == 1) {  // near its partner: 0.05 to 3 softenings away
      const float4 a = out[i - 1];
      const double r = eps * in(0.05, 3), th = in(0, 2 * M_PI), z = in(-1, 1), s = std::sqrt(1 - z * z);
      b.x = a.x + static_cast<float>(r * s * std::cos(th));
      b.y = a.y + static_cast<float>(r * s * std::sin(th));
      b.z = a.z + static_cast<float>(r * z);
    }
    out[i] = b;
  }
  return out;
}

VerdictCase body_case(const std::string& name, long long n, Bodies kind) {
  VerdictCase c;
  c.name = name;
  c.n = n;
  c.setup = [kind](Workload& w) {
    const std::vector<float4> b = make_case_bodies(w, kind);
    std::vector<char> bytes(b.size() * sizeof(float4));
    std::memcpy(bytes.data(), b.data(), bytes.size());
    w.init["bodies"] = std::move(bytes);
    // Accelerations the kernel does not write read back as NaN.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    w.init["acc"] = bytes_of_all(std::vector<float4>(static_cast<size_t>(w.n), make_float4(nan, nan, nan, nan)));
  };
  return c;
}

}  // namespace

namespace {

constexpr double u = kUnitRoundoff;

// The bodies checked: all of them, else `samples` drawn (the first and the last included).
std::vector<unsigned> checked_bodies(unsigned n, unsigned samples, uint64_t seed) {
  std::vector<unsigned> which;
  if (n <= samples) {
    for (unsigned i = 0; i < n; ++i) which.push_back(i);
    return which;
  }
  std::mt19937_64 g(seed);
  which = {0, n - 1};
  while (which.size() < samples) which.push_back(static_cast<unsigned>(g() % n));
  return which;
}

// A body's reference acceleration (the CPU twin's float math, bodies in
// order) and, per component, the tolerance: every term's own rounding (26 u
// a side: the separation, the squares and sum, rsqrt's 2 ulp, the cube, the
// mass and the product) and the two sums' (n + kPad - 1 terms in any order).
void reference(const std::vector<float4>& bodies, unsigned n, float eps2, unsigned i, float3& a, double tol[3]) {
  const float3 xi = nbody::xyz(bodies[i]);
  a = make_float3(0.f, 0.f, 0.f);
  double abs_sum[3] = {0, 0, 0};
  for (unsigned j = 0; j < n; ++j) {
    nbody::accumulate(a, xi, bodies[j], eps2);
    const double dx = static_cast<double>(bodies[j].x) - xi.x, dy = static_cast<double>(bodies[j].y) - xi.y,
                 dz = static_cast<double>(bodies[j].z) - xi.z;
    // A bound's terms: r2 * sqrt(r2) is pow(r2, 1.5) at a fraction of its cost.
    const double r2 = dx * dx + dy * dy + dz * dz + eps2;
    const double w = std::fabs(bodies[j].w) / (r2 * std::sqrt(r2));
    abs_sum[0] += std::fabs(dx) * w, abs_sum[1] += std::fabs(dy) * w, abs_sum[2] += std::fabs(dz) * w;
  }
  const double k = 2.0 * (static_cast<double>(n) + kPad - 1) + 52;
  for (int c = 0; c < 3; ++c) tol[c] = k * u * abs_sum[c];
}

}  // namespace

AccelReference accel_reference(const std::vector<float4>& bodies, unsigned n, float eps2, unsigned samples,
                               uint64_t seed) {
  AccelReference r;
  if (n == 0 || bodies.size() < n) return r;
  r.which = checked_bodies(n, samples, seed);
  r.value.resize(r.which.size());
  r.tol.resize(3 * r.which.size());
  parallel_for(r.which.size(), [&](size_t b, size_t e) {
    for (size_t q = b; q < e; ++q) reference(bodies, n, eps2, r.which[q], r.value[q], &r.tol[3 * q]);
  });
  return r;
}

AccelCheck compare_accelerations(const AccelReference& ref, unsigned n, const std::vector<float4>& acc) {
  AccelCheck c;
  if (n == 0 || acc.size() < n) return c;
  for (size_t q = 0; q < ref.which.size(); ++q) {
    const float4 g = acc[ref.which[q]];
    const float got[3] = {g.x, g.y, g.z}, want[3] = {ref.value[q].x, ref.value[q].y, ref.value[q].z};
    const double* tol = &ref.tol[3 * q];
    bool same = true;
    for (int k = 0; k < 3; ++k) {
      const double diff = std::fabs(static_cast<double>(got[k]) - want[k]);
      const double rel = tol[k] > 0 ? diff / tol[k] : (diff > 0 ? INFINITY : 0);
      c.worst = std::isfinite(rel) ? std::max(c.worst, rel) : INFINITY;
      if (diff <= tol[k]) continue;  // false for NaN
      same = false;
      if (!c.first)
        c.first = Mismatch{"acc[" + std::to_string(ref.which[q]) + "]." + "xyz"[k], check::text(want[k]),
                           check::text(got[k]), check::text(tol[k])};
    }
    c.matching += same;
    ++c.checked;
  }
  return c;
}

AccelCheck check_accelerations(const std::vector<float4>& bodies, unsigned n, float eps2,
                               const std::vector<float4>& acc, unsigned samples, uint64_t seed) {
  if (n == 0 || acc.size() < n || bodies.size() < n) return {};
  return compare_accelerations(accel_reference(bodies, n, eps2, samples, seed), n, acc);
}

namespace {

// The check of one case, made ready: the bodies it launches with (the case's,
// else the template's galaxies) and their reference accelerations; then the
// accelerations that came back against them.
Check prepare_bodies(const Workload& w, Backend) {
  const unsigned n = count_of(w);
  std::vector<float4> bodies;
  if (auto b = w.init.find("bodies"); b != w.init.end())
    bodies = values_of_bytes<float4>(b->second);
  else
    bodies = bodies_of(w);
  // Bodies checked: 512 (every body of a small case), fewer at the demo's size so the
  // reference sums stay near 8M pairs (128 at 65,536; the first and last always).
  constexpr unsigned kPairs = 1u << 23;
  const unsigned samples = std::clamp(kPairs / std::max(1u, n), 128u, 512u);
  auto ref = std::make_shared<const AccelReference>(accel_reference(bodies, n, eps2_of(w), samples, w.seed));
  return [ref, n](const Workload&, const ReadBack& rb, Backend) {
    CheckResult r;
    auto it = rb.find("acc");
    const std::vector<float4> acc = it == rb.end() ? std::vector<float4>{} : values_of_bytes<float4>(it->second);
    const AccelCheck c = compare_accelerations(*ref, n, acc);
    r.correct = c.checked > 0 && c.matching == c.checked;
    r.mismatch = c.first;
    if (!r.correct && !r.mismatch) r.mismatch = Mismatch{"acc", std::to_string(n) + " accelerations", "none", ""};
    r.fields["result"] = c.matching;  // checked bodies within the tolerance
    r.fields["reference"] = c.checked;
    r.fields["worst_error_to_tolerance"] = c.worst;
    return r;
  };
}

}  // namespace

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
    return s;
  };
  t.shared_bytes_per_thread = sizeof(float4);
  t.reference_text =
      "the CPU twin's accelerations (nbody_math.h's accumulate, bodies in order) of the same "
      "bodies (galaxies, clusters, pairs nearer than the softening): every body up to 512, else "
      "128 to 512 drawn (about 8M pairs; the first and the last always), each component within its "
      "float32 rounding bound";
  t.tolerance_text =
      "per body and component: (2 (n + 1024 - 1) + 52) u sum_j |m_j d / (r^2 + eps2)^(3/2)|, "
      "u = 2^-24: two correct float32 sums in any order, each term's own rounding and rsqrt's 2 ulp";
  t.prepare = &prepare_bodies;  // the registry makes t.check of it
  t.cases = {
      body_case("the demo's default", 0, Bodies::Galaxies),
      body_case("n = 1", 1, Bodies::Cluster),
      body_case("n = 7 (less than a warp)", 7, Bodies::Cluster),
      body_case("n = 997 (prime)", 997, Bodies::Galaxies),
      body_case("n = 1025 (a block of 1,024 and one)", 1025, Bodies::Cluster),
      body_case("close encounters: pairs nearer than the softening", 256, Bodies::Pairs),
  };
  t.default_n = 1 << 16;
  t.emulated_default_n = 4096;  // n^2 interactions a step, each thread on a CPU's time
  t.max_n = 1ll << 22;
  t.default_block = {256, 1, 1};
  t.rate_name = "interactions_per_s";
  t.rate = [](long long n) { return static_cast<double>(n) * static_cast<double>(n); };
  t.builtin_variant = "tiled";
  t.cpu_twin = "cpu";
  t.vs_variants = {"original", "tiled", "fast"};
}

}  // namespace cv::usercode::nbody_template

// `cudaviz bench nbody`: one leapfrog step (gather, forces, kick-drift) per
// repetition, positions in a plain device buffer standing in for the VBO.
// Throughput counts N^2 interactions a step and 20 flops an interaction.
#include <string>

#include "bench/bench.h"
#include "common/cuda_resources.h"
#include "common/parallel_for.h"
#include "nbody/nbody.h"

namespace cv::bench {
namespace {

constexpr long long kMaxBodies = 1ll << 24;  // 16M: hours a step; memory is no limit below that
constexpr long long kCpuAllMax = 8192;       // "all" on CUDA adds the CPU twin only up to this N

void fill(Measurement& m, double n) {
  const double s = m.stats.median_ms * 1e-3;
  m.fields["interactions_per_s"] = n * n / s;
  m.fields["gflops"] = nbody::kFlopsPerInteraction * n * n / s * 1e-9;
}

// The CPU twin's variant name: the force variants differ only in how a GPU
// stages memory, the twin is one implementation of the same math.
constexpr const char* kCpu = "cpu";

// Few repetitions where one step takes long: the median of 5 at 1M bodies is
// already ~3 s of work per variant.
int default_reps(long long n, bool cpu) {
  if (cpu) return n > 4096 ? 3 : 10;
  return n >= 524288 ? 5 : n >= 65536 ? 20 : 50;
}

Measurement run_cpu(const BenchOptions& opt, long long n, const BlockShape& block,
                    const nbody::Params& params) {
  using namespace nbody;
  Measurement m = make_measurement(kCpu, Backend::Cpu, n, block);
  NBodyCpu sim(static_cast<unsigned>(n));
  sim.reset(Initial::Galaxies, params, 42);
  const std::atomic<bool>* cancel = cancel_flag(opt);
  m.stats = time_host(
      [&] {
        sim.step(params, cancel);
        if (cancel && *cancel) throw Cancelled();
      },
      1, opt.reps ? opt.reps : default_reps(n, true));
  fill(m, static_cast<double>(n));
  m.fields["threads"] = cpu_threads();
  return m;
}

std::vector<Measurement> run(const BenchOptions& opt, Backend backend) {
  using namespace nbody;
  const bool on_cpu = backend == Backend::Cpu;
  const long long n = opt.n.value_or(on_cpu ? 4096 : 131072);
  if (n < 1 || n > kMaxBodies)
    throw std::invalid_argument("--n: " + std::to_string(n) + " bodies is out of range [1, " +
                                std::to_string(kMaxBodies) + "]");
  const BlockShape block = opt.block.value_or(BlockShape{256, 1, 1});
  if (auto e = validate(block, block_limits(backend)))
    throw std::invalid_argument("--block: " + *e);
  const Params params;
  std::vector<Measurement> out;

  if (on_cpu) {
    // The force variants differ only in how a GPU stages memory; the CPU twin
    // is one implementation of the same math, reported as variant "cpu".
    if (opt.variant != "all" && opt.variant != kCpu)
      throw UsageError("--variant " + opt.variant +
                       " runs on CUDA only; the CPU backend runs 'cpu' (or all)");
    check_cancel(opt, 0.f);
    out.push_back(run_cpu(opt, n, block, params));
    return out;
  }

  const auto& variants = all_variants();
  for (size_t k = 0; k < variants.size(); ++k) {
    const Variant v = variants[k];
    if (!selected(opt.variant, to_string(v))) continue;
    check_cancel(opt, static_cast<float>(k) / static_cast<float>(variants.size() + 1));
    Measurement m = make_measurement(to_string(v), backend, n, block);
    CudaStream stream;
    DeviceBuffer<float4> vbo(static_cast<size_t>(n));
    NBodyGpu sim(static_cast<unsigned>(n));
    sim.reset(vbo.get(), Initial::Galaxies, params, 42, stream.get());
    const int reps = opt.reps ? opt.reps : default_reps(n, false);
    m.stats = time_cuda([&](cudaStream_t s) { sim.step(vbo.get(), params, v, block, s); },
                        n >= 524288 ? 1 : 3, reps, stream.get());
    fill(m, static_cast<double>(n));
    if (v == Variant::Fast) {
      const NBodyGpu::FastLaunch l = sim.fast_launch(block);
      m.fields["bodies_per_thread"] = l.per_thread;
      m.fields["tile"] = l.build;
      m.fields["pairs"] = l.pairs;  // each pair evaluated once, applied to both bodies
      m.fields["blocks"] = l.blocks;
      m.fields["slices"] = l.slices;
    }
    out.push_back(std::move(m));
  }
  if (opt.variant == kCpu || (opt.variant == "all" && n <= kCpuAllMax)) {
    check_cancel(opt,
                 static_cast<float>(variants.size()) / static_cast<float>(variants.size() + 1));
    out.push_back(run_cpu(opt, n, block, params));
  }
  return out;
}

// The force variants, then the CPU twin.
std::vector<std::string> variant_names() {
  std::vector<std::string> v = names_of(nbody::kVariants);
  v.push_back(kCpu);
  return v;
}

Target target() {
  Target t{"nbody", nbody::to_string(nbody::Variant::Fast), variant_names(), run};
  t.variant_aliases = aliases_of(nbody::kVariants);
  return as_simulation(t, 2);
}
const Registrar reg(target());

}  // namespace
}  // namespace cv::bench

// `cudaviz bench fountain`: one step of each variant, positions in a plain
// device buffer standing in for the VBO (interop costs are the app's, measured
// there with events around map/unmap).
#include "bench/bench.h"
#include "common/cuda_resources.h"
#include "fountain/fountain.h"

namespace cv::bench {
namespace {

constexpr long long kMaxParticles = 1ll << 28;  // 8 GiB of original-variant state

std::vector<Measurement> run(const BenchOptions& opt, Backend backend) {
  using namespace fountain;
  // Checked before the narrowing below: --n goes up to 2^50 for pi.
  if (opt.n && *opt.n > kMaxParticles)
    throw UsageError("--n: " + std::to_string(*opt.n) + " particles is out of range [1, " +
                     std::to_string(kMaxParticles) + "]");
  const unsigned n = static_cast<unsigned>(opt.n.value_or(256 * 256));
  const BlockShape block = opt.block.value_or(BlockShape{16, 16, 1});
  if (backend == Backend::Cuda) {
    if (auto e = validate(block, block_limits(backend)))
      throw std::invalid_argument("--block: " + *e);
  }
  const Params params;
  std::vector<Measurement> out;
  for (Variant v : all_variants()) {
    if (!selected(opt.variant, to_string(v))) continue;
    Measurement m = make_measurement(to_string(v), backend, n, block);
    FrameClock clock(7);
    if (backend == Backend::Cuda) {
      CudaStream stream;
      DeviceBuffer<float4> vbo(vbo_bytes(v, n) / sizeof(float4));
      FountainGpu sim(n, v);
      sim.reset(vbo.get(), params, 42, stream.get());
      m.stats = time_cuda(
          [&](cudaStream_t s) { sim.step(vbo.get(), clock.next(params), params, block, s); }, 20,
          opt.reps ? opt.reps : 200, stream.get());
    } else {
      FountainCpu sim(n, v);
      sim.reset(params, 42);
      m.stats =
          time_host([&] { sim.step(clock.next(params), params); }, 2, opt.reps ? opt.reps : 20);
    }
    const double s = m.stats.median_ms * 1e-3;
    m.fields["particles_per_s"] = n / s;
    m.fields["bytes_per_particle"] = bytes_per_particle_step(v);
    m.fields["gb_per_s"] = static_cast<double>(bytes_per_particle_step(v)) * n / s * 1e-9;
    out.push_back(std::move(m));
  }
  return out;
}

Target target() {
  Target t{"fountain", fountain::to_string(fountain::Variant::Lean), names_of(fountain::kVariants), run};
  t.variant_aliases = aliases_of(fountain::kVariants);
  return as_simulation(t, 0);
}
const Registrar reg(target());

}  // namespace
}  // namespace cv::bench

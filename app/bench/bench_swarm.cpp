// `cudaviz bench swarm`: one step of each variant with the target moving on
// its path, positions in a plain device buffer standing in for the VBO.
#include <string>

#include "bench/bench.h"
#include "common/cuda_resources.h"
#include "swarm/swarm.h"

namespace cv::bench {
namespace {

constexpr long long kMaxParticles = 1ll << 28;

std::vector<Measurement> run(const BenchOptions& opt, Backend backend) {
  using namespace swarm;
  const bool on_cpu = backend == Backend::Cpu;
  const long long n = opt.n.value_or(on_cpu ? 256 * 256 : 1 << 22);
  if (n < 1 || n > kMaxParticles)
    throw std::invalid_argument("--n: " + std::to_string(n) + " particles is out of range [1, " +
                                std::to_string(kMaxParticles) + "]");
  const BlockShape block = opt.block.value_or(BlockShape{16, 16, 1});
  if (auto e = validate(block, block_limits(backend)))
    throw std::invalid_argument("--block: " + *e);
  std::vector<Measurement> out;
  const auto& variants = all_variants();
  for (size_t k = 0; k < variants.size(); ++k) {
    const Variant v = variants[k];
    if (!selected(opt.variant, to_string(v))) continue;
    check_cancel(opt, static_cast<float>(k) / static_cast<float>(variants.size()));
    const Params params = default_params(v);
    Measurement m = make_measurement(to_string(v), backend, n, block);
    uint64_t frame = 0;
    if (on_cpu) {
      SwarmCpu sim(static_cast<unsigned>(n), v);
      sim.reset(params, 42);
      m.stats =
          time_host([&] { sim.step(path_target(frame++), params); }, 2, opt.reps ? opt.reps : 20);
    } else {
      CudaStream stream;
      DeviceBuffer<float4> vbo(static_cast<size_t>(n));
      SwarmGpu sim(static_cast<unsigned>(n), v);
      sim.reset(vbo.get(), params, 42, stream.get());
      m.stats = time_cuda(
          [&](cudaStream_t s) { sim.step(vbo.get(), path_target(frame++), params, block, s); }, 20,
          opt.reps ? opt.reps : 200, stream.get());
    }
    const double s = m.stats.median_ms * 1e-3;
    m.fields["particles_per_s"] = static_cast<double>(n) / s;
    m.fields["bytes_per_particle"] = kBytesPerParticleStep;
    m.fields["gb_per_s"] =
        static_cast<double>(kBytesPerParticleStep) * static_cast<double>(n) / s * 1e-9;
    out.push_back(std::move(m));
  }
  return out;
}

const Registrar reg(as_simulation({"swarm", swarm::to_string(swarm::Variant::Swarm),
                                   names_of(swarm::kVariants), run},
                                  1));

}  // namespace
}  // namespace cv::bench

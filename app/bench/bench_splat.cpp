// `cudaviz bench splat`: the CUDA point splatter drawing a fountain of n
// particles (after enough steps that it has spread) into a 1280x800 image seen
// from the app's default camera. Times the splat + resolve alone; the app adds
// map/unmap and the GL composite, measured there.
#include "bench/bench.h"
#include "fountain/fountain.h"
#include "render/camera.h"
#include "render/splat_view.h"
#include "splat/splat.h"

namespace cv::bench {
namespace {

constexpr long long kMaxParticles = 1ll << 28;

// The app's default camera over a w x h image.
splat::View default_view(const fountain::Params& params, int w, int h) {
  splat::View v = splat_view(OrbitCamera{}.view_proj(static_cast<float>(w) / h), w, h);
  v.table_radius = params.table_radius;
  v.scalar_scale = 1.f / params.max_age;
  v.hide_below = fountain::kHiddenY * 0.5f;
  return v;
}

std::vector<Measurement> run(const BenchOptions& opt, Backend backend) {
  // Checked before the narrowing below: --n goes up to 2^50 for pi.
  if (opt.n && *opt.n > kMaxParticles)
    throw UsageError("--n: " + std::to_string(*opt.n) + " particles is out of range [1, " +
                     std::to_string(kMaxParticles) + "]");
  const unsigned n = static_cast<unsigned>(opt.n.value_or(1 << 24));
  const BlockShape block = opt.block.value_or(BlockShape{256, 1, 1});
  if (auto e = validate(block, block_limits(backend)))
    throw std::invalid_argument("--block: " + *e);
  const char* variant = backend == Backend::Cuda ? "cuda" : "cpu";
  std::vector<Measurement> out;
  if (!selected(opt.variant, variant)) return out;

  const int w = 1280, h = 800;
  const int settle = 900;  // past max_age: every particle launched at least once
  const fountain::Params params;
  fountain::FrameClock clock(7);

  const splat::View v = default_view(params, w, h);

  Measurement m = make_measurement(variant, backend, n, block);
  if (backend == Backend::Cuda) {
    CudaStream stream;
    DeviceBuffer<float4> vbo(fountain::vbo_bytes(fountain::Variant::Lean, n) / sizeof(float4));
    DeviceBuffer<uchar4> image(static_cast<size_t>(w) * h);
    fountain::FountainGpu sim(n, fountain::Variant::Lean);
    sim.reset(vbo.get(), params, 42, stream.get());
    for (int i = 0; i < settle; ++i)
      sim.step(vbo.get(), clock.next(params), params, BlockShape{16, 16, 1}, stream.get());
    splat::Splatter sp;
    m.stats = time_cuda(
        [&](cudaStream_t s) { sp.render(vbo.get(), n, v, splat::Style{}, image.get(), block, s); },
        10, opt.reps ? opt.reps : 100, stream.get());
  } else {
    // The serial CPU twin (a test oracle, not a renderer): for comparison only.
    fountain::FountainCpu sim(n, fountain::Variant::Lean);
    sim.reset(params, 42);
    for (int i = 0; i < settle; ++i) {
      sim.step(clock.next(params), params);
      if (i % 64 == 0) check_cancel(opt, 0.5f * i / settle);
    }
    m.stats = time_host([&] { splat::render_cpu(sim.vbo().data(), n, v, splat::Style{}); }, 1,
                        opt.reps ? opt.reps : 5);
  }
  m.fields["particles_per_s"] = n / (m.stats.median_ms * 1e-3);
  m.fields["image"] = {w, h};
  out.push_back(std::move(m));
  return out;
}

const Registrar reg(with_kind({"splat", "cuda", {"cuda", "cpu"}, run},
                              Target::Kind::Tool));  // the renderer

}  // namespace
}  // namespace cv::bench

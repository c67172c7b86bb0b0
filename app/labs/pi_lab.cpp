// `cudaviz bench pi`: every pi variant over n samples of one stream. `result`
// is the estimate, `reference` M_PI, `correct` whether |error| is within
// 5 sigma of the binomial spread for n samples (a false alarm about once in
// 1.7 million runs). All variants but `original` sample the same Philox stream, so
// their `hits` agree exactly; `original` (cuRAND XORWOW) agrees statistically.
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "bench/bench.h"
#include "bench/kernel_action.h"
#include "common/cuda_resources.h"
#include "labs/pi/pi.h"
#include "labs/pi/pi_math.h"

namespace cv::bench {
namespace {

using namespace pi;

constexpr uint64_t kStream = 20240521;  // the lab's sample stream
constexpr long long kDefaultN = 1ll << 26;
constexpr long long kMaxN = 1ll << 50;

uint64_t checked_n(const BenchOptions& opt) {
  const long long n_req = opt.n.value_or(kDefaultN);
  if (n_req < 1 || n_req > kMaxN)
    throw UsageError("--n: pi takes 1.." + std::to_string(kMaxN) + " samples, not " +
                     std::to_string(n_req));
  if (opt.input) throw UsageError("--input: pi takes no data set");
  return static_cast<uint64_t>(n_req);
}

std::vector<Variant> choose_variants(const BenchOptions& opt, Backend backend) {
  std::vector<Variant> chosen;
  for (Variant v : all_variants()) {
    if (!selected(opt.variant, to_string(v))) continue;
    if (is_gpu(v) && backend != Backend::Cuda) {
      if (opt.variant == "all") continue;  // listed, but there is no GPU to run it on
      throw UsageError(std::string("pi variant '") + to_string(v) + "' needs the CUDA backend");
    }
    chosen.push_back(v);
  }
  return chosen;
}

// What every variant's run shares: the sample count, the GPU state.
struct PiRun {
  const BenchOptions& opt;
  uint64_t n;
  BlockShape block;
  const std::atomic<bool>* cancel;
  double steps;
  std::optional<PiGpu> gpu;
  std::optional<CudaStream> stream;
};

// One timed run that leaves its hit count in `hits`.
std::function<double()> gpu_once(PiRun& r, Variant v, uint64_t& hits) {
  if (!r.gpu) {
    r.gpu.emplace();
    r.stream.emplace();
  }
  const cudaStream_t s = r.stream->get();
  return [&r, &hits, v, s] {
    const double ms =
        time_cuda([&](cudaStream_t st) { r.gpu->run(v, r.n, kStream, r.block, st); }, 0, 1, s)
            .median_ms;
    hits = r.gpu->hits(s);
    return ms;
  };
}

std::function<double()> cpu_once(PiRun& r, Variant v, uint64_t& hits) {
  return [&r, &hits, v] {
    return time_host(
               [&] {
                 hits = v == Variant::CpuSerial ? cpu_serial(r.n, kStream, r.cancel)
                                                : cpu_threads(r.n, kStream, r.cancel);
               },
               0, 1)
        .median_ms;
  };
}

void fill_fields(Measurement& m, Variant v, uint64_t hits, uint64_t n) {
  const double est = estimate(hits, n);
  m.fields["samples_per_s"] = static_cast<double>(n) / (m.stats.median_ms * 1e-3);
  m.fields["result"] = est;
  m.fields["reference"] = M_PI;
  m.fields["correct"] = within_bound(est, n);
  m.fields["abs_error"] = std::fabs(est - M_PI);
  m.fields["sigma"] = sigma(n);
  m.fields["hits"] = hits;
  m.fields["generator"] = v == Variant::Original ? "curand_xorwow" : "philox4x32_10";
}

Measurement measure_variant(PiRun& r, Variant v, size_t vi) {
  const BenchOptions& opt = r.opt;
  check_cancel(opt, static_cast<float>(vi / r.steps));
  Measurement m = make_measurement(to_string(v), is_gpu(v) ? Backend::Cuda : Backend::Cpu,
                                   static_cast<long long>(r.n),
                                   is_gpu(v) ? effective_block(v, r.block) : r.block);
  uint64_t hits = 0;
  const std::function<double()> once = is_gpu(v) ? gpu_once(r, v, hits) : cpu_once(r, v, hits);
  std::vector<double> ms{once()};  // warm-up and the answer
  check_cancel(opt, static_cast<float>((vi + 0.5) / r.steps));
  const uint64_t first_hits = hits;
  const int reps = auto_reps(opt, ms[0], 20);
  ms.clear();
  for (int i = 0; i < reps; ++i) {
    check_cancel(opt, static_cast<float>((vi + 0.5 + 0.5 * i / reps) / r.steps));
    ms.push_back(once());
    // Every variant is deterministic for a fixed stream; a change would be a bug (a race).
    if (hits != first_hits)
      throw std::runtime_error(std::string("pi ") + m.variant + ": repeated runs disagree");
  }
  m.stats = summarize(ms);
  fill_fields(m, v, hits, r.n);
  return m;
}

std::vector<Measurement> run(const BenchOptions& opt, Backend backend) {
  const uint64_t n = checked_n(opt);
  const BlockShape block = opt.block.value_or(BlockShape{256, 1, 1});
  if (auto e = validate(block, block_limits(backend)))
    throw std::invalid_argument("--block: " + *e);

  const std::vector<Variant> chosen = choose_variants(opt, backend);
  const std::atomic<bool>* cancel = cancel_flag(opt);
  PiRun r{opt, n, block, cancel, static_cast<double>(chosen.size()), {}, {}};
  std::vector<Measurement> out;
  for (size_t vi = 0; vi < chosen.size(); ++vi) out.push_back(measure_variant(r, chosen[vi], vi));
  return out;
}

Target target() {
  Target t{"pi", to_string(Variant::Fast), names_of(kVariants), run, kMaxN};
  t.variant_aliases = aliases_of(kVariants);
  LabInfo lab;
  lab.counts = "samples";
  lab.notice =
      "Four GPU designs from the notes, from one thread per block to many samples per thread "
      "with a shared-memory sum per block. One thread per block wastes 31 of 32 warp lanes "
      "and launches millions of blocks; one flag per sample spends more time writing flags "
      "than drawing points. Doing many samples per thread and one atomic per block turns "
      "the job from launch- and memory-bound into arithmetic-bound: compare samples/s "
      "across the rows.";
  lab.actions.push_back(your_kernel_action("pi", kDefaultN));
  lab.kernel = [](const std::string& variant,
                  const BlockShape& block) -> std::optional<LabInfo::Kernel> {
    const Variant v = *parse_variant(variant);
    auto a = kernel_attributes(v);
    if (!a) return std::nullopt;
    return LabInfo::Kernel{std::move(*a), effective_block(v, block)};
  };
  t.lab = lab;
  return t;
}

const Registrar reg(target());

}  // namespace
}  // namespace cv::bench

// `cudaviz bench corelated`: pairs of rows sharing more than the document's
// threshold (2) ids, on generated rows (--n rows of 64 ids from [1, 4096]) or
// --input (one row per line), every GPU variant checked against the CPU.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "bench/bench.h"
#include "bench/kernel_action.h"
#include "common/cuda_resources.h"
#include "common/int_file.h"
#include "labs/corelated/corelated.h"
#include "labs/corelated/corelated_math.h"

namespace cv::bench {
namespace {

using namespace corelated;

constexpr long long kMaxRows = 1 << 20;

Rows load_rows(const BenchOptions& opt) {
  if (!opt.input) {
    const long long n = opt.n.value_or(2000);
    if (n < 0 || n > kMaxRows)
      throw UsageError("--n: corelated takes 0.." + std::to_string(kMaxRows) + " rows");
    return generate_rows(static_cast<size_t>(n));
  }
  IntRows file = read_int_rows(*opt.input);
  if (file.rows() > static_cast<size_t>(kMaxRows))
    throw UsageError("'" + *opt.input + "' has " + std::to_string(file.rows()) +
                     " rows; corelated takes at most " + std::to_string(kMaxRows));
  if (opt.n) {  // the first n rows of the file
    if (*opt.n > static_cast<long long>(file.rows()))
      throw UsageError("--n " + std::to_string(*opt.n) + " exceeds the " +
                       std::to_string(file.rows()) + " rows of '" + *opt.input + "'");
    file.offsets.resize(static_cast<size_t>(*opt.n) + 1);
    file.values.resize(file.offsets.back());
  }
  return make_rows(file.values, file.offsets);
}

std::vector<Variant> choose_variants(const BenchOptions& opt, Backend backend) {
  std::vector<Variant> chosen;
  for (Variant v : all_variants()) {
    if (!selected(opt.variant, to_string(v))) continue;
    if (is_gpu(v) && backend != Backend::Cuda) {
      if (opt.variant == "all") continue;  // no GPU to run it on
      throw UsageError(std::string("corelated variant '") + to_string(v) +
                       "' needs the CUDA backend");
    }
    chosen.push_back(v);
  }
  return chosen;
}

// What every variant's run shares: the rows, the reference, the GPU state.
struct CorelatedRun {
  const BenchOptions& opt;
  const Rows& rows;
  int threshold;
  BlockShape block;
  double steps;
  uint64_t reference;
  std::optional<CorelatedGpu> gpu;
  std::optional<CudaStream> stream;
};

// One timed run that leaves its count in `result`.
std::function<double()> gpu_once(CorelatedRun& r, Variant v, uint64_t& result) {
  if (!r.gpu) {
    r.gpu.emplace(r.rows);
    r.stream.emplace();
  }
  return [&r, &result, v] {
    const double ms = time_cuda([&](cudaStream_t st) { r.gpu->run(v, r.threshold, r.block, st); },
                                0, 1, r.stream->get())
                          .median_ms;
    result = r.gpu->result(r.stream->get());
    return ms;
  };
}

std::function<double()> cpu_once(CorelatedRun& r, uint64_t& result) {
  return [&r, &result] {
    const double ms =
        time_host([&] { result = count_cpu(r.rows, r.threshold, cancel_flag(r.opt)); }, 0, 1)
            .median_ms;
    // A cancelled count is discarded here (progress is the caller's to report).
    throw_if_cancelled(r.opt);
    return ms;
  };
}

void fill_fields(Measurement& m, const CorelatedRun& r, Variant v, uint64_t first_result,
                 bool stable) {
  const double pairs = static_cast<double>(pair_count(r.rows.rows()));
  const double s = m.stats.median_ms * 1e-3;
  m.fields["pairs_per_s"] = s > 0 ? pairs / s : 0.0;
  m.fields["threshold"] = r.threshold;
  if (v == Variant::Fast) m.fields["method"] = r.gpu->fast_uses_bitsets() ? "bitset" : "merge";
  m.fields["ids"] = r.rows.ids.size();
  m.fields["result"] = first_result;
  m.fields["reference"] = r.reference;
  // Every repetition must agree, not only the first.
  m.fields["correct"] = first_result == r.reference && stable;
}

Measurement measure_variant(CorelatedRun& r, Variant v, double step0) {
  const BenchOptions& opt = r.opt;
  Measurement m = make_measurement(to_string(v), is_gpu(v) ? Backend::Cuda : Backend::Cpu,
                                   static_cast<long long>(r.rows.rows()), r.block);
  uint64_t result = 0;
  const std::function<double()> once = is_gpu(v) ? gpu_once(r, v, result) : cpu_once(r, result);
  const double first = once();  // warm-up; its answer is checked below
  const uint64_t first_result = result;
  const int reps =
      opt.reps ? opt.reps : static_cast<int>(std::clamp(1000.0 / std::max(first, 1e-3), 1.0, 20.0));
  std::vector<double> ms;
  bool stable = true;
  for (int i = 0; i < reps; ++i) {
    check_cancel(opt, static_cast<float>((step0 + double(i) / reps) / r.steps));
    ms.push_back(once());
    stable = stable && result == first_result;
  }
  m.stats = summarize(ms);
  fill_fields(m, r, v, first_result, stable);
  return m;
}

std::vector<Measurement> run(const BenchOptions& opt, Backend backend) {
  const Rows rows = load_rows(opt);
  const int threshold = kDefaultThreshold;
  const BlockShape block = opt.block.value_or(BlockShape{16, 16, 1});
  if (auto e = validate(block, block_limits(backend)))
    throw std::invalid_argument("--block: " + *e);

  const std::vector<Variant> chosen = choose_variants(opt, backend);
  const double steps = static_cast<double>(chosen.size()) + 1;

  const uint64_t reference = count_cpu(rows, threshold, cancel_flag(opt));
  check_cancel(opt, static_cast<float>(1 / steps));

  CorelatedRun r{opt, rows, threshold, block, steps, reference, {}, {}};
  std::vector<Measurement> out;
  for (size_t vi = 0; vi < chosen.size(); ++vi)
    out.push_back(measure_variant(r, chosen[vi], static_cast<double>(vi + 1)));
  check_cancel(opt, 1.f);
  return out;
}

Target target() {
  Target t{"corelated", to_string(Variant::Shared), names_of(kVariants), run};
  LabInfo lab;
  lab.counts = "rows";
  lab.takes_input = true;
  lab.notice =
      "Pairs of rows sharing more than a threshold of ids. The launch shape decides who "
      "does what: a 2D grid of blocks with a thread per id (the notes' experiment), one "
      "thread per pair in 1D over the upper triangle, or a 2D grid of pairs where the "
      "lower triangle idles. Counting hits with an atomic per hit contends on one counter; "
      "a shared-memory count per block with one atomic per pair was faster in the notes "
      "(0.66 s against 0.87 s for 1k rows).";
  lab.actions.push_back(your_kernel_action("corelated", 2000));  // usercode/templates/corelated_template.cpp
  t.lab = lab;
  return t;
}

const Registrar reg(target());

}  // namespace
}  // namespace cv::bench

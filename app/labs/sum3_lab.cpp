// `cudaviz bench sum3`: every 3SUM variant on the same data (seeded default or
// --input), each result checked against the CPU O(n^2) count when affordable.
// triples_per_s is C(n, 3) / time for every variant, the O(n^2) ones included,
// so brute force and sorted compare on one scale.
#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "bench/bench.h"
#include "bench/kernel_action.h"
#include "common/cuda_resources.h"
#include "labs/sum3/sum3.h"
#include "labs/sum3/sum3_math.h"

namespace cv::bench {
namespace {

using namespace sum3;

constexpr long long kDefaultN = 2000;
constexpr long long kMaxN = 1ll << 30;
// The CPU O(n^2) reference runs up to this n (seconds on a desktop).
constexpr long long kReferenceMaxN = 200000;
// With --variant all, brute-force variants whose one run would take far too long
// are left out (named alone they always run). Triples, by rough rates.
double all_budget_triples(Variant v) {
  switch (v) {
    case Variant::CpuSerial:
      return 2e10;
    case Variant::Cpu:
      return 2e11;
    case Variant::Naive:
    case Variant::Hoisted:
      return 4e12;
    case Variant::Shared:
    case Variant::Fast:
      return 5e13;
    default:
      return INFINITY;
  }
}

std::vector<Variant> choose_variants(const BenchOptions& opt, Backend backend, size_t n) {
  std::vector<Variant> chosen;
  for (Variant v : all_variants()) {
    if (!selected(opt.variant, to_string(v))) continue;
    if (is_gpu(v) && backend != Backend::Cuda) {
      if (opt.variant == "all") continue;  // listed, but there is no GPU to run it on
      throw UsageError(std::string("sum3 variant '") + to_string(v) + "' needs the CUDA backend");
    }
    if (opt.variant == "all" && triples_of(n) > all_budget_triples(v)) continue;
    chosen.push_back(v);
  }
  return chosen;
}

// What every variant's run shares: the data, the reference counts, the GPU state.
struct Sum3Run {
  const BenchOptions& opt;
  const std::vector<int32_t>& data;
  size_t n;
  BlockShape block;
  double steps;
  std::optional<uint64_t> reference;
  std::optional<uint64_t> brute_cpu;
  std::optional<Sum3Gpu> gpu;
  std::optional<CudaStream> stream;
};

std::vector<double> time_gpu_variant(Sum3Run& r, Variant v, double step0, uint64_t& result) {
  if (!r.gpu) {
    r.gpu.emplace(r.data.data(), r.n);
    r.stream.emplace();
  }
  const cudaStream_t s = r.stream->get();
  auto once = [&] {
    return time_cuda([&](cudaStream_t st) { r.gpu->run(v, r.block, st); }, 0, 1, s).median_ms;
  };
  std::vector<double> ms;
  ms.push_back(once());  // warm-up and the answer
  result = r.gpu->result(s);
  const int reps = auto_reps(r.opt, ms[0], 20);
  ms.clear();
  for (int i = 0; i < reps; ++i) {
    check_cancel(r.opt, static_cast<float>((step0 + double(i) / reps) / r.steps));
    ms.push_back(once());
  }
  return ms;
}

std::vector<double> time_cpu_variant(Sum3Run& r, Variant v, double step0, uint64_t& result) {
  const BenchOptions& opt = r.opt;
  auto once = [&] {
    const auto t = time_host(
        [&] {
          const std::atomic<bool>* cancel = cancel_flag(r.opt);
          result = v == Variant::Cpu         ? count_cpu(r.data.data(), r.n, cancel)
                   : v == Variant::CpuSerial ? count_cpu_serial(r.data.data(), r.n, cancel)
                                             : count_cpu_sorted(r.data.data(), r.n, cancel);
        },
        0, 1);
    // A cancelled count is discarded here (progress is the caller's to report).
    throw_if_cancelled(opt);
    return t.median_ms;
  };
  std::vector<double> ms;
  const double first = once();
  const int reps = opt.reps ? opt.reps : (first > 1000 ? 1 : auto_reps(opt, first, 20));
  if (opt.reps == 0 && first > 1000) {
    ms.push_back(first);  // a long CPU run is not repeated by default
  } else {
    for (int i = 0; i < reps; ++i) {
      check_cancel(opt, static_cast<float>((step0 + double(i) / reps) / r.steps));
      ms.push_back(once());
    }
  }
  if (v == Variant::Cpu || v == Variant::CpuSerial) r.brute_cpu = result;
  return ms;
}

// cpu_sorted is the reference itself: check it against the brute force instead.
std::optional<uint64_t> reference_for(const Sum3Run& r, Variant v) {
  std::optional<uint64_t> ref = r.reference;
  if (v == Variant::CpuSorted) {
    ref = r.brute_cpu;
    if (!ref && triples_of(r.n) <= 2e9) ref = count_cpu(r.data.data(), r.n, cancel_flag(r.opt));
  }
  return ref;
}

void fill_fields(Measurement& m, const Sum3Run& r, Variant v, uint64_t result) {
  const double s = m.stats.median_ms * 1e-3;
  m.fields["algorithm"] = is_brute_force(v) ? "brute_force" : "sorted";
  m.fields["triples_per_s"] = s > 0 ? triples_of(r.n) / s : 0.0;
  if (v == Variant::Naive || v == Variant::Hoisted || v == Variant::Shared) {
    const GridUsage g = grid_usage(r.n, r.block);
    m.fields["threads_launched"] = g.threads;
    m.fields["threads_working"] = g.working;
    m.fields["idle_blocks"] = g.idle_blocks;
  }
  m.fields["result"] = result;
  if (auto ref = reference_for(r, v)) {
    m.fields["reference"] = *ref;
    m.fields["correct"] = result == *ref;
  } else {
    m.fields["reference"] = nullptr;
    m.fields["correct"] = nullptr;
  }
}

Measurement measure_variant(Sum3Run& r, Variant v, double step0) {
  Measurement m = make_measurement(to_string(v), is_gpu(v) ? Backend::Cuda : Backend::Cpu,
                                   static_cast<long long>(r.n), r.block);
  uint64_t result = 0;
  const std::vector<double> ms =
      is_gpu(v) ? time_gpu_variant(r, v, step0, result) : time_cpu_variant(r, v, step0, result);
  m.stats = summarize(ms);
  fill_fields(m, r, v, result);
  return m;
}

std::vector<Measurement> run(const BenchOptions& opt, Backend backend) {
  const std::vector<int32_t> data =
      lab_data(opt, "sum3", kDefaultN, kMaxN, [](size_t n) { return make_data(n); });
  const size_t n = data.size();
  const BlockShape block = opt.block.value_or(BlockShape{16, 16, 1});
  if (auto e = validate(block, block_limits(backend)))
    throw std::invalid_argument("--block: " + *e);

  const std::vector<Variant> chosen = choose_variants(opt, backend, n);
  Sum3Run r{opt, data, n, block, static_cast<double>(chosen.size()) + 1, {}, {}, {}, {}};

  // The reference, and the brute-force CPU count when that runs too.
  if (static_cast<long long>(n) <= kReferenceMaxN) {
    r.reference = count_cpu_sorted(data.data(), n, cancel_flag(opt));
    check_cancel(opt, 1 / static_cast<float>(r.steps));
  }
  std::vector<Measurement> out;
  for (size_t vi = 0; vi < chosen.size(); ++vi)
    out.push_back(measure_variant(r, chosen[vi], static_cast<double>(vi + 1)));
  check_cancel(opt, 1.f);
  return out;
}

// The document's table (n = 800..2000 step 200; cpu, naive, shared, the GPU ones
// only on the CUDA backend) with the window's block and repetitions.
std::vector<BenchOptions> document_table_jobs(const BenchOptions& fields, Backend backend) {
  std::vector<BenchOptions> jobs;
  for (long long n = 800; n <= 2000; n += 200)
    for (Variant v : {Variant::Cpu, Variant::Naive, Variant::Shared}) {
      if (backend == Backend::Cpu && is_gpu(v)) continue;
      BenchOptions o;
      o.target = fields.target;
      o.variant = to_string(v);
      o.n = n;
      o.block = fields.block;
      o.reps = fields.reps;
      jobs.push_back(o);
    }
  return jobs;
}

Target target() {
  Target t{"sum3", to_string(Variant::Shared), names_of(kVariants), run};
  LabInfo lab;
  lab.counts = "values";
  lab.takes_input = true;
  lab.notice =
      "3SUM on a 2D grid: thread (i, j) loops over k. Only threads with i < j do work, so "
      "the lower triangle of the grid idles (the picture below shows it). The naive kernel "
      "does an atomicAdd for every hit on one global counter; hoisting the two fixed values "
      "into registers saves loads; a shared-memory count per block leaves one atomic per "
      "block. 'document table' reruns document 000's table (n = 800..2000). Beyond brute force, "
      "sorting makes it O(n^2): the algorithm beats any launch tuning.";
  lab.actions.push_back({"document_table",
                         "Reproduces document 000's table: n = 800..2000 with cpu, naive and "
                         "shared (the GPU ones on the CUDA backend).",
                         document_table_jobs, {}});
  lab.kernel = [](const std::string& variant,
                  const BlockShape& block) -> std::optional<LabInfo::Kernel> {
    const Variant v = *parse_variant(variant);
    auto a = kernel_attributes(v);
    if (!a) return std::nullopt;
    // The brute-force kernels index (i, j) with a 2D grid; fast and sorted are 1D.
    return LabInfo::Kernel{std::move(*a), block,
                           v == Variant::Naive || v == Variant::Hoisted || v == Variant::Shared};
  };
  lab.actions.push_back(your_kernel_action("sum3", kDefaultN));  // usercode/templates/sum3_template.cpp
  t.lab = lab;
  return t;
}

const Registrar reg(target());

}  // namespace
}  // namespace cv::bench

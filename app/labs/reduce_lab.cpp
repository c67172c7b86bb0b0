// `cudaviz bench count3` and `cudaviz bench reduce`: every variant of the
// counting / summing lab (document 001) over the same int32 data (seeded default or
// --input), each answer checked against the CPU. gb_per_s counts the bytes read
// (4 per element). `racy` is wrong on purpose: its `correct` is false whenever
// updates were lost, which is the point of the lab.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "bench/bench.h"
#include "bench/kernel_action.h"
#include "common/cuda_resources.h"
#include "labs/reduce/reduce.h"

namespace cv::bench {
namespace {

using namespace reduce;

constexpr uint64_t kDataSeed = 1;
constexpr long long kDefaultN = 1ll << 24;
constexpr long long kMaxN = 1ll << 30;  // 4 GiB of int32 on the device

std::vector<Variant> choose_variants(Op op, const BenchOptions& opt, Backend backend) {
  std::vector<Variant> chosen;
  for (Variant v : all_variants()) {
    if (!selected(opt.variant, to_string(v))) continue;
    if (is_gpu(v) && backend != Backend::Cuda) {
      if (opt.variant == "all") continue;  // listed, but there is no GPU to run it on
      throw UsageError(std::string(to_string(op)) + " variant '" + to_string(v) +
                       "' needs the CUDA backend");
    }
    chosen.push_back(v);
  }
  return chosen;
}

// What every variant's run shares: the data, the reference, the device state.
struct ReduceRun {
  Op op;
  const BenchOptions& opt;
  const std::vector<int32_t>& data;
  size_t n;
  BlockShape block;
  double steps;
  int64_t reference;
  std::optional<CudaStream> stream;
  std::optional<DeviceBuffer<int32_t>> d_in;
  std::optional<ReduceGpu> gpu;
};

// One timed run that leaves its answer in `result`.
std::function<double()> gpu_once(ReduceRun& r, Variant v, int64_t& result) {
  if (!r.gpu) {
    r.stream.emplace();
    r.d_in.emplace(r.n);
    if (r.n)
      CV_CUDA(cudaMemcpyAsync(r.d_in->get(), r.data.data(), r.n * sizeof(int32_t),
                              cudaMemcpyHostToDevice, r.stream->get()));
    r.gpu.emplace(r.op, std::max<size_t>(r.n, 1));
  }
  const cudaStream_t s = r.stream->get();
  return [&r, &result, v, s] {
    const double ms =
        time_cuda([&](cudaStream_t st) { r.gpu->run(v, r.d_in->get(), r.n, r.block, st); }, 0, 1, s)
            .median_ms;
    result = r.gpu->result(s);
    return ms;
  };
}

std::function<double()> cpu_once(ReduceRun& r, Variant v, int64_t& result) {
  return [&r, &result, v] {
    return time_host(
               [&] {
                 result = v == Variant::CpuSerial
                              ? cpu_serial(r.op, r.data.data(), r.n, cancel_flag(r.opt))
                              : cpu_threads(r.op, r.data.data(), r.n, cancel_flag(r.opt));
               },
               0, 1)
        .median_ms;
  };
}

Measurement measure_variant(ReduceRun& r, Variant v, double step0) {
  check_cancel(r.opt, static_cast<float>(step0 / r.steps));
  Measurement m = make_measurement(to_string(v), is_gpu(v) ? Backend::Cuda : Backend::Cpu,
                                   static_cast<long long>(r.n), r.block);
  int64_t result = 0;
  const std::function<double()> once = is_gpu(v) ? gpu_once(r, v, result) : cpu_once(r, v, result);
  std::vector<double> ms{once()};  // warm-up and a first answer
  bool correct = result == r.reference;
  const int64_t first = result;
  const int reps = auto_reps(r.opt, ms[0], 50);
  ms.clear();
  for (int i = 0; i < reps; ++i) {
    check_cancel(r.opt, static_cast<float>((step0 + double(i) / reps) / r.steps));
    ms.push_back(once());
    correct = correct && result == r.reference;
  }
  check_cancel(r.opt, static_cast<float>((step0 + 1) / r.steps));
  m.stats = summarize(ms);
  m.fields["gb_per_s"] =
      static_cast<double>(r.n) * sizeof(int32_t) / (m.stats.median_ms * 1e-3) * 1e-9;
  m.fields["result"] = first;  // racy: the first wrong answer; the others vary from run to run
  m.fields["reference"] = r.reference;
  m.fields["correct"] = correct;
  return m;
}

std::vector<Measurement> run_lab(Op op, const BenchOptions& opt, Backend backend) {
  const std::vector<int32_t> data =
      lab_data(opt, op == Op::Sum ? "reduce" : "count3", kDefaultN, kMaxN,
               [&opt](size_t n) { return make_data(n, kDataSeed, cancel_flag(opt)); });
  throw_if_cancelled(opt);
  const size_t n = data.size();
  const BlockShape block = opt.block.value_or(BlockShape{256, 1, 1});
  if (auto e = validate(block, block_limits(backend)))
    throw std::invalid_argument("--block: " + *e);

  const std::vector<Variant> chosen = choose_variants(op, opt, backend);
  const double steps = static_cast<double>(chosen.size()) + 1;

  const int64_t reference = cpu_threads(op, data.data(), n, cancel_flag(opt));
  check_cancel(opt, static_cast<float>(1 / steps));

  ReduceRun r{op, opt, data, n, block, steps, reference, {}, {}, {}};
  std::vector<Measurement> out;
  for (size_t vi = 0; vi < chosen.size(); ++vi)
    out.push_back(measure_variant(r, chosen[vi], static_cast<double>(vi + 1)));
  return out;
}

// count3's racy variant is wrong on purpose: the note says why beside its answer.
std::string race_note(const std::string& variant) {
  if (variant != to_string(Variant::Racy)) return "";
  return "race: every thread does count = count + 1 as a separate load, add and store, so threads "
         "that read the same old value overwrite each other's increments and most hits are lost "
         "(atomicAdd makes the three one indivisible step).";
}

Target target(Op op) {
  Target t{to_string(op), to_string(Variant::Fast), names_of(kVariants),
           [op](const BenchOptions& o, Backend b) { return run_lab(op, o, b); }};
  LabInfo lab;
  lab.counts = "values";
  lab.takes_input = true;
  if (op == Op::Count3) {
    lab.notice =
        "The racy variant does count++ on one global from every thread. The increment is a "
        "read, an add and a write; two threads that read the same old value both write old+1 "
        "and one hit is lost. The answer is wrong, and wrong by a different amount each run. "
        "atomicAdd fixes it but serializes every hit on one address; a per-block tree in "
        "shared memory or warp shuffles add up locally first and need one atomic per block "
        "or warp. Compare with CUB, the reference.";
    lab.wrong_note = race_note;
  } else {
    lab.notice =
        "Summing an array reads every byte once and does almost no arithmetic, so the only "
        "figure that matters is GB/s against the device's memory bandwidth. The multi-pass "
        "tree relaunches the kernel per level; shared-memory trees and warp shuffles finish "
        "in one pass; wide 16-byte loads and a grid-stride loop get close to CUB.";
  }
  lab.actions.push_back(your_kernel_action(to_string(op), kDefaultN));  // count3 / reduce templates
  t.lab = lab;
  return t;
}

const Registrar reg_count(target(Op::Count3));
const Registrar reg_sum(target(Op::Sum));

}  // namespace
}  // namespace cv::bench

// `cudaviz bench count3` and `cudaviz bench reduce`: every variant of the
// counting / summing lab (seed 001) over the same int32 data (seeded default or
// --input), each answer checked against the CPU. gb_per_s counts the bytes read
// (4 per element). `racy` is wrong on purpose: its `correct` is false whenever
// updates were lost, which is the point of the lab.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "bench/bench.h"
#include "common/cuda_resources.h"
#include "labs/reduce/reduce.h"

namespace cv::bench {
namespace {

using namespace reduce;

constexpr uint64_t kDataSeed = 1;
constexpr long long kDefaultN = 1ll << 24;
constexpr long long kMaxN = 1ll << 30;  // 4 GiB of int32 on the device

std::vector<Measurement> run_lab(Op op, const BenchOptions& opt, Backend backend) {
  const std::vector<int32_t> data =
      lab_data(opt, op == Op::Sum ? "reduce" : "count3", kDefaultN, kMaxN,
               [](size_t n) { return make_data(n, kDataSeed); });
  const size_t n = data.size();
  const BlockShape block = opt.block.value_or(BlockShape{256, 1, 1});
  if (auto e = validate(block, block_limits(backend)))
    throw std::invalid_argument("--block: " + *e);

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
  const std::atomic<bool>* cancel = opt.control ? &opt.control->cancel : nullptr;
  const double steps = static_cast<double>(chosen.size()) + 1;

  const int64_t reference = cpu_threads(op, data.data(), n, cancel);
  check_cancel(opt, static_cast<float>(1 / steps));

  std::optional<CudaStream> stream;
  std::optional<DeviceBuffer<int32_t>> d_in;
  std::optional<ReduceGpu> gpu;
  std::vector<Measurement> out;
  for (size_t vi = 0; vi < chosen.size(); ++vi) {
    const Variant v = chosen[vi];
    const double step0 = static_cast<double>(vi + 1);
    check_cancel(opt, static_cast<float>(step0 / steps));
    Measurement m;
    m.variant = to_string(v);
    m.backend = is_gpu(v) ? Backend::Cuda : Backend::Cpu;
    m.n = static_cast<long long>(n);
    m.block = block;
    int64_t result = 0;
    std::function<double()> once;
    if (is_gpu(v)) {
      if (!gpu) {
        stream.emplace();
        d_in.emplace(n);
        if (n)
          CV_CUDA(cudaMemcpyAsync(d_in->get(), data.data(), n * sizeof(int32_t),
                                  cudaMemcpyHostToDevice, stream->get()));
        gpu.emplace(op, std::max<size_t>(n, 1));
      }
      const cudaStream_t s = stream->get();
      once = [&, v, s] {
        const double ms =
            time_cuda([&](cudaStream_t st) { gpu->run(v, d_in->get(), n, block, st); }, 0, 1, s)
                .median_ms;
        result = gpu->result(s);
        return ms;
      };
    } else {
      once = [&, v] {
        return time_host(
                   [&] {
                     result = v == Variant::CpuSerial ? cpu_serial(op, data.data(), n, cancel)
                                                      : cpu_threads(op, data.data(), n, cancel);
                   },
                   0, 1)
            .median_ms;
      };
    }
    std::vector<double> ms{once()};  // warm-up and a first answer
    bool correct = result == reference;
    const int64_t first = result;
    const int reps = auto_reps(opt, ms[0], 50);
    ms.clear();
    for (int r = 0; r < reps; ++r) {
      check_cancel(opt, static_cast<float>((step0 + double(r) / reps) / steps));
      ms.push_back(once());
      correct = correct && result == reference;
    }
    check_cancel(opt, static_cast<float>((step0 + 1) / steps));
    m.stats = summarize(ms);
    m.fields["gb_per_s"] =
        static_cast<double>(n) * sizeof(int32_t) / (m.stats.median_ms * 1e-3) * 1e-9;
    m.fields["result"] = first;  // racy: the first wrong answer; the others vary from run to run
    m.fields["reference"] = reference;
    m.fields["correct"] = correct;
    out.push_back(std::move(m));
  }
  return out;
}

const std::vector<std::string> kVariantNames{"racy",        "atomic",       "thrust", "multipass",
                                             "shared_tree", "warp_shuffle", "cub",    "fast",
                                             "cpu",         "cpu_threads"};

const Registrar reg_count({"count3", "fast", kVariantNames, [](const BenchOptions& o, Backend b) {
                             return run_lab(Op::Count3, o, b);
                           }});
const Registrar reg_sum({"reduce", "fast", kVariantNames,
                         [](const BenchOptions& o, Backend b) { return run_lab(Op::Sum, o, b); }});

}  // namespace
}  // namespace cv::bench

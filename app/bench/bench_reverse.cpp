// `cudaviz bench reverse`: naive and shared-memory reversal of an int32 array,
// with the device's copy bandwidth (cudaMemcpyDeviceToDevice of the same bytes)
// measured in the same run as the `copy` variant, so `vs.copy` is the fraction
// of copy bandwidth reached. gb_per_s counts bytes read plus written (8 per
// element). Each result is compared element by element with the CPU reversal
// (copy: with the input).
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "bench/bench.h"
#include "common/cuda_resources.h"
#include "labs/reduce/reduce.h"
#include "labs/reverse/reverse.h"

namespace cv::bench {
namespace {

using namespace reverse;

constexpr uint64_t kDataSeed = 2;
constexpr long long kDefaultN = 1ll << 24;
constexpr long long kMaxN = 1ll << 30;

std::vector<Measurement> run(const BenchOptions& opt, Backend backend) {
  const std::vector<int32_t> data = lab_data(
      opt, "reverse", kDefaultN, kMaxN, [](size_t n) { return reduce::make_data(n, kDataSeed); });
  const size_t n = data.size();
  const BlockShape block = opt.block.value_or(BlockShape{256, 1, 1});
  if (auto e = validate(block, block_limits(backend)))
    throw std::invalid_argument("--block: " + *e);

  std::vector<Variant> chosen;
  for (Variant v : all_variants()) {
    if (!selected(opt.variant, to_string(v))) continue;
    if (is_gpu(v) && backend != Backend::Cuda) {
      if (opt.variant == "all") continue;
      throw UsageError(std::string("reverse variant '") + to_string(v) +
                       "' needs the CUDA backend");
    }
    chosen.push_back(v);
  }
  const double steps = static_cast<double>(chosen.size()) + 1;
  check_cancel(opt, 0.f);  // making the data took a while at large n
  std::vector<int32_t> expected(n);
  reverse_cpu_threads(data.data(), expected.data(), n);
  check_cancel(opt, static_cast<float>(1 / steps));

  std::optional<CudaStream> stream;
  std::optional<DeviceBuffer<int32_t>> d_in, d_out;
  std::vector<int32_t> host_out(n);
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
    std::function<double()> once;
    if (is_gpu(v)) {
      if (!stream) {
        stream.emplace();
        d_in.emplace(n);
        d_out.emplace(n);
        if (n)
          CV_CUDA(cudaMemcpyAsync(d_in->get(), data.data(), n * 4, cudaMemcpyHostToDevice,
                                  stream->get()));
      }
      const cudaStream_t s = stream->get();
      if (n)
        CV_CUDA(
            cudaMemsetAsync(d_out->get(), 0xff, n * 4, s));  // no stale answer from another variant
      once = [&, v, s] {
        return time_cuda(
                   [&](cudaStream_t st) { run_gpu(v, d_in->get(), d_out->get(), n, block, st); }, 0,
                   1, s)
            .median_ms;
      };
    } else {
      std::fill(host_out.begin(), host_out.end(), -1);
      once = [&, v] {
        return time_host(
                   [&] {
                     (v == Variant::CpuSerial ? reverse_cpu : reverse_cpu_threads)(
                         data.data(), host_out.data(), n);
                   },
                   0, 1)
            .median_ms;
      };
    }
    std::vector<double> ms{once()};
    const int reps = auto_reps(opt, ms[0], 50);
    ms.clear();
    for (int r = 0; r < reps; ++r) {
      check_cancel(opt, static_cast<float>((step0 + double(r) / reps) / steps));
      ms.push_back(once());
    }
    if (is_gpu(v) && n) {
      CV_CUDA(cudaMemcpyAsync(host_out.data(), d_out->get(), n * 4, cudaMemcpyDeviceToHost,
                              stream->get()));
      stream->synchronize();
    }
    const std::vector<int32_t>& want = v == Variant::Copy ? data : expected;
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) wrong += host_out[i] != want[i];
    m.stats = summarize(ms);
    m.fields["gb_per_s"] = static_cast<double>(n) * 8 / (m.stats.median_ms * 1e-3) * 1e-9;
    m.fields["result"] =
        wrong;  // elements that differ from the CPU reversal (copy: from the input)
    m.fields["reference"] = 0;
    m.fields["correct"] = wrong == 0;
    out.push_back(std::move(m));
  }
  return out;
}

const Registrar reg({"reverse", "shared", {"naive", "shared", "copy", "cpu", "cpu_threads"}, run});

}  // namespace
}  // namespace cv::bench

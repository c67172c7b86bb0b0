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
#include "bench/kernel_action.h"
#include "common/cuda_resources.h"
#include "labs/reduce/reduce.h"
#include "labs/reverse/reverse.h"

namespace cv::bench {
namespace {

using namespace reverse;

constexpr uint64_t kDataSeed = 2;
constexpr long long kDefaultN = 1ll << 24;
constexpr long long kMaxN = 1ll << 30;

std::vector<Variant> choose_variants(const BenchOptions& opt, Backend backend) {
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
  return chosen;
}

// What every variant's run shares: the data, the CPU answer, the device buffers.
struct ReverseRun {
  const BenchOptions& opt;
  const std::vector<int32_t>& data;
  const std::vector<int32_t>& expected;
  size_t n;
  BlockShape block;
  double steps;
  std::optional<CudaStream> stream;
  std::optional<DeviceBuffer<int32_t>> d_in, d_out;
  std::vector<int32_t> host_out;
};

std::function<double()> gpu_once(ReverseRun& r, Variant v) {
  if (!r.stream) {
    r.stream.emplace();
    r.d_in.emplace(r.n);
    r.d_out.emplace(r.n);
    if (r.n)
      CV_CUDA(cudaMemcpyAsync(r.d_in->get(), r.data.data(), r.n * 4, cudaMemcpyHostToDevice,
                              r.stream->get()));
  }
  const cudaStream_t s = r.stream->get();
  if (r.n)
    CV_CUDA(
        cudaMemsetAsync(r.d_out->get(), 0xff, r.n * 4, s));  // no stale answer from another variant
  return [&r, v, s] {
    return time_cuda(
               [&](cudaStream_t st) {
                 run_gpu(v, r.d_in->get(), r.d_out->get(), r.n, r.block, st);
               },
               0, 1, s)
        .median_ms;
  };
}

// A cancel is seen within milliseconds at 2^30 (one slice is 16 MiB of int32).
constexpr size_t kSlice = size_t{1} << 22;

// The CPU reversal in slices, the cancel flag polled between them: one serial
// pass over 2^26 values takes over a second under AddressSanitizer. Slice
// [a, b) of the input is the slice [n - b, n - a) of the output.
void reverse_in_slices(void (*reverse)(const int32_t*, int32_t*, size_t), const int32_t* in,
                       int32_t* out, size_t n, const BenchOptions& opt) {
  for (size_t a = 0; a < n; a += kSlice) {
    throw_if_cancelled(opt);
    const size_t b = std::min(n, a + kSlice);
    reverse(in + a, out + (n - b), b - a);
  }
}

std::function<double()> cpu_once(ReverseRun& r, Variant v) {
  std::fill(r.host_out.begin(), r.host_out.end(), -1);
  return [&r, v] {
    const auto reverse = v == Variant::CpuSerial ? reverse_cpu : reverse_cpu_threads;
    return time_host([&] { reverse_in_slices(reverse, r.data.data(), r.host_out.data(), r.n, r.opt); },
                     0, 1)
        .median_ms;
  };
}

std::vector<double> time_variant(ReverseRun& r, Variant v, double step0) {
  const std::function<double()> once = is_gpu(v) ? gpu_once(r, v) : cpu_once(r, v);
  std::vector<double> ms{once()};
  const int reps = auto_reps(r.opt, ms[0], 50);
  ms.clear();
  for (int i = 0; i < reps; ++i) {
    check_cancel(r.opt, static_cast<float>((step0 + double(i) / reps) / r.steps));
    ms.push_back(once());
  }
  return ms;
}

// Elements that differ from the CPU reversal (copy: from the input).
size_t count_wrong(ReverseRun& r, Variant v) {
  if (is_gpu(v) && r.n) {
    CV_CUDA(cudaMemcpyAsync(r.host_out.data(), r.d_out->get(), r.n * 4, cudaMemcpyDeviceToHost,
                            r.stream->get()));
    r.stream->synchronize();
  }
  const std::vector<int32_t>& want = v == Variant::Copy ? r.data : r.expected;
  size_t wrong = 0;
  for (size_t b = 0; b < r.n; b += kSlice) {
    throw_if_cancelled(r.opt);
    for (size_t i = b, e = std::min(r.n, b + kSlice); i < e; ++i) wrong += r.host_out[i] != want[i];
  }
  return wrong;
}

Measurement measure_variant(ReverseRun& r, Variant v, double step0) {
  check_cancel(r.opt, static_cast<float>(step0 / r.steps));
  Measurement m = make_measurement(to_string(v), is_gpu(v) ? Backend::Cuda : Backend::Cpu,
                                   static_cast<long long>(r.n), r.block);
  const std::vector<double> ms = time_variant(r, v, step0);
  const size_t wrong = count_wrong(r, v);
  m.stats = summarize(ms);
  m.fields["gb_per_s"] = static_cast<double>(r.n) * 8 / (m.stats.median_ms * 1e-3) * 1e-9;
  m.fields["result"] = wrong;  // elements that differ from the CPU reversal (copy: from the input)
  m.fields["reference"] = 0;
  m.fields["correct"] = wrong == 0;
  return m;
}

std::vector<Measurement> run(const BenchOptions& opt, Backend backend) {
  const std::vector<int32_t> data = lab_data(
      opt, "reverse", kDefaultN, kMaxN,
      [&opt](size_t n) { return reduce::make_data(n, kDataSeed, cancel_flag(opt)); });
  const size_t n = data.size();
  const BlockShape block = opt.block.value_or(BlockShape{256, 1, 1});
  if (auto e = validate(block, block_limits(backend)))
    throw std::invalid_argument("--block: " + *e);

  const std::vector<Variant> chosen = choose_variants(opt, backend);
  const double steps = static_cast<double>(chosen.size()) + 1;
  check_cancel(opt, 0.f);  // making the data took a while at large n
  std::vector<int32_t> expected(n);
  reverse_in_slices(reverse_cpu_threads, data.data(), expected.data(), n, opt);
  check_cancel(opt, static_cast<float>(1 / steps));

  ReverseRun r{opt, data, expected, n, block, steps, {}, {}, {}, std::vector<int32_t>(n)};
  std::vector<Measurement> out;
  for (size_t vi = 0; vi < chosen.size(); ++vi)
    out.push_back(measure_variant(r, chosen[vi], static_cast<double>(vi + 1)));
  return out;
}

Target target() {
  Target t{"reverse", to_string(Variant::Shared), names_of(kVariants), run};
  LabInfo lab;
  lab.counts = "values";
  lab.takes_input = true;
  lab.notice =
      "Coalescing: the naive kernel's warps read 32 neighbouring elements but write them "
      "mirrored; the shared variant stages a tile in shared memory so both the global "
      "reads and writes run forwards and contiguously. The notes' profiler showed 125,056 "
      "incoherent loads for the naive kernel and none for the staged one, and 2.6x less "
      "time. 'copy' is the yardstick: the same bytes moved without reversing.";
  lab.kernel = [](const std::string& variant,
                  const BlockShape& block) -> std::optional<LabInfo::Kernel> {
    auto a = kernel_attributes(*parse_variant(variant));
    if (!a) return std::nullopt;
    return LabInfo::Kernel{std::move(*a), block};
  };
  lab.actions.push_back(your_kernel_action("reverse", kDefaultN));  // usercode/templates/reverse_template.cpp
  t.lab = lab;
  return t;
}

const Registrar reg(target());

}  // namespace
}  // namespace cv::bench

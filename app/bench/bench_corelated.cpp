// `cudaviz bench corelated`: pairs of rows sharing more than the seed's
// threshold (2) ids, on generated rows (--n rows of 64 ids from [1, 4096]) or
// --input (one row per line), every GPU variant checked against the CPU.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "bench/bench.h"
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

std::vector<Measurement> run(const BenchOptions& opt, Backend backend) {
  const Rows rows = load_rows(opt);
  const int threshold = kDefaultThreshold;
  const BlockShape block = opt.block.value_or(BlockShape{16, 16, 1});
  if (auto e = validate(block, block_limits(backend)))
    throw std::invalid_argument("--block: " + *e);

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
  const std::atomic<bool>* cancel = opt.control ? &opt.control->cancel : nullptr;
  const double steps = static_cast<double>(chosen.size()) + 1;
  const double pairs = static_cast<double>(pair_count(rows.rows()));

  const uint64_t reference = count_cpu(rows, threshold, cancel);
  check_cancel(opt, static_cast<float>(1 / steps));

  std::optional<CorelatedGpu> gpu;
  std::optional<CudaStream> stream;
  std::vector<Measurement> out;
  for (size_t vi = 0; vi < chosen.size(); ++vi) {
    const Variant v = chosen[vi];
    const double step0 = static_cast<double>(vi + 1);
    Measurement m;
    m.variant = to_string(v);
    m.backend = is_gpu(v) ? Backend::Cuda : Backend::Cpu;
    m.n = static_cast<long long>(rows.rows());
    m.block = block;
    uint64_t result = 0;
    std::function<double()> once;
    if (is_gpu(v)) {
      if (!gpu) {
        gpu.emplace(rows);
        stream.emplace();
      }
      once = [&] {
        const double ms = time_cuda([&](cudaStream_t st) { gpu->run(v, threshold, block, st); }, 0,
                                    1, stream->get())
                              .median_ms;
        result = gpu->result(stream->get());
        return ms;
      };
    } else {
      once = [&] {
        const double ms =
            time_host([&] { result = count_cpu(rows, threshold, cancel); }, 0, 1).median_ms;
        // A cancelled count is discarded here (progress is the caller's to report).
        if (opt.control && opt.control->cancel) throw Cancelled();
        return ms;
      };
    }
    const double first = once();  // warm-up; its answer is checked below
    const uint64_t first_result = result;
    const int reps = opt.reps
                         ? opt.reps
                         : static_cast<int>(std::clamp(1000.0 / std::max(first, 1e-3), 1.0, 20.0));
    std::vector<double> ms;
    bool stable = true;
    for (int r = 0; r < reps; ++r) {
      check_cancel(opt, static_cast<float>((step0 + double(r) / reps) / steps));
      ms.push_back(once());
      stable = stable && result == first_result;
    }
    m.stats = summarize(ms);
    const double s = m.stats.median_ms * 1e-3;
    m.fields["pairs_per_s"] = s > 0 ? pairs / s : 0.0;
    m.fields["threshold"] = threshold;
    if (v == Variant::Fast) m.fields["method"] = gpu->fast_uses_bitsets() ? "bitset" : "merge";
    m.fields["ids"] = rows.ids.size();
    m.fields["result"] = first_result;
    m.fields["reference"] = reference;
    // Every repetition must agree, not only the first.
    m.fields["correct"] = first_result == reference && stable;
    out.push_back(std::move(m));
  }
  check_cancel(opt, 1.f);
  return out;
}

const Registrar reg(
    {"corelated", "shared", {"cpu", "atomic", "shared", "launch1d", "launch2d", "fast"}, run});

}  // namespace
}  // namespace cv::bench

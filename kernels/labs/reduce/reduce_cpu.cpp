// CPU twins of the counting and summing labs, the variant table and the lab data.
#include <algorithm>

#include "common/parallel_for.h"
#include "labs/reduce/reduce.h"
#include "labs/reduce/reduce_math.h"

namespace cv::reduce {

const char* to_string(Op op) {
  return op == Op::Count3 ? "count3" : "reduce";
}

const char* to_string(Variant v) { return name_of(kVariants, v); }

std::optional<Variant> parse_variant(const std::string& name) {
  return parse_name(kVariants, name);
}

const std::vector<Variant>& all_variants() {
  static const std::vector<Variant> v = values_of(kVariants);
  return v;
}

bool is_gpu(Variant v) {
  return v != Variant::CpuSerial && v != Variant::CpuThreads;
}

namespace {

constexpr size_t kCancelStride = size_t{1} << 22;  // elements between polls of `cancel`
bool cancelled(const std::atomic<bool>* c) {
  return c && c->load(std::memory_order_relaxed);
}

// Elements a thread takes at a time: small enough that two threads share even
// a few million elements, large enough that claiming one is noise.
constexpr size_t kWorkChunk = size_t{1} << 18;

// Accumulates in the shared map's own Acc type (a count in 32 bits, which
// doubles the lanes a vector adds; ranges are at most kCancelStride long).
template <class M>
CV_ALWAYS_INLINE int64_t map_sum(const int32_t* a, size_t b, size_t e) {
  typename M::Acc total = 0;
  for (size_t i = b; i < e; ++i) total += M::map(a[i]);
  return static_cast<int64_t>(total);
}

CV_TARGET_BASELINE int64_t range_baseline(Op op, const int32_t* a, size_t b, size_t e) {
  return op == Op::Sum ? map_sum<Sum>(a, b, e) : map_sum<Count3>(a, b, e);
}
CV_TARGET_AVX2 int64_t range_avx2(Op op, const int32_t* a, size_t b, size_t e) {
  return op == Op::Sum ? map_sum<Sum>(a, b, e) : map_sum<Count3>(a, b, e);
}

int64_t range(Op op, SimdPath path, const int32_t* a, size_t b, size_t e) {
  return (path == SimdPath::Avx2 ? range_avx2 : range_baseline)(op, a, b, e);
}

template <class M>
CV_ALWAYS_INLINE int64_t generated_sum(uint64_t key, size_t b, size_t e) {
  typename M::Acc total = 0;
  for (size_t i = b; i < e; ++i) total += M::map(data_value(key, i));
  return static_cast<int64_t>(total);
}

CV_TARGET_BASELINE int64_t generated_baseline(Op op, uint64_t key, size_t b, size_t e) {
  return op == Op::Sum ? generated_sum<Sum>(key, b, e) : generated_sum<Count3>(key, b, e);
}
CV_TARGET_AVX2 int64_t generated_avx2(Op op, uint64_t key, size_t b, size_t e) {
  return op == Op::Sum ? generated_sum<Sum>(key, b, e) : generated_sum<Count3>(key, b, e);
}

}  // namespace

int64_t cpu_serial(Op op, const int32_t* a, size_t n, const std::atomic<bool>* cancel,
                   SimdPath path) {
  require_simd(path, "reduce");
  int64_t total = 0;
  for (size_t b = 0; b < n && !cancelled(cancel); b += kCancelStride)
    total += range(op, path, a, b, std::min(n, b + kCancelStride));
  return total;
}

int64_t cpu_threads(Op op, const int32_t* a, size_t n, const std::atomic<bool>* cancel,
                    SimdPath path) {
  require_simd(path, "reduce");
  const size_t chunks = (n + kWorkChunk - 1) / kWorkChunk;
  std::atomic<int64_t> total{0};
  parallel_for(chunks, [&](size_t b, size_t e) {
    int64_t part = 0;
    for (size_t c = b; c < e && !cancelled(cancel); ++c)
      part += range(op, path, a, c * kWorkChunk, std::min(n, (c + 1) * kWorkChunk));
    total.fetch_add(part, std::memory_order_relaxed);
  });
  return total.load();
}

int64_t cpu_threads_generated(Op op, size_t n, uint64_t seed) {
  const uint64_t key = data_key(seed);
  const auto range = simd_supported(SimdPath::Avx2) ? generated_avx2 : generated_baseline;
  std::atomic<int64_t> total{0};
  parallel_for((n + kWorkChunk - 1) / kWorkChunk, [&](size_t b, size_t e) {
    int64_t part = 0;
    for (size_t c = b; c < e; ++c) part += range(op, key, c * kWorkChunk, std::min(n, (c + 1) * kWorkChunk));
    total.fetch_add(part, std::memory_order_relaxed);
  });
  return total.load();
}

std::vector<int32_t> make_data(size_t n, uint64_t seed, const std::atomic<bool>* cancel) {
  std::vector<int32_t> v(n);
  const uint64_t key = data_key(seed);
  // Polled every kWorkChunk values: at 2^30 values generation takes seconds,
  // and a cancelled lab must stop within a second even on a busy machine.
  parallel_for(n, [&](size_t b, size_t e) {
    for (size_t c = b; c < e && !cancelled(cancel); c += kWorkChunk)
      for (size_t i = c, end = std::min(e, c + kWorkChunk); i < end; ++i)
        v[i] = data_value(key, i);
  });
  return v;
}

}  // namespace cv::reduce

// CPU twins of the pi lab and the variant table.
#include <algorithm>

#include "common/parallel_for.h"
#include "labs/pi/pi.h"
#include "labs/pi/pi_math.h"

namespace cv::pi {

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

BlockShape effective_block(Variant v, const BlockShape& requested) {
  if (v == Variant::OnePerBlock) return {1, 1, 1};
  if (v == Variant::Warp32) return {32, 1, 1};
  return requested;
}

namespace {
constexpr uint64_t kCancelStride = uint64_t{1} << 24;  // samples between polls of `cancel`
bool cancelled(const std::atomic<bool>* c) {
  return c && c->load(std::memory_order_relaxed);
}
}  // namespace

uint64_t cpu_serial(uint64_t n, uint64_t seed, const std::atomic<bool>* cancel) {
  uint64_t hits = 0;
  for (uint64_t b = 0; b < n && !cancelled(cancel); b += kCancelStride)
    hits += count_range(seed, b, std::min(n, b + kCancelStride));
  return hits;
}

uint64_t cpu_threads(uint64_t n, uint64_t seed, const std::atomic<bool>* cancel) {
  constexpr uint64_t kChunk = uint64_t{1} << 20;  // samples per work item
  const uint64_t chunks = (n + kChunk - 1) / kChunk;
  std::atomic<uint64_t> total{0};
  parallel_for(static_cast<size_t>(chunks), [&](size_t b, size_t e) {
    uint64_t hits = 0;
    for (size_t c = b; c < e && !cancelled(cancel); ++c)
      hits += count_range(seed, c * kChunk, std::min<uint64_t>(n, (c + 1) * kChunk));
    total.fetch_add(hits, std::memory_order_relaxed);
  });
  return total.load();
}

}  // namespace cv::pi

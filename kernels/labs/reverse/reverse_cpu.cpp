// CPU twins of the vector reversal and the variant table.
#include "common/parallel_for.h"
#include "labs/reverse/reverse.h"

namespace cv::reverse {

const char* to_string(Variant v) { return name_of(kVariants, v); }

std::optional<Variant> parse_variant(const std::string& name) {
  return parse_name(kVariants, name);
}

const std::vector<Variant>& all_variants() {
  static const std::vector<Variant> v = values_of(kVariants);
  return v;
}

bool is_gpu(Variant v) {
  return v == Variant::Naive || v == Variant::Shared || v == Variant::Copy;
}

void reverse_cpu(const int32_t* in, int32_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = in[n - 1 - i];
}

void reverse_cpu_threads(const int32_t* in, int32_t* out, size_t n) {
  parallel_for(n, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) out[i] = in[n - 1 - i];
  });
}

}  // namespace cv::reverse

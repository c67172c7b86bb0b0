// The 64-bit sum of the lab's data (document 001's reduction).
#include "labs/reduce/reduce.h"
#include "usercode/templates/check_parts.h"
#include "usercode/templates/template_registry.h"
#include "usercode/templates/lab_parts.h"

namespace cv::usercode {
namespace {

TemplateSpec spec() {
  using namespace lab_template;
  TemplateSpec t;
  t.name = "reduce";
  t.description = "Sum the lab's data into a 64-bit total, checked exactly against the CPU's sum.";
  t.file = "reduce.cu";
  t.order = 105;
  t.feeds_name = "reduce";
  t.entry = "reduce";
  t.notes =
      "// The app zeroes sum[0], launches a 1D grid of ceil(n / threads) blocks of\n"
      "// your block shape and reads sum[0]: the sum of every data[i], exact in 64 bits.";
  t.helpers =
      "// atomicAdd has no signed 64-bit form: add the two's-complement bits (the same sum).\n"
      "__device__ __forceinline__ void atomic_add(long long* total, long long v) {\n"
      "  atomicAdd(reinterpret_cast<unsigned long long*>(total), static_cast<unsigned long long>(v));\n"
      "}";
  const SpanSpec data = lab_data();
  t.args = {span_arg("data", data), span_arg("sum", result64("long long"))};
  t.shape = [](const Workload& w) { return one_dimensional(w); };
  t.reference_text = "the CPU's exact 64-bit sum over the same data (reduce::cpu_threads)";
  t.prepare = exact64("sum", [data](const Workload& w) { return lab_total(reduce::Op::Sum, data, w, "data"); });
  // Sizes that are multiples of no block; values whose sums leave 32 bits
  // after two of them (an int or unsigned total, a float, a zero-extended add).
  t.cases = {default_case(),
             size_case(1),
             size_case(31, "less than a warp"),
             size_case(997, "prime"),
             size_case(65537, "prime, one past 65,536"),
             data_case("values near INT_MAX (the sum passes 2^42)", 4099, "data", "near_int_max"),
             data_case("values near INT_MIN (the sum passes -2^42)", 4099, "data", "near_int_min")};
  t.max_n = 1ll << 30;
  t.rate_name = "gb_per_s";
  t.rate = [](long long n) { return 4e-9 * static_cast<double>(n); };
  t.vs_variants = {"atomic", "multipass", "shared_tree", "warp_shuffle", "cub", "fast"};
  t.cpu_twin = "cpu_threads";
  t.examples = {{"reduce_atomic", "Example: one atomicAdd per value, every thread on one address.",
                 "reduce_atomic.cu"}};
  return t;
}

const TemplateRegistrar reg(spec());

}  // namespace
}  // namespace cv::usercode

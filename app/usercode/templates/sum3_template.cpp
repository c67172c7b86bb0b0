// 3SUM (document 000): count the triples i < j < k with v[i] + v[j] + v[k] == 0.
#include "labs/sum3/sum3.h"
#include "usercode/templates/check_parts.h"
#include "usercode/templates/template_registry.h"
#include "usercode/templates/lab_parts.h"

namespace cv::usercode {
namespace {

// long: the template read as one table (its text, arguments, check and the verdict's cases).
TemplateSpec spec() {
  using namespace lab_template;
  TemplateSpec t;
  t.name = "sum3";
  t.description = "3SUM on a 2D grid over pairs (i, j): count the zero-sum triples, checked exactly.";
  t.file = "sum3.cu";
  t.order = 130;
  t.feeds_name = "sum3";
  t.entry = "sum3";
  t.notes =
      "// The app zeroes count[0], launches a 2D grid of ceil(n / block.x) x ceil(n / block.y)\n"
      "// blocks of your block shape (x -> i, y -> j) with threads * 8 bytes of dynamic\n"
      "// shared memory (extern __shared__), and reads count[0].";
  const SpanSpec v = lab_data("sum3_data");
  t.args = {span_arg("v", v), span_arg("count", result64("unsigned long long"))};
  t.shape = [](const Workload& w) {
    LaunchShape s;
    set_block(s, w);
    const unsigned long long n = static_cast<unsigned long long>(std::max(1ll, w.n));
    s.grid[0] = static_cast<unsigned>((n + s.block[0] - 1) / s.block[0]);
    s.grid[1] = static_cast<unsigned>((n + s.block[1] - 1) / s.block[1]);
    return s;
  };
  t.shared_bytes_per_thread = 8;
  t.reference_text = "the CPU's exact count over the same data (sort and two pointers)";
  t.prepare = exact64("count", [v](const Workload& w) {
    const std::vector<int32_t> d = check::generated_ints(v, w, "v");
    return static_cast<long long>(sum3::count_cpu_sorted(d.data(), d.size()));
  });
  // Too few values for a triple; a grid ragged in x and y; values whose sums
  // wrap in 32 bits (INT_MAX + INT_MAX + 2 is 0 only modulo 2^32).
  t.cases = {default_case(),
             size_case(1),
             size_case(2),
             size_case(3),
             size_case(37, "a grid ragged in x and y"),
             data_case("INT_MIN and INT_MAX among the values", 61, "v", "sum3_extremes")};
  t.default_n = 2000;
  // n^3 / 6 triple tests: at 2000 one emulated launch of the shared-memory
  // example takes about a second on one core, half the default time limit.
  t.emulated_default_n = 1000;
  t.max_n = 1 << 16;  // grid.y (65535 blocks) and O(n^3) work
  t.default_block = {16, 16, 1};
  t.default_seed = sum3::kDefaultSeed;
  t.rate_name = "triples_per_s";
  t.rate = [](long long n) {
    const double d = static_cast<double>(n);
    return d * (d - 1) * (d - 2) / 6;
  };
  t.vs_variants = {"naive", "hoisted", "shared", "fast", "sorted"};
  t.cpu_twin = "cpu";
  t.examples = {
      {"sum3_naive", "Example: document 000's first kernel: a thread per pair, atomicAdd per triple.",
       "sum3_naive.cu"},
      {"sum3_hoisted", "Example: document 000's second: v[i] and v[j] hoisted into registers.",
       "sum3_hoisted.cu"},
      {"sum3_shared", "Example: document 000's final kernel: counts in shared memory, one atomic a block.",
       "sum3_shared.cu"},
  };
  return t;
}

const TemplateRegistrar reg(spec());

}  // namespace
}  // namespace cv::usercode

// Count the multiples of 3 in the lab's data (document 001).
#include "labs/reduce/reduce.h"
#include "usercode/templates/check_parts.h"
#include "usercode/templates/template_registry.h"
#include "usercode/templates/lab_parts.h"

namespace cv::usercode {
namespace {

TemplateSpec spec() {
  using namespace lab_template;
  TemplateSpec t;
  t.name = "count3";
  t.description = "Count the multiples of 3 in the lab's data, checked against the CPU's answer.";
  t.file = "count3.cu";
  t.order = 100;
  t.feeds_name = "count3";
  t.entry = "count3";
  t.notes =
      "// The app zeroes count[0], launches a 1D grid of ceil(n / threads) blocks of\n"
      "// your block shape and reads count[0].";
  const SpanSpec data = lab_data();
  t.args = {span_arg("data", data), span_arg("count", result64("unsigned long long"))};
  t.shape = [](const Workload& w) { return one_dimensional(w); };
  t.reference_text = "the CPU's count over the same data (reduce::cpu_threads)";
  t.prepare = exact64("count", [data](const Workload& w) { return lab_total(reduce::Op::Count3, data, w, "data"); });
  // The first and last values multiples of 3, so skipping either shows.
  const std::string ends = "ends_multiple_of_3";
  t.cases = {default_case(),
             size_case(1, "", "data", ends),
             size_case(31, "less than a warp", "data", ends),
             size_case(997, "prime", "data", ends),
             size_case(65537, "prime, one past 65,536", "data", ends),
             data_case("values near INT_MIN", 4099, "data", "near_int_min")};
  t.max_n = 1ll << 30;
  t.rate_name = "gb_per_s";
  t.rate = [](long long n) { return 4e-9 * static_cast<double>(n); };
  t.vs_variants = {"racy", "atomic", "multipass", "shared_tree", "warp_shuffle", "cub", "fast"};
  t.cpu_twin = "cpu_threads";
  t.examples = {
      {"count3_racy", "Example: document 001's racy count (count[0]++ without an atomic): wrong on purpose.",
       "count3_racy.cu"},
      {"count3_atomic", "Example: document 001's atomic count, one atomicAdd per hit.", "count3_atomic.cu"},
      {"count3_shared", "Example: document 001's shared-memory count, one global atomic per block.",
       "count3_shared.cu"},
  };
  return t;
}

const TemplateRegistrar reg(spec());

}  // namespace
}  // namespace cv::usercode

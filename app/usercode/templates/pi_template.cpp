// Monte-Carlo pi (documents 000 and 003): hits inside the quarter circle, exact.
#include "usercode/templates/pi_reference.h"
#include "usercode/templates/template_registry.h"
#include "usercode/templates/lab_parts.h"

namespace cv::usercode {
namespace {

// A case of n samples whose seed puts samples n - 1 and n inside the circle,
// so a count that stops one short or runs one past (k <= n) is off by one.
VerdictCase samples_case(long long n, const std::string& words) {
  VerdictCase c = lab_template::size_case(n, words);
  if (n == 0) c = lab_template::default_case();
  c.setup = [](Workload& w) {
    const uint64_t last = static_cast<uint64_t>(w.n);
    while (!pi_sample_inside(w.seed, last - 1) || !pi_sample_inside(w.seed, last)) ++w.seed;
  };
  return c;
}

TemplateSpec spec() {
  using namespace lab_template;
  TemplateSpec t;
  t.name = "pi";
  t.description = "Monte-Carlo pi: count samples inside the quarter circle, checked exactly.";
  t.file = "pi.cu";
  t.order = 110;
  t.feeds_name = "pi";
  t.entry = "pi_samples";
  t.notes =
      "// The app zeroes hits[0], launches a 1D grid of ceil(n / (64 * threads)) blocks\n"
      "// of your block shape and reads hits[0].";
  auto u64 = [](const std::string&) {
    return ScalarSpec{"unsigned long long", nullptr};
  };
  ScalarSpec n = u64("n"), seed = u64("seed");
  n.value = [](const Workload& w) { return bytes_of(static_cast<unsigned long long>(w.n)); };
  seed.value = [](const Workload& w) { return bytes_of(static_cast<unsigned long long>(w.seed)); };
  t.args = {scalar_arg("n", n), scalar_arg("seed", seed), span_arg("hits", result64("unsigned long long"))};
  t.shape = [](const Workload& w) { return one_dimensional(w, 64); };
  t.reference_text = "the exact count of cv::sample_inside over the same samples (CPU)";
  auto exact = exact64("hits", [](const Workload& w) {
    return static_cast<long long>(pi_reference_hits(static_cast<uint64_t>(w.n), w.seed));
  });
  t.prepare = [exact](const Workload& w, Backend b) -> Check {
    return [counted = exact(w, b)](const Workload& w, const ReadBack& rb, Backend b) {
      CheckResult r = counted(w, rb, b);
      r.fields["pi_estimate"] = 4.0 * static_cast<double>(first_value(rb, "hits")) / static_cast<double>(w.n);
      return r;
    };
  };
  t.cases = {samples_case(0, ""),          samples_case(1, ""),
             samples_case(63, "one short of a thread's 64"), samples_case(64, "a thread's 64"),
             samples_case(65, "a thread's 64 and one"), samples_case(1009, "prime")};
  t.max_n = 1ll << 40;
  t.rate_name = "samples_per_s";
  t.rate = [](long long n) { return static_cast<double>(n); };
  t.vs_variants = {"many", "fast"};
  t.cpu_twin = "cpu_threads";
  return t;
}

const TemplateRegistrar reg(spec());

}  // namespace
}  // namespace cv::usercode

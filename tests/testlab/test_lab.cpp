// A test-only lab, registered through the same registries as the shipped labs
// (bench::Registrar, labs::ViewsRegistrar): the sum 0 + 1 + ... + n-1 on the
// CPU, one variant right and one off by one on purpose, an action, a notice,
// a wrong-answer note and a picture. Linked into cudaviz_testlab (the app's
// objects and main) and testlab_tests, so every consumer of the registry (the
// CLI, the labs window, presets, lessons, bench, sweep) is tried with a lab the
// app's code has never heard of: one that lists labs by hand fails a test.
#include <imgui.h>

#include "bench/bench.h"
#include "common/name_table.h"
#include "labs/lab_views.h"
#include "testlab/test_lab.h"

namespace cv::testlab {
namespace {

enum class Variant { Right, Wrong };
inline constexpr Named<Variant> kVariants[] = {
    {Variant::Right, "right"},
    {Variant::Wrong, "wrong", "off by one"},
};

std::vector<bench::Measurement> run(const BenchOptions& opt, Backend backend) {
  if (opt.input) throw UsageError(std::string("--input: ") + kName + " takes no data set");
  const long long n = opt.n.value_or(kDefaultN);
  const BlockShape block = opt.block.value_or(BlockShape{64, 1, 1});
  const long long reference = n * (n - 1) / 2;
  std::vector<bench::Measurement> out;
  const std::vector<Variant> variants = values_of(kVariants);
  for (size_t k = 0; k < variants.size(); ++k) {
    const Variant v = variants[k];
    if (!bench::selected(opt.variant, name_of(kVariants, v))) continue;
    bench::check_cancel(opt, static_cast<float>(k) / static_cast<float>(variants.size()));
    // Runs on the CPU whatever the backend: the row says so.
    bench::Measurement m = bench::make_measurement(name_of(kVariants, v), Backend::Cpu, n, block);
    (void)backend;
    volatile long long sink = 0;  // keeps the loop from folding into a closed form
    long long sum = 0;
    m.stats = bench::time_host(
        [&] {
          sum = 0;
          for (long long i = 0; i < n; ++i) sum += i;
          if (v == Variant::Wrong) sum += 1;
          sink = sum;
        },
        1, opt.reps ? opt.reps : 3);
    (void)sink;
    m.fields["elements_per_s"] = static_cast<double>(n) / (m.stats.median_ms * 1e-3 + 1e-12);
    m.fields["result"] = sum;
    m.fields["reference"] = reference;
    m.fields["correct"] = sum == reference;
    out.push_back(std::move(m));
  }
  return out;
}

// n and 2n with the right variant.
std::vector<BenchOptions> twice_jobs(const BenchOptions& fields, Backend) {
  std::vector<BenchOptions> jobs;
  for (long long k : {1, 2}) {
    BenchOptions o = fields;
    o.variant = name_of(kVariants, Variant::Right);
    o.n = k * fields.n.value_or(kDefaultN);
    jobs.push_back(o);
  }
  return jobs;
}

bench::Target target() {
  bench::Target t{kName, name_of(kVariants, Variant::Right), names_of(kVariants), run, kMaxN};
  bench::LabInfo lab;
  lab.counts = kCounts;
  lab.notice = kNotice;
  lab.wrong_note = [](const std::string& variant) {
    return variant == name_of(kVariants, Variant::Wrong) ? std::string(kWrongNote) : "";
  };
  lab.actions.push_back({kAction, "runs n and 2n", twice_jobs});
  t.lab = lab;
  return t;
}

const bench::Registrar reg(target());

const labs::ViewsRegistrar views(
    kName,
    labs::Views{kPictureTitle,
                [](const labs::PictureFields& f) {
                  ImGui::Text("%s: n = %lld", kName, f.n.value_or(kDefaultN));
                },
                [](const std::string& action, const std::vector<nlohmann::ordered_json>& rows) {
                  ImGui::Text("%s: %zu rows", action.c_str(), rows.size());
                }});

}  // namespace
}  // namespace cv::testlab

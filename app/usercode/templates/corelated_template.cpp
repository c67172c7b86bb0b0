// Co-related ids (document 002): pairs of rows sharing more than `threshold` ids.
#include <cstring>

#include "labs/corelated/corelated.h"
#include "usercode/templates/check_parts.h"
#include "usercode/templates/template_registry.h"
#include "usercode/wire/data_generators.h"
#include "usercode/templates/lab_parts.h"

namespace cv::usercode {
namespace {

int threshold_of(const Workload& w) {
  int t = corelated::kDefaultThreshold;
  auto it = w.scalars.find("threshold");
  if (it != w.scalars.end() && it->second.size() == sizeof t) std::memcpy(&t, it->second.data(), sizeof t);
  return t;
}

// `rows` rows of ragged lengths (edge_data.h), pairs counted above `threshold`.
VerdictCase ragged_case(const std::string& name, long long rows, int threshold) {
  VerdictCase c;
  c.name = name;
  c.n = rows;
  c.setup = [threshold](Workload& w) {
    w.generators["ids"] = "corelated_ragged_ids";
    w.generators["offsets"] = "corelated_ragged_offsets";
    w.scalars["threshold"] = bytes_of(threshold);
  };
  return c;
}

TemplateSpec spec() {
  using namespace lab_template;
  TemplateSpec t;
  t.name = "corelated";
  t.description = "Co-related ids: count the pairs of rows sharing more than `threshold` ids, exactly.";
  t.file = "corelated.cu";
  t.order = 140;
  t.feeds_name = t.entry = "corelated";
  t.notes =
      "// Row r holds ids[offsets[r] .. offsets[r + 1]) (sorted, distinct). The app zeroes\n"
      "// count[0], launches a grid of n x n blocks of your block shape (block (x, y): rows\n"
      "// r = x, s = y) with threads * 4 bytes of dynamic shared memory, and reads count[0].";
  SpanSpec ids = lab_data("corelated_ids");
  ids.size_text = "n * 64 (rows of 64 ids)";
  ids.size = [](const Workload& w) { return static_cast<unsigned long long>(w.n) * kCorelatedIdsPerRow; };
  SpanSpec offsets = lab_data("corelated_offsets");
  offsets.elem_type = "const unsigned";
  offsets.size_text = "n + 1";
  offsets.size = [](const Workload& w) { return static_cast<unsigned long long>(w.n) + 1; };
  ScalarSpec threshold{"int", [](const Workload&) { return bytes_of(int{corelated::kDefaultThreshold}); }};
  t.args = {span_arg("ids", ids), span_arg("offsets", offsets), scalar_arg("threshold", threshold),
            span_arg("count", result64("unsigned long long"))};
  t.shape = [](const Workload& w) {
    LaunchShape s;
    set_block(s, w);
    s.grid[0] = s.grid[1] = static_cast<unsigned>(std::max(1ll, w.n));
    return s;
  };
  t.shared_bytes_per_thread = 4;
  t.reference_text = "the CPU's count over the same rows (each id's rows, pairs that share ids)";
  t.prepare = exact64("count", [ids, offsets](const Workload& w) {
    corelated::Rows rows;
    if (generator_of(w, "ids", ids) == "corelated_ids" && generator_of(w, "offsets", offsets) == "corelated_offsets")
      return static_cast<long long>(corelated::count_by_ids(  // the generator's rows, made once for both spans
          corelated::generate_rows(static_cast<size_t>(w.n), kCorelatedIdsPerRow, 4096, static_cast<uint32_t>(w.seed)),
          threshold_of(w)));
    rows.ids = check::generated_ints(ids, w, "ids");
    const std::vector<char> o = check::generated(offsets, w, "offsets");
    rows.offsets.resize(o.size() / sizeof(uint32_t));
    if (!o.empty()) std::memcpy(rows.offsets.data(), o.data(), o.size());
    return static_cast<long long>(corelated::count_by_ids(rows, threshold_of(w)));
  });
  t.cases = {lab_template::default_case(),
             size_case(1, "one row: no pair"),
             size_case(2),
             size_case(13, "prime"),
             ragged_case("empty and single-id rows, threshold 0", 40, 0),
             ragged_case("rows of 0 to 64 ids, threshold 2", 40, corelated::kDefaultThreshold)};
  t.default_n = 2000;
  t.emulated_default_n = 256;  // n x n blocks of 64 threads: the emulator's default keeps a launch under a second
  t.max_n = 65535;  // grid.y
  t.default_block = {64, 1, 1};
  t.default_seed = corelated::kDefaultSeed;
  t.rate_name = "pairs_per_s";
  t.rate = [](long long n) { return static_cast<double>(n) * static_cast<double>(n - 1) / 2; };
  t.vs_variants = {"atomic", "shared", "launch1d", "launch2d", "fast"};
  t.cpu_twin = "cpu";
  return t;
}

const TemplateRegistrar reg(spec());

}  // namespace
}  // namespace cv::usercode

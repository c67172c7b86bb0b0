// A template that exists only in the tests (docs/architecture.md "Add a
// template"): its kernel file beside this one and the registration below; no
// file of the app names it. It feeds the reduce lab's data.
#include <algorithm>
#include <cstring>

#include "labs/reduce/reduce.h"
#include "usercode/templates/template_registry.h"

namespace cv::usercode {
namespace {

TemplateSpec doubled_spec() {
  TemplateSpec t;
  t.name = "doubled";
  t.description = "Test only: twice the sum of the lab's data.";
  t.file = DOUBLED_KERNEL_FILE;  // its full path (tests/template/doubled.cu)
  t.order = 1000;
  t.feeds_name = "reduce";
  t.entry = "doubled";
  t.notes = "// The app zeroes total[0], launches ceil(n / threads) blocks and reads total[0].";
  SpanSpec data;
  data.elem_type = "const int";
  data.elem_bytes = 4;
  data.size_text = "n";
  data.size = [](const Workload& w) { return static_cast<unsigned long long>(w.n); };
  data.source = SpanArg::From::Generate;
  data.generator = "lab_data";
  SpanSpec total;
  total.elem_type = "long long";
  total.elem_bytes = 8;
  total.access = Access::ReadWrite;
  total.size_text = "1";
  total.size = [](const Workload&) { return 1ull; };
  total.source = SpanArg::From::Zero;
  total.read_back = true;
  t.args = {span_arg("data", data), span_arg("total", total)};
  t.shape = [](const Workload& w) {
    LaunchShape s;
    s.block[0] = static_cast<unsigned>(w.block.x), s.block[1] = static_cast<unsigned>(w.block.y),
    s.block[2] = static_cast<unsigned>(w.block.z);
    const unsigned long long threads = 1ull * s.block[0] * s.block[1] * s.block[2];
    s.grid[0] = static_cast<unsigned>(std::max(1ull, (static_cast<unsigned long long>(w.n) + threads - 1) / threads));
    return s;
  };
  t.reference_text = "twice the CPU's sum";
  t.check = [](const Workload& w, const ReadBack& rb, Backend) {
    const std::vector<int32_t> d = reduce::make_data(static_cast<size_t>(w.n), w.seed);
    const long long want = 2 * reduce::cpu_threads(reduce::Op::Sum, d.data(), d.size());
    long long got = 0;
    if (auto it = rb.find("total"); it != rb.end() && it->second.size() == 8) std::memcpy(&got, it->second.data(), 8);
    CheckResult r;
    r.correct = got == want;
    r.fields["result"] = got;
    r.fields["reference"] = want;
    return r;
  };
  t.default_n = 1 << 20;
  return t;
}

}  // namespace

const TemplateRegistrar doubled_registration(doubled_spec());  // the one registration line

}  // namespace cv::usercode

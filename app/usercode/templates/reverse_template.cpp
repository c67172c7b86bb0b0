// Vector reversal (document 001): out[i] = in[n - 1 - i], checked element by element.
#include <atomic>
#include <cstring>

#include "common/parallel_for.h"
#include "labs/reduce/reduce.h"
#include "labs/reduce/reduce_math.h"
#include "usercode/templates/check_parts.h"
#include "usercode/templates/lab_parts.h"
#include "usercode/templates/template_registry.h"

namespace cv::usercode {
namespace {

// out[i] == in[n - 1 - i] for every i, in parallel; the first wrong element named.
// The read-back bytes as int32 values, read where they lie (64 MB at the lab's size: no copy).
struct Ints {
  const char* bytes = nullptr;
  size_t count = 0;
  size_t size() const { return count; }
  int32_t operator[](size_t i) const {
    int32_t v;
    std::memcpy(&v, bytes + 4 * i, sizeof v);
    return v;
  }
};

Ints ints_of(const ReadBack& rb, const std::string& name) {
  const auto it = rb.find(name);
  if (it == rb.end()) return {};
  return {it->second.data(), it->second.size() / sizeof(int32_t)};
}

template <class In>
CheckResult reversal_check(const Ints& out, size_t n, const In& in) {
  CheckResult r;
  if (out.size() != n) {
    r.mismatch = Mismatch{"out", std::to_string(n) + " values", std::to_string(out.size()), ""};
    r.fields["result"] = 0ll;
    r.fields["reference"] = static_cast<long long>(n);
    return r;
  }
  std::atomic<long long> same{0};
  std::atomic<size_t> first_bad{n};
  parallel_for(n, [&](size_t b, size_t e) {
    long long ok = 0;
    size_t bad = n;
    for (size_t i = b; i < e; ++i) {
      const bool right = out[i] == in(n - 1 - i);
      ok += right;
      if (!right && bad == n) bad = i;
    }
    same += ok;
    for (size_t seen = first_bad.load(); bad < seen && !first_bad.compare_exchange_weak(seen, bad);) {
    }
  });
  r.correct = same == static_cast<long long>(n);
  if (const size_t i = first_bad.load(); i < n)
    r.mismatch = check::exact("out[" + std::to_string(i) + "]", in(n - 1 - i), out[i]);
  r.fields["result"] = same.load();  // elements where the reversal is right
  r.fields["reference"] = static_cast<long long>(n);
  return r;
}

TemplateSpec spec() {
  using namespace lab_template;
  TemplateSpec t;
  t.name = "reverse";
  t.description = "Reverse the lab's data into out (out[i] = in[n - 1 - i]), checked element by element.";
  t.file = "reverse.cu";
  t.order = 120;
  t.feeds_name = "reverse";
  t.entry = "reverse";
  t.notes =
      "// The app launches a 1D grid of ceil(n / threads) blocks of your block shape\n"
      "// with threads * sizeof(int) bytes of dynamic shared memory (extern __shared__),\n"
      "// then compares every out[i] with in[n - 1 - i].";
  SpanSpec out;
  out.elem_type = "int";
  out.elem_bytes = 4;
  out.access = Access::Write;
  out.size_text = "n";
  out.size = [](const Workload& w) { return static_cast<unsigned long long>(w.n); };
  out.same_size_as = "in";
  out.source = SpanArg::From::Zero;
  out.read_back = true;
  const SpanSpec in = lab_data();
  t.args = {span_arg("in", in), span_arg("out", out)};
  t.shape = [](const Workload& w) { return one_dimensional(w); };
  t.shared_bytes_per_thread = sizeof(int);
  t.reference_text = "the lab's data reversed on the CPU (every element exact)";
  t.check = [in](const Workload& w, const ReadBack& rb, Backend) {
    const Ints out = ints_of(rb, "out");
    if (generator_of(w, "in", in) == kLabData) {  // each input drawn where it is compared: no array
      const uint64_t key = reduce::data_key(w.seed);
      return reversal_check(out, static_cast<size_t>(in.size(w)), [key](size_t j) { return reduce::data_value(key, j); });
    }
    const std::vector<int32_t> data = check::generated_ints(in, w, "in");
    return reversal_check(out, data.size(), [&data](size_t j) { return data[j]; });
  };
  t.cases = {default_case(), size_case(1), size_case(31, "less than a warp"), size_case(997, "prime"),
             size_case(1025, "a block of 1,024 and one")};
  t.max_n = 1ll << 26;  // the reply carries out back (256 MiB a frame)
  t.rate_name = "gb_per_s";
  t.rate = [](long long n) { return 8e-9 * static_cast<double>(n); };  // read and written
  t.vs_variants = {"naive", "shared", "copy"};
  t.cpu_twin = "cpu_threads";
  t.examples = {
      {"reverse_naive", "Example: document 001's simple reversal, one element a thread, reads mirrored.",
       "reverse_naive.cu"},
      {"reverse_shared", "Example: document 001's better version: a block reverses its tile in shared "
                         "memory, so reads and writes are both contiguous.",
       "reverse_shared.cu"},
  };
  return t;
}

const TemplateRegistrar reg(spec());

}  // namespace
}  // namespace cv::usercode

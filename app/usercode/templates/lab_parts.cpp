#include "usercode/templates/lab_parts.h"

#include <algorithm>
#include <cstring>

#include "usercode/templates/check_parts.h"

namespace cv::usercode::lab_template {

void set_block(LaunchShape& s, const Workload& w) {
  s.block[0] = static_cast<unsigned>(std::max(1, w.block.x));
  s.block[1] = static_cast<unsigned>(std::max(1, w.block.y));
  s.block[2] = static_cast<unsigned>(std::max(1, w.block.z));
}

LaunchShape one_dimensional(const Workload& w, unsigned long long per_thread) {
  LaunchShape s;
  set_block(s, w);
  const unsigned long long threads = std::max(1ull, 1ull * s.block[0] * s.block[1] * s.block[2]) * per_thread;
  const unsigned long long n = static_cast<unsigned long long>(std::max(1ll, w.n));
  s.grid[0] = static_cast<unsigned>(std::clamp<unsigned long long>((n + threads - 1) / threads, 1, 0x7fffffffull));
  return s;
}

SpanSpec lab_data(const std::string& generator) {
  SpanSpec s;
  s.elem_type = "const int";
  s.elem_bytes = 4;
  s.access = Access::Read;
  s.size_text = "n";
  s.size = [](const Workload& w) { return static_cast<unsigned long long>(w.n); };
  s.source = SpanArg::From::Generate;
  s.generator = generator;
  return s;
}

SpanSpec result64(const std::string& type, unsigned long long count) {
  SpanSpec s;
  s.elem_type = type;
  s.elem_bytes = 8;
  s.access = Access::ReadWrite;
  s.size_text = std::to_string(count) + " (zeroed before each launch)";
  s.size = [count](const Workload&) { return count; };
  s.source = SpanArg::From::Zero;
  s.read_back = true;
  return s;
}

long long first_value(const ReadBack& rb, const std::string& name) {
  auto it = rb.find(name);
  long long v = 0;
  if (it != rb.end() && it->second.size() >= sizeof v) std::memcpy(&v, it->second.data(), sizeof v);
  return v;
}

PrepareCheck exact64(const std::string& name, std::function<long long(const Workload&)> reference) {
  return [name, reference](const Workload& w, Backend) -> Check {
    const long long want = reference(w);
    return [name, want](const Workload&, const ReadBack& rb, Backend) {
      CheckResult r;
      const long long got = first_value(rb, name);
      r.correct = got == want;
      if (!r.correct) r.mismatch = check::exact(name + "[0]", want, got);
      r.fields["result"] = got;
      r.fields["reference"] = want;
      return r;
    };
  };
}

long long lab_total(reduce::Op op, const SpanSpec& s, const Workload& w, const std::string& span) {
  if (generator_of(w, span, s) == kLabData)
    return static_cast<long long>(reduce::cpu_threads_generated(op, static_cast<size_t>(s.size(w)), w.seed));
  const std::vector<int32_t> d = check::generated_ints(s, w, span);
  return static_cast<long long>(reduce::cpu_threads(op, d.data(), d.size()));
}

VerdictCase default_case() {
  VerdictCase c;
  c.name = "the demo's default";
  return c;
}

VerdictCase size_case(long long n, const std::string& words, const std::string& data, const std::string& generator) {
  VerdictCase c = data_case("n = " + std::to_string(n) + (words.empty() ? "" : " (" + words + ")"), n, data, generator);
  return c;
}

VerdictCase data_case(const std::string& name, long long n, const std::string& data, const std::string& generator) {
  VerdictCase c;
  c.name = name;
  c.n = n;
  if (!generator.empty())
    c.setup = [data, generator](Workload& w) { w.generators[data] = generator; };
  return c;
}

}  // namespace cv::usercode::lab_template

#include "bench/bench.h"

#include "common/int_file.h"

#include <sys/resource.h>
#include <sys/sysinfo.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <new>
#include <stdexcept>

#include "common/cuda_check.h"
#include "common/cuda_resources.h"
#include "common/nvtx_range.h"

namespace cv::bench {

Stats summarize(std::vector<double> ms) {
  Stats s;
  s.reps = static_cast<int>(ms.size());
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  const size_t n = ms.size();
  s.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  s.min_ms = ms.front();
  s.max_ms = ms.back();
  return s;
}

Stats time_cuda(const std::function<void(cudaStream_t)>& body, int warmup, int reps,
                cudaStream_t stream) {
  for (int i = 0; i < warmup; ++i) body(stream);
  std::vector<CudaEvent> start, stop;
  start.reserve(reps);
  stop.reserve(reps);
  for (int i = 0; i < reps; ++i) {
    start.emplace_back();
    stop.emplace_back();
  }
  for (int i = 0; i < reps; ++i) {
    start[i].record(stream);
    body(stream);
    stop[i].record(stream);
  }
  CV_CUDA(cudaStreamSynchronize(stream));
  std::vector<double> ms(reps);
  for (int i = 0; i < reps; ++i) ms[i] = elapsed_ms(start[i], stop[i]);
  return summarize(std::move(ms));
}

Stats time_host(const std::function<void()>& body, int warmup, int reps) {
  for (int i = 0; i < warmup; ++i) body();
  std::vector<double> ms(reps);
  for (int i = 0; i < reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    body();
    ms[i] =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  return summarize(std::move(ms));
}

static std::vector<Target>& registry() {
  static std::vector<Target> r;
  return r;
}

// Every run of a target (bench, sweep, the labs window) is one NVTX range named by
// the target, the variant, the block and the backend; the launches inside it are
// marked by name (cuda_check_launch).
Registrar::Registrar(Target t) {
  t.run = [name = t.name, run = std::move(t.run)](const BenchOptions& opt, Backend backend) {
    const nvtx::Range range([&] {
      return "bench " + name + " variant=" + opt.variant +
             " block=" + (opt.block ? to_string(*opt.block) : std::string("default")) +
             (opt.n ? " n=" + std::to_string(*opt.n) : std::string()) +
             (backend == Backend::Cuda ? " cuda" : " cpu");
    });
    return run(opt, backend);
  };
  registry().push_back(std::move(t));
}

const std::vector<Target>& targets() {
  return registry();
}

const Target* find_target(const std::string& name) {
  for (const Target& t : registry())
    if (t.name == name) return &t;
  return nullptr;
}

static std::string target_names() {
  std::vector<std::string> names;
  for (const Target& t : registry()) names.push_back(t.name);
  std::sort(names.begin(), names.end());
  std::string s;
  for (auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

const Target& require_target(const std::string& name) {
  const Target* t = find_target(name);
  if (!t) throw UsageError("unknown scene or lab '" + name + "' (known: " + target_names() + ")");
  return *t;
}

void check_n(const Target& t, const std::optional<long long>& n) {
  if (n && *n > t.max_n)
    throw UsageError("--n: " + std::to_string(*n) + " is above " + t.name + "'s limit of " +
                     std::to_string(t.max_n));
}

std::string canonical_variant(const Target& t, const std::string& variant) {
  for (const auto& [alias, name] : t.variant_aliases)
    if (variant == alias) return name;
  return variant;
}

void check_variant(const Target& t, const std::string& given) {
  if (given == "all") return;
  const std::string variant = canonical_variant(t, given);
  if (std::find(t.variants.begin(), t.variants.end(), variant) != t.variants.end()) return;
  std::string list;
  for (auto& v : t.variants) list += (list.empty() ? "" : ", ") + v;
  throw UsageError("--variant: '" + variant + "' is not a variant of " + t.name + " (" + list +
                   ", or all)");
}

std::vector<nlohmann::ordered_json> to_json(const std::string& target,
                                            const std::vector<Measurement>& ms) {
  std::vector<nlohmann::ordered_json> out;
  for (const Measurement& m : ms) {
    nlohmann::ordered_json j;
    j["bench"] = target;
    j["variant"] = m.variant;
    j["backend"] = to_string(m.backend);
    j["device"] = device_label(m.backend);
    j["n"] = m.n;
    j["block"] = {m.block.x, m.block.y, m.block.z};
    j["reps"] = m.stats.reps;
    j["ms_median"] = m.stats.median_ms;
    j["ms_min"] = m.stats.min_ms;
    for (auto it = m.fields.begin(); it != m.fields.end(); ++it) j[it.key()] = it.value();
    // A target may measure its peers itself (bench kernel) and give vs in its fields.
    nlohmann::ordered_json vs = m.fields.contains("vs") ? m.fields["vs"] : nlohmann::ordered_json::object();
    for (const Measurement& peer : ms)
      if (&peer != &m && m.stats.median_ms > 0)
        vs[peer.variant] = peer.stats.median_ms / m.stats.median_ms;
    j["vs"] = vs;
    out.push_back(std::move(j));
  }
  return out;
}

static Backend pick_backend(const std::string& request) {
  try {
    return resolve_backend(request);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

// An allocation that failed for the size asked for is answered like a bad
// value (exit 2): the message names --n and the memory there was.
static std::string out_of_memory(const std::optional<long long>& n, const std::string& what) {
  std::string s = n ? "--n " + std::to_string(*n) + ": " : "";
  s += "not enough memory (" + what + ")";
  auto gib = [](double b) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", b / (1ull << 30));
    return std::string(buf);
  };
  struct sysinfo si {};
  if (::sysinfo(&si) == 0)
    s += "; host memory free: " + gib(static_cast<double>(si.freeram) * si.mem_unit);
  struct rlimit rl {};
  if (::getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    s += ", address-space limit: " + gib(static_cast<double>(rl.rlim_cur));
  return s + "; try a smaller --n";
}

int run_guarded(const char* command, const std::optional<long long>& n, std::ostream& err,
                const std::function<void()>& body) {
  try {
    body();
    return 0;
  } catch (const UsageError& e) {
    err << command << ": " << e.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {  // bad block shape for this device, bad input data
    err << command << ": " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    err << command << ": " << out_of_memory(n, "host allocation failed") << "\n";
    return 2;
  } catch (const CudaError& e) {
    if (e.code() != cudaErrorMemoryAllocation) {
      err << command << ": " << e.what() << "\n";
      return 1;
    }
    cudaGetLastError();
    err << command << ": " << out_of_memory(n, e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << command << ": " << e.what() << "\n";
    return 1;
  }
}

int run_bench(const BenchOptions& opt, std::ostream& out, std::ostream& err) {
  std::optional<int> failed;
  const int code = run_guarded("cudaviz bench", opt.n, err, [&] {
    const Target& t = require_target(opt.target);
    check_variant(t, opt.variant);
    check_n(t, opt.n);
    const Backend backend = pick_backend(opt.backend);
    BenchOptions named = opt;
    named.variant = canonical_variant(t, opt.variant);
    std::vector<Measurement> ms;
    try {
      ms = t.run(named, backend);
    } catch (const TargetFailure& f) {
      out << f.line.dump() << "\n";
      out.flush();
      err << f.diagnostics << "cudaviz bench: " << f.what() << "\n";
      failed = f.exit_code;
      return;
    }
    for (auto& j : to_json(t.name, ms)) out << j.dump() << "\n";
    out.flush();
  });
  return failed.value_or(code);
}

int auto_reps(const BenchOptions& opt, double first_ms, int max_reps) {
  if (opt.reps) return opt.reps;
  return static_cast<int>(
      std::clamp(1000.0 / std::max(first_ms, 1e-3), 1.0, static_cast<double>(max_reps)));
}

std::vector<int32_t> lab_data(const BenchOptions& opt, const std::string& lab, long long default_n,
                              long long max_n,
                              const std::function<std::vector<int32_t>(size_t)>& generate) {
  if (!opt.input) {
    const long long n = opt.n.value_or(default_n);
    if (n < 0 || n > max_n)
      throw UsageError("--n: " + lab + " takes 0.." + std::to_string(max_n) + " values, not " +
                       std::to_string(n));
    return generate(static_cast<size_t>(n));
  }
  std::vector<int32_t> v = read_int_file(*opt.input, static_cast<size_t>(max_n));
  if (opt.n) {  // a prefix of the file, e.g. to reproduce a document's table on one data set
    if (*opt.n < 0 || *opt.n > static_cast<long long>(v.size()))
      throw UsageError("--n " + std::to_string(*opt.n) + " exceeds the " +
                       std::to_string(v.size()) + " values of '" + *opt.input + "'");
    v.resize(static_cast<size_t>(*opt.n));
  }
  return v;
}

}  // namespace cv::bench

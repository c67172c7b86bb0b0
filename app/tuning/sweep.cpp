#include "tuning/sweep.h"

#include <algorithm>
#include <stdexcept>

#include "common/cuda_check.h"
#include "io/atomic_file.h"

namespace cv::tuning {
namespace {

bool is_cpu_variant(const std::string& v) {
  return v.rfind("cpu", 0) == 0;
}

std::vector<std::string> cpu_variants(const bench::Target& t) {
  std::vector<std::string> out;
  for (const auto& v : t.variants)
    if (is_cpu_variant(v)) out.push_back(v);
  return out;
}

// A target that lists CPU variants runs its other variants on CUDA only; a
// target without any (fountain, swarm) runs every variant on both backends.
bool needs_cuda(const bench::Target& t, const std::string& variant) {
  return !is_cpu_variant(variant) && !cpu_variants(t).empty();
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Errors that mean "this block shape cannot launch this kernel here".
bool is_launch_refusal(cudaError_t e) {
  return e == cudaErrorInvalidConfiguration || e == cudaErrorLaunchOutOfResources ||
         e == cudaErrorInvalidValue;
}

std::string csv_quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return q + "\"";
}

SweepRow refused(const SweepPlan& plan, const BlockShape& shape, const std::string& why) {
  SweepRow r;
  r.shape = shape;
  r.error = why;
  nlohmann::ordered_json& j = r.json;
  j["bench"] = plan.target->name;
  j["variant"] = plan.variant;
  j["backend"] = to_string(plan.backend);
  j["device"] = device_label(plan.backend);
  j["n"] = plan.n ? nlohmann::ordered_json(*plan.n) : nlohmann::ordered_json(nullptr);
  j["block"] = {shape.x, shape.y, shape.z};
  j["refused"] = why;
  return r;
}

}  // namespace

std::vector<BlockShape> parse_shape_list(const std::string& text, const BlockLimits& lim) {
  std::vector<BlockShape> shapes;
  if (text.find_first_not_of(" ,") == std::string::npos)
    throw UsageError("shapes: the list is empty; give e.g. " + std::string(kDefaultShapes));
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    std::string one =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    // Spaces around a shape are a typing convenience in the UI field.
    one.erase(0, one.find_first_not_of(' '));
    one.erase(one.find_last_not_of(' ') + 1);
    std::string err;
    const auto b = parse_block_shape(one, &err);
    if (!b) throw UsageError("shapes: " + err);
    if (auto e = validate(*b, lim)) throw UsageError("shapes: " + *e);
    shapes.push_back(*b);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return shapes;
}

std::string default_sweep_variant(const bench::Target& t, Backend backend) {
  if (backend == Backend::Cuda || !needs_cuda(t, t.default_variant)) return t.default_variant;
  const auto cpu = cpu_variants(t);
  for (const char* pref : {"cpu_threads", "cpu"})
    if (std::find(cpu.begin(), cpu.end(), pref) != cpu.end()) return pref;
  return cpu.front();
}

SweepPlan plan_sweep(const SweepOptions& opt) {
  SweepPlan p;
  p.target = bench::find_target(opt.target);
  if (!p.target) {
    std::vector<std::string> names;
    for (const auto& t : bench::targets()) names.push_back(t.name);
    std::sort(names.begin(), names.end());
    throw UsageError("unknown scene or lab '" + opt.target + "' (known: " + join(names) + ")");
  }
  const bench::Target& t = *p.target;
  try {
    p.backend = resolve_backend(opt.backend);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  if (opt.n && *opt.n > t.max_n)
    throw UsageError("--n: " + std::to_string(*opt.n) + " is above " + t.name + "'s limit of " +
                     std::to_string(t.max_n));
  if (opt.variant == "all") throw UsageError("sweep: name one --variant (not all)");
  if (opt.variant.empty()) {
    p.variant = default_sweep_variant(t, p.backend);
    if (p.variant != t.default_variant)
      p.note = "variant " + p.variant + ": the CPU backend's default (" + t.default_variant +
               " needs CUDA)";
  } else {
    bench::check_variant(t, opt.variant);
    p.variant = bench::canonical_variant(t, opt.variant);
  }
  if (p.backend == Backend::Cpu && needs_cuda(t, p.variant)) {
    const DeviceInfo& d = device_info();
    throw UsageError("sweep " + t.name + ": variant '" + p.variant + "' needs the CUDA backend (" +
                     (d.available ? std::string("--backend cpu was asked for")
                                  : "no CUDA device: " + d.unavailable_reason) +
                     "); on the CPU backend use --variant " + default_sweep_variant(t, p.backend) +
                     " (CPU variants: " + join(cpu_variants(t)) + ")");
  }
  p.n = opt.n;
  p.reps = opt.reps;
  p.backend_flag = opt.backend;
  return p;
}

std::vector<SweepRow> run_shape(const SweepPlan& plan, const BlockShape& shape,
                                RunControl* control) {
  if (auto e = validate(shape, block_limits(plan.backend))) return {refused(plan, shape, *e)};
  BenchOptions b;
  b.target = plan.target->name;
  b.variant = plan.variant;
  b.n = plan.n;
  b.block = shape;
  b.reps = plan.reps;
  b.backend = plan.backend_flag;
  b.control = control;
  std::vector<bench::Measurement> ms;
  try {
    ms = plan.target->run(b, plan.backend);
  } catch (const std::invalid_argument& e) {  // a kernel's rule on the shape, a limit
    if (plan.backend == Backend::Cuda) cudaGetLastError();
    return {refused(plan, shape, e.what())};
  } catch (const CudaError& e) {
    if (!is_launch_refusal(e.code())) throw;
    cudaGetLastError();  // launch errors are not sticky; clear the last-error slot
    return {refused(plan, shape, e.what())};
  }
  std::vector<SweepRow> rows;
  for (auto& j : bench::to_json(plan.target->name, ms)) {
    SweepRow r;
    r.shape = shape;
    r.ok = true;
    r.ms_median = j.value("ms_median", 0.0);
    r.ms_min = j.value("ms_min", 0.0);
    r.json = std::move(j);
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string csv_header() {
  return "bench,variant,backend,device,n,block_x,block_y,block_z,threads,reps,ms_median,ms_min,"
         "status,error\n";
}

std::string csv_line(const SweepRow& r) {
  const nlohmann::ordered_json& j = r.json;
  auto field = [&](const char* k) { return j.contains(k) ? j[k].dump() : std::string(); };
  auto text = [&](const char* k) {
    return j.contains(k) ? j[k].get<std::string>() : std::string();
  };
  std::string s = text("bench") + "," + text("variant") + "," + text("backend") + "," +
                  csv_quoted(text("device")) + "," +
                  (j.contains("n") && !j["n"].is_null() ? field("n") : "") + "," +
                  std::to_string(r.shape.x) + "," + std::to_string(r.shape.y) + "," +
                  std::to_string(r.shape.z) + "," + std::to_string(r.shape.threads()) + ",";
  if (r.ok)
    s += field("reps") + "," + field("ms_median") + "," + field("ms_min") + ",ok,";
  else
    s += ",,,refused," + csv_quoted(r.error);
  return s + "\n";
}

std::optional<std::string> write_csv(const std::string& path, const std::vector<SweepRow>& rows) {
  if (path.empty()) return std::string("CSV: no file name given");
  std::string text = csv_header();
  for (const SweepRow& r : rows) text += csv_line(r);
  try {
    write_file_atomically(path, text);  // temporary name, flush, rename: never half-written
  } catch (const std::exception& e) {
    return std::string("CSV: ") + e.what();
  }
  return std::nullopt;
}

}  // namespace cv::tuning

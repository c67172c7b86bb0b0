#include "bench/bench.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "common/cuda_check.h"
#include "common/cuda_resources.h"

namespace cv::bench {

Stats summarize(std::vector<double> ms) {
  Stats s;
  s.reps = static_cast<int>(ms.size());
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  const size_t n = ms.size();
  s.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  s.min_ms = ms.front();
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
    ms[i] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  return summarize(std::move(ms));
}

static std::vector<Target>& registry() {
  static std::vector<Target> r;
  return r;
}

Registrar::Registrar(Target t) { registry().push_back(std::move(t)); }

const std::vector<Target>& targets() { return registry(); }

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

static const Target& require_target(const std::string& name) {
  const Target* t = find_target(name);
  if (!t) throw UsageError("unknown scene or lab '" + name + "' (known: " + target_names() + ")");
  return *t;
}

void check_variant(const Target& t, const std::string& variant) {
  if (variant == "all") return;
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
    nlohmann::ordered_json vs = nlohmann::ordered_json::object();
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

int run_bench(const BenchOptions& opt, std::ostream& out, std::ostream& err) {
  try {
    const Target& t = require_target(opt.target);
    check_variant(t, opt.variant);
    const Backend backend = pick_backend(opt.backend);
    std::vector<Measurement> ms = t.run(opt, backend);
    for (auto& j : to_json(t.name, ms)) out << j.dump() << "\n";
    out.flush();
    return 0;
  } catch (const UsageError& e) {
    err << "cudaviz bench: " << e.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {  // bad block shape for this device, bad input data
    err << "cudaviz bench: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "cudaviz bench: " << e.what() << "\n";
    return 1;
  }
}

int run_sweep(const SweepOptions& opt, std::ostream& out, std::ostream& err) {
  try {
    const Target& t = require_target(opt.target);
    const std::string variant = opt.variant.empty() ? t.default_variant : opt.variant;
    if (variant == "all") throw UsageError("sweep: name one --variant (not all)");
    check_variant(t, variant);
    const Backend backend = pick_backend(opt.backend);
    // Validate every shape before running any, so a bad one costs nothing.
    for (const BlockShape& b : opt.shapes)
      if (auto e = validate(b, block_limits(backend))) throw UsageError("--shapes: " + *e);
    std::ofstream csv_file;
    if (opt.csv) {
      csv_file.open(*opt.csv + ".tmp", std::ios::trunc);
      if (!csv_file) throw UsageError("--csv: cannot write '" + *opt.csv + "'");
      csv_file << "bench,variant,backend,device,n,block_x,block_y,block_z,threads,reps,ms_median,ms_min\n";
    }
    for (size_t i = 0; i < opt.shapes.size(); ++i) {
      BenchOptions b;
      b.target = t.name;
      b.variant = variant;
      b.n = opt.n;
      b.block = opt.shapes[i];
      b.reps = opt.reps;
      b.backend = opt.backend;
      std::vector<Measurement> ms = t.run(b, backend);
      for (auto& j : to_json(t.name, ms)) {
        out << j.dump() << "\n";
        if (csv_file.is_open()) {
          csv_file << t.name << "," << j["variant"].get<std::string>() << "," << j["backend"].get<std::string>()
                   << ",\"" << j["device"].get<std::string>() << "\"," << j["n"] << "," << j["block"][0] << ","
                   << j["block"][1] << "," << j["block"][2] << "," << opt.shapes[i].threads() << ","
                   << j["reps"] << "," << j["ms_median"] << "," << j["ms_min"] << "\n";
        }
      }
      err << "sweep " << t.name << ": " << (i + 1) << "/" << opt.shapes.size() << " "
          << to_string(opt.shapes[i]) << " done\n";
    }
    if (csv_file.is_open()) {
      csv_file.close();
      if (!csv_file || std::rename((*opt.csv + ".tmp").c_str(), opt.csv->c_str()) != 0)
        throw std::runtime_error("--csv: writing '" + *opt.csv + "' failed");
    }
    return 0;
  } catch (const UsageError& e) {
    err << "cudaviz sweep: " << e.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    err << "cudaviz sweep: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "cudaviz sweep: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace cv::bench

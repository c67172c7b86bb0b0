#pragma once
// `cudaviz bench` and `cudaviz sweep`: measurement plumbing shared by every
// scene and lab. A target measures its variants and returns Measurements; the
// runner adds the common fields and the `vs` ratios, then prints JSON lines.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench/bench_options.h"
#include "cli.h"
#include "common/block_shape.h"
#include "common/device_info.h"
#include "common/kernel_attributes.h"

namespace cv::bench {

struct Stats {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int reps = 0;
};
Stats summarize(std::vector<double> ms);

// Times `body` on `stream` with a CUDA event pair around each repetition,
// after `warmup` untimed runs.
Stats time_cuda(const std::function<void(cudaStream_t)>& body, int warmup, int reps,
                cudaStream_t stream);
// Times a host function with the steady clock.
Stats time_host(const std::function<void()>& body, int warmup, int reps);

struct Measurement {
  std::string variant;
  Backend backend = Backend::Cpu;
  long long n = 0;
  BlockShape block;
  Stats stats;
  // Throughput and lab fields in the order they should print, e.g.
  // {"particles_per_s": ..., "gb_per_s": ...} or {"result": ..., "reference": ..., "correct":
  // true}.
  nlohmann::ordered_json fields = nlohmann::ordered_json::object();
};

// A measurement's identity: the variant, where it ran, its size and block
// (the timing and fields are filled in by the target).
inline Measurement make_measurement(std::string variant, Backend backend, long long n,
                                    BlockShape block) {
  Measurement m;
  m.variant = std::move(variant);
  m.backend = backend;
  m.n = n;
  m.block = block;
  return m;
}

using BenchFn = std::function<std::vector<Measurement>(const BenchOptions&, Backend)>;

// A button of the labs window beside "run" (sum3's document table); a preset's
// lab.run and LabPanel::run_action name it.
struct LabAction {
  std::string name;  // "document_table": the preset's spelling, and the button's label with _ as space
  std::string tooltip;  // what the button does
  // The jobs it runs, from the window's fields (target, variant, n, block, reps) on `backend`.
  std::function<std::vector<BenchOptions>(const BenchOptions& fields, Backend backend)> jobs;
  // Why it cannot run now, one sentence (the button is disabled and says it); nullopt
  // when it can. Unset: always runs. `fields` carry the kernel tab's text (source_text).
  std::function<std::optional<std::string>(const BenchOptions& fields, Backend backend)> unavailable;
};

// What the labs window shows of a lab beyond the generic fields and results table (ui/lab_panel).
// Written in the lab's own bench file; its pictures, if any, in labs/<lab>_views.cpp
// (labs/lab_views.h).
struct LabInfo {
  std::string counts;  // what --n counts ("samples", "values", "rows"), for the n field's tooltip
  bool takes_input = false;  // reads --input FILE (named in the input field's tooltip)
  std::string notice;        // "what to notice"
  // Why `variant`'s answer may be wrong on purpose (count3's racy), "" for none:
  // shown under the table and on its "NO" when the row is wrong.
  std::function<std::string(const std::string& variant)> wrong_note;
  std::vector<LabAction> actions;
  // The main kernel `variant` launches with `block`, for the occupancy panel
  // (tuning/kernel_catalog); nullopt for a variant without one of ours (CPU, a
  // library call). Unset: the lab's kernels are not shown there.
  struct Kernel {
    KernelAttributes attributes;
    BlockShape block;              // the shape it really runs with
    bool two_dimensional = false;  // it reads block.y
  };
  std::function<std::optional<Kernel>(const std::string& variant, const BlockShape& block)> kernel;
  const LabAction* action(const std::string& name) const {
    for (const LabAction& a : actions)
      if (a.name == name) return &a;
    return nullptr;
  }
};

struct Target {
  std::string name;
  std::string default_variant;  // used by sweep when none is named
  std::vector<std::string> variants;
  BenchFn run;
  // The largest --n the target takes (most index with 32 bits; pi counts samples in 64).
  long long max_n = (1ll << 31) - 1;
  // Listed in the sweep window (bench kernel is not: it needs --source).
  bool in_sweep = true;
  // The labs window lists the labs; a simulation has its scene, a tool (the
  // renderer, bench kernel) is measured by bench and sweep only.
  enum class Kind { Lab, Simulation, Tool };
  Kind kind = Kind::Lab;
  LabInfo lab{};  // read for a Lab only
  // Older spellings of variants and the names they stand for (`--variant seed`).
  std::vector<std::pair<std::string, std::string>> variant_aliases{};
  // Its place in the sweep window's list: the scenes lead, by rank (the
  // documents' tables are fps per block shape of the fountain); the rest
  // (kSweepByName) follow by name.
  static constexpr int kSweepByName = 1000;
  int sweep_rank = kSweepByName;
};

// `t` as a simulation or a tool, for a registrar's one line.
inline Target with_kind(Target t, Target::Kind kind) {
  t.kind = kind;
  return t;
}

// `t` as a scene's simulation, `sweep_rank`-th in the sweep window.
inline Target as_simulation(Target t, int sweep_rank) {
  t.kind = Target::Kind::Simulation;
  t.sweep_rank = sweep_rank;
  return t;
}

// Self-registration: each target's file holds one Registrar (labs/<lab>_lab.cpp,
// bench/bench_<scene or tool>.cpp).
struct Registrar {
  explicit Registrar(Target t);
};
const std::vector<Target>& targets();
const Target* find_target(const std::string& name);

// The target named `name`; throws UsageError listing the known ones.
const Target& require_target(const std::string& name);
// Throws UsageError when --n is above the target's limit.
void check_n(const Target& t, const std::optional<long long>& n);
// Throws UsageError unless `variant` is "all" or one of the target's (an older
// spelling counts: canonical_variant gives the name it stands for).
void check_variant(const Target& t, const std::string& variant);
// `variant`, or the name it is an older spelling of.
std::string canonical_variant(const Target& t, const std::string& variant);
// True when `name` is selected by `variant` ("all" selects all).
inline bool selected(const std::string& variant, const std::string& name) {
  return variant == "all" || variant == name;
}

// Thrown by check_cancel() when the caller asked to stop (worker/run_state.h).
using Cancelled = cv::Cancelled;
// Call between units of work (repetitions, variants); updates progress.
inline void check_cancel(const BenchOptions& opt, float progress) {
  if (!opt.control) return;
  opt.control->progress = progress;
  if (opt.control->cancel) throw Cancelled();
}
// The flag long CPU loops poll (nullptr: nobody can cancel), and the check
// after such a loop, which may have returned early with a partial result.
inline const std::atomic<bool>* cancel_flag(const BenchOptions& opt) {
  return opt.control ? &opt.control->cancel : nullptr;
}
inline void throw_if_cancelled(const BenchOptions& opt) {
  if (opt.control && opt.control->cancel) throw Cancelled();
}

// Repetitions: as asked with --reps, else as many as fit about a second
// (1..max_reps), judged from the first timed run.
int auto_reps(const BenchOptions& opt, double first_ms, int max_reps);

// A lab's int32 data: the first --n values of --input FILE, else generate(n)
// with n = --n or default_n. Throws UsageError naming the lab and the limit.
std::vector<int32_t> lab_data(const BenchOptions& opt, const std::string& lab, long long default_n,
                              long long max_n,
                              const std::function<std::vector<int32_t>(size_t)>& generate);

// Adds bench, backend, device, reps... and vs ratios (peer median / this median).
std::vector<nlohmann::ordered_json> to_json(const std::string& target,
                                            const std::vector<Measurement>& ms);

// Runs `body` and turns what it throws into the exit code of `command`
// ("cudaviz bench"): 2 for usage errors and memory the request cannot get
// (the message names --n and the free memory), 1 for runtime failures.
int run_guarded(const char* command, const std::optional<long long>& n, std::ostream& err,
                const std::function<void()>& body);

// A target that failed but still reports (bench kernel: a compile error, a
// fault): run_bench prints `line` on stdout, `diagnostics` on stderr, and
// exits with `exit_code` (2 compile error, 1 runtime failure).
struct TargetFailure : std::runtime_error {
  TargetFailure(const std::string& what, nlohmann::ordered_json l, std::string d, int code)
      : std::runtime_error(what), line(std::move(l)), diagnostics(std::move(d)), exit_code(code) {}
  nlohmann::ordered_json line;
  std::string diagnostics;
  int exit_code;
};

// Entry point for main() (`cudaviz sweep` is tuning::run_sweep): the exit code.
int run_bench(const BenchOptions& opt, std::ostream& out, std::ostream& err);

}  // namespace cv::bench

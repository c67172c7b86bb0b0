#pragma once
// Fault injection for tests and demos of the error paths. The app arms the
// process-wide injector once at start-up from CUDAVIZ_FAULT (app/config; kernels
// read no environment), which makes one chosen launch report a launch failure
// as if the device had returned cudaErrorLaunchFailure:
//
//   CUDAVIZ_FAULT=launch:<name>[:after=N]
//
// <name> is matched against the launch's name: "*" matches every launch, a
// pattern with * or ? is a glob, anything else a substring ("forces_tiled",
// "fountain"). The first N matching launches succeed, the next one fails, and
// later ones succeed again (one fault per process: the app must survive it and
// keep the other scenes working). CUDA launches are named in cuda_check_launch
// ("nbody forces_tiled<<<>>>"); the CPU backend's scene steps are named
// "cpu <scene> step" and checked through inject_launch_fault() at their call.
#include <optional>
#include <string>

namespace cv {

struct FaultSpec {
  std::string pattern;  // what a launch name must match
  long long after = 0;  // matching launches that succeed before the fault
};

// nullopt for an empty spec; throws std::invalid_argument naming the bad part.
std::optional<FaultSpec> parse_fault_spec(const std::string& text);

// True when `name` matches `pattern` (rules above).
bool fault_pattern_matches(const std::string& pattern, const char* name);

// Counts launches against one spec; thread-safe.
class FaultInjector {
 public:
  explicit FaultInjector(std::optional<FaultSpec> spec) : spec_(std::move(spec)) {}
  // True exactly once: for the (after+1)-th launch whose name matches.
  bool should_fail(const char* name);
  bool armed() const { return spec_.has_value(); }
  // Re-arms with a new spec and fresh counts (tests; not while launches run).
  void reset(std::optional<FaultSpec> spec) {
    spec_ = std::move(spec);
    matched_ = 0;
    fired_ = false;
  }

 private:
  std::optional<FaultSpec> spec_;
  long long matched_ = 0;
  bool fired_ = false;
};

// The process-wide injector: unarmed until the app (or a test) calls reset()
// with a spec, before launches run.
FaultInjector& fault_injector();

// Throws CudaError(name + " [injected by CUDAVIZ_FAULT]", cudaErrorLaunchFailure)
// when the injector picks this launch; a no-op otherwise.
void inject_launch_fault(const char* name);

}  // namespace cv

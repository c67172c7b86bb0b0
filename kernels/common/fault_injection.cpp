#include "fault_injection.h"

#include <fnmatch.h>

#include <mutex>
#include <stdexcept>

#include "cuda_check.h"

namespace cv {

std::optional<FaultSpec> parse_fault_spec(const std::string& text) {
  if (text.empty()) return std::nullopt;
  auto bad = [&](const std::string& why) {
    return std::invalid_argument("CUDAVIZ_FAULT='" + text + "': " + why +
                                 " (expected launch:<name or *>[:after=N])");
  };
  const std::string kind = "launch:";
  if (text.compare(0, kind.size(), kind) != 0) throw bad("only 'launch:' faults exist");
  std::string rest = text.substr(kind.size());
  FaultSpec spec;
  // The last ":after=" is the option; kernel names contain no ':'.
  if (auto colon = rest.rfind(":after="); colon != std::string::npos) {
    const std::string n = rest.substr(colon + 7);
    if (n.empty() || n.size() > 12 || n.find_first_not_of("0123456789") != std::string::npos)
      throw bad("after=" + n + " is not a whole number in [0, 999999999999]");
    spec.after = std::stoll(n);
    rest = rest.substr(0, colon);
  }
  if (rest.empty()) throw bad("no launch name (use * for every launch)");
  if (rest.find(':') != std::string::npos) throw bad("unknown option in '" + rest + "'");
  spec.pattern = rest;
  return spec;
}

bool fault_pattern_matches(const std::string& pattern, const char* name) {
  if (pattern.find_first_of("*?[") != std::string::npos)
    return fnmatch(pattern.c_str(), name, 0) == 0;
  return std::string(name).find(pattern) != std::string::npos;
}

bool FaultInjector::should_fail(const char* name) {
  if (!spec_) return false;
  static std::mutex mutex;  // launches come from the render thread and lab workers
  std::lock_guard<std::mutex> lock(mutex);
  if (fired_ || !fault_pattern_matches(spec_->pattern, name)) return false;
  if (matched_++ < spec_->after) return false;
  fired_ = true;
  return true;
}

FaultInjector& fault_injector() {
  static FaultInjector injector(std::nullopt);
  return injector;
}

void inject_launch_fault(const char* name) {
  if (fault_injector().should_fail(name))
    throw CudaError((std::string(name) + " [injected by CUDAVIZ_FAULT]").c_str(),
                    cudaErrorLaunchFailure);
}

}  // namespace cv

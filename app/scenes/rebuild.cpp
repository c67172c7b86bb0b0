#include "scenes/rebuild.h"

#include <cuda_runtime_api.h>

#include <exception>
#include <new>

namespace cv {
namespace {

// Runs f; the reason when it throws.
std::optional<std::string> attempt(const std::string& what, const std::function<void()>& f) {
  try {
    if (f) f();
    return std::nullopt;
  } catch (const std::bad_alloc&) {
    return "not enough host memory for " + what;
  } catch (const std::exception& e) {
    cudaGetLastError();  // an out-of-memory error must not stick to later calls
    return "cannot set up " + what + ": " + e.what();
  }
}

}  // namespace

std::optional<std::string> run_rebuild(const std::string& what, const RebuildSteps& s) {
  if (auto err = attempt(what, s.build)) return err;
  s.swap();
  if (s.apply) s.apply();
  auto err = attempt(what, s.start);
  if (err) {
    s.swap();
    if (s.restore) s.restore();
  }
  return err;
}

}  // namespace cv

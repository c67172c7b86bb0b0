#pragma once
// What the n-body student-kernel tests share (app/test_nbody_user_kernel.cpp on
// the CPU backend, gpu/test_nbody_user_kernel_gpu.cpp on CUDA): the shipped
// nbody_kernel.cu loaded into a runner, and the template's tolerance carried
// from accelerations to positions.
#include <vector_types.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "nbody/nbody.h"
#include "test_config.h"
#include "usercode/templates/template_registry.h"
#include "usercode/client/user_kernel.h"

namespace cv::test {

inline std::string shipped_nbody_kernel() {
  return usercode::read_template_source(*usercode::find_entry("nbody_kernel"), test_config().paths);
}

// The scene's galaxies of n bodies, as the tests start them.
inline nbody::Bodies galaxies(unsigned n) {
  return nbody::make_bodies(nbody::Initial::Galaxies, n, nbody::Params{}, 1729);
}

// `source` compiled and loaded for `backend`, feeding the n-body scene;
// nullptr (and why) when it is not ready.
inline std::unique_ptr<usercode::UserKernel> loaded_nbody_kernel(const std::string& source,
                                                                 Backend backend,
                                                                 std::string* why) {
  usercode::UserKernelOptions o;
  o.backend = backend;
  o.paths = test_config().paths;
  auto uk = std::make_unique<usercode::UserKernel>(o);
  uk->submit(source);
  for (int i = 0; i < 15000 && uk->status().state == usercode::UserKernelState::Compiling; ++i) {
    uk->poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (uk->status().state != usercode::UserKernelState::Ready) {
    *why =
        uk->status().headline + " " + uk->status().fallback +
        (uk->status().compile ? " " + uk->status().compile->error + uk->status().compile->log : "");
    return nullptr;
  }
  if (!uk->feeds("nbody")) {
    *why = "it does not feed the n-body scene";
    return nullptr;
  }
  return uk;
}

// The template's tolerance (each acceleration within 1e-3 * (|a| + rms |a|),
// usercode/templates/nbody_parts.h) carried to positions: `got` against
// `want` after `steps` steps, each body within 1e-3 * (|f| + rms |f|), where
// f = want - drift is what the forces moved it (drift took the same steps
// with zero accelerations), plus float rounding of the position updates
// (4 ulp a step). Returns the worst body's distance over its tolerance: at
// most 1 passes.
inline double worst_over_tolerance(const std::vector<float4>& got, const std::vector<float4>& want,
                                   const std::vector<float4>& drift, int steps) {
  const size_t n = want.size();
  if (got.size() != n || drift.size() != n || n == 0) return INFINITY;
  auto len = [](double x, double y, double z) { return std::sqrt(x * x + y * y + z * z); };
  auto moved = [&](size_t i) {
    return len(want[i].x - drift[i].x, want[i].y - drift[i].y, want[i].z - drift[i].z);
  };
  auto where = [&](size_t i) { return len(want[i].x, want[i].y, want[i].z); };
  double f2 = 0, x2 = 0;
  for (size_t i = 0; i < n; ++i) f2 += moved(i) * moved(i), x2 += where(i) * where(i);
  const double rms_f = std::sqrt(f2 / static_cast<double>(n)),
               rms_x = std::sqrt(x2 / static_cast<double>(n));
  double worst = 0;
  for (size_t i = 0; i < n; ++i) {
    const double tol = 1e-3 * (moved(i) + rms_f) + 4.0 * steps * FLT_EPSILON * (where(i) + rms_x);
    const double d = len(got[i].x - want[i].x, got[i].y - want[i].y, got[i].z - want[i].z);
    worst = std::max(worst, std::isfinite(d) ? d / tol : INFINITY);
  }
  return worst;
}

}  // namespace cv::test

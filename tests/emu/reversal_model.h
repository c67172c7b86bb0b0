#pragma once
// Sectors per request of a 1-D kernel's one 4-byte access, counted by the
// access model (kernels/insight/access_model.h): the known answer explain's
// recorded addresses are checked against, in emu_tests (the emulator alone)
// and app_tests (through the registry and cudaviz-explain).
#include <functional>

#include "insight/access_model.h"

namespace cv::test {

// element(b, t): the element thread t of block b touches, -1 for none.
inline double model_sectors_per_request(unsigned n, unsigned T,
                                        const std::function<long long(unsigned b, unsigned t)>& element) {
  insight::AccessKernel k;
  k.name = "reverse";
  k.block_dim = {T, 1, 1};
  k.grid = {(n + T - 1) / T, 1, 1};
  k.accesses = {{"access", false, 4, 0, 0}};
  k.element = [&](const insight::Dim3u& b, const insight::Dim3u& t) { return element(b.x, t.x); };
  double sectors = 0, reqs = 0;
  for (unsigned b = 0; b < k.grid.x; ++b)
    for (unsigned w = 0; w < (T + 31) / 32; ++w) {
      const insight::WarpAccessPicture p = insight::warp_accesses(k, b, w);
      for (const insight::WarpRequest& r : p.requests)
        if (r.active_lanes) sectors += r.sectors, reqs += 1;
    }
  return sectors / reqs;
}

}  // namespace cv::test

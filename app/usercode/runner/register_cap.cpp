#include "usercode/runner/register_cap.h"

#include <algorithm>

namespace cv::usercode::runner {

int resident_warps(int registers, const RegisterFile& f) {
  if (registers <= 0 || f.warp_size <= 0) return f.max_warps_per_sm;
  const int per_warp = (registers * f.warp_size + kRegisterUnit - 1) / kRegisterUnit * kRegisterUnit;
  return std::min(f.max_warps_per_sm, kSubPartitions * (f.registers_per_sm / kSubPartitions / per_warp));
}

int register_cap(int raw, int guarded, const RegisterFile& f) {
  if (raw <= 0 || guarded <= raw || f.registers_per_sm <= 0) return 0;
  const int want = resident_warps(raw, f);
  if (resident_warps(guarded, f) >= want) return 0;
  int cap = raw;
  for (int r = raw + 1; r < guarded && r <= f.max_registers_per_thread; ++r)
    if (resident_warps(r, f) >= want) cap = r;
  return cap;
}

}  // namespace cv::usercode::runner

#pragma once
// The guard's register cap (docs/guard.md "Registers"): a guarded kernel keeps
// the checks' values and its checked copies of loops beside the kernel's own,
// and ptxas may give it more registers a thread than the unguarded kernel
// needed (a shared-tile search: 27 -> 64 on sm_90), which halves the warps a
// multiprocessor holds. The runner then compiles it again with the most
// registers that keep the unguarded kernel's resident warps; the spills that
// costs land mostly in the checked copies, which rarely run. Warps are counted
// by the occupancy model's register rules (common/occupancy.h: 256-register
// units a warp, 4 sub-partitions), for the running device.
#include "common/occupancy.h"

namespace cv::usercode::runner {

// Warps a multiprocessor of `dev` holds at `registers` a thread, by registers alone.
int resident_warps(int registers, const OccupancyDevice& dev);

// The cap for a guarded kernel of `guarded` registers whose unguarded form
// takes `raw`: the most registers a thread that hold as many warps as `raw`
// does (at least `raw`, below `guarded`); 0 when the guarded kernel already
// holds them (no cap would raise its occupancy) or nothing is known.
int register_cap(int raw, int guarded, const OccupancyDevice& dev);

}  // namespace cv::usercode::runner

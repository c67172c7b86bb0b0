#pragma once
// The results of one warp collective, as the GPU defines them (pure, tested):
// the lanes of `group` (a bit per lane) have each posted their operand in
// their slot; fill every member's result.
#include "usercode/emu/prelude/cudaviz_emu_abi.h"

namespace cv::emu {

// The lane a shuffle of `lane` reads (its own lane when the source is outside
// its segment, as the GPU does), for kShfl / kShflUp / kShflDown / kShflXor.
unsigned shuffle_source(int op, unsigned lane, int arg, int width);

// slots[32]: one per lane of the warp; only lanes in `group` are read or written.
void complete_collective(cv_emu::LaneSlot* slots, unsigned group);

}  // namespace cv::emu

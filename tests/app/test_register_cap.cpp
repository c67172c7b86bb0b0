// The guard's register cap (usercode/runner/register_cap.h): the most
// registers a thread that keep the unguarded kernel's resident warps, from the
// device's register file; none where the guarded kernel already holds them.
#include <gtest/gtest.h>

#include "usercode/runner/register_cap.h"

namespace cv::usercode::runner {
namespace {

OccupancyDevice device(int major, int minor, int threads_per_sm) {
  OccupancyDevice d;
  d.cc_major = major, d.cc_minor = minor, d.max_threads_per_sm = threads_per_sm, d.regs_per_sm = 65536;
  apply_architecture_rules(d);
  return d;
}
// sm_80 / sm_90: 64K registers and 64 warps a multiprocessor.
const OccupancyDevice kHopper = device(9, 0, 2048);
// sm_86 / sm_89: 64K registers, 48 warps.
const OccupancyDevice kAda = device(8, 9, 1536);
// A device whose register file is not known.
const OccupancyDevice kUnknown = [] {
  OccupancyDevice d = device(9, 0, 2048);
  d.regs_per_sm = 0;
  return d;
}();

// A warp's registers in units of 256, from a quarter of the file (16384 of
// them): CUDA's occupancy calculator's figures.
TEST(RegisterCap, ResidentWarpsFollowTheRegisterFileInUnitsOf256) {
  EXPECT_EQ(resident_warps(27, kHopper), 64);  // 864 a warp, given 1024: 16 a quarter
  EXPECT_EQ(resident_warps(32, kHopper), 64);
  EXPECT_EQ(resident_warps(33, kHopper), 48);  // 1056 -> 1280: 12 a quarter (not 65536 / 1280 = 51)
  EXPECT_EQ(resident_warps(40, kHopper), 48);
  EXPECT_EQ(resident_warps(41, kHopper), 40);  // 1312 -> 1536: 10 a quarter
  EXPECT_EQ(resident_warps(64, kHopper), 32);
  EXPECT_EQ(resident_warps(96, kHopper), 20);  // 3072: 5 a quarter (65536 / 3072 = 21)
  EXPECT_EQ(resident_warps(40, kAda), 48);  // the warp limit, not the registers
}

// The shared-tile search of tests/corpus/corelated: 27 registers unguarded,
// 64 guarded on sm_90 (half the warps): capped at 32, all of them back.
TEST(RegisterCap, AGuardedKernelThatLostWarpsIsCappedWhereItHoldsThemAgain) {
  EXPECT_EQ(register_cap(27, 64, kHopper), 32);
  EXPECT_EQ(register_cap(40, 64, kHopper), 40);  // 48 warps unguarded: no register above 40 keeps them
  EXPECT_EQ(register_cap(81, 90, kHopper), 0);   // 20 warps both (by the whole file: 21 against 20)
  EXPECT_EQ(register_cap(27, 48, kAda), 40);     // 48 warps hold up to 40 registers there
  EXPECT_EQ(register_cap(33, 41, kHopper), 40);
}

TEST(RegisterCap, NoCapWhereTheGuardedKernelKeepsItsWarpsOrNothingIsKnown) {
  EXPECT_EQ(register_cap(22, 32, kHopper), 0);  // 64 warps both
  EXPECT_EQ(register_cap(27, 40, kAda), 0);     // 48 both
  EXPECT_EQ(register_cap(40, 32, kHopper), 0);  // the guard took fewer
  EXPECT_EQ(register_cap(32, 32, kHopper), 0);
  EXPECT_EQ(register_cap(0, 64, kHopper), 0);   // the unguarded count unknown
  EXPECT_EQ(register_cap(27, 64, kUnknown), 0);
}

}  // namespace
}  // namespace cv::usercode::runner

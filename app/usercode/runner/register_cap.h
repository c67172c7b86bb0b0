#pragma once
// The guard's register cap (docs/guard.md "Registers"): a guarded kernel keeps
// the checks' values and its checked copies of loops beside the kernel's own,
// and ptxas may give it more registers a thread than the unguarded kernel
// needed (a shared-tile search: 27 -> 64 on sm_90), which halves the warps a
// multiprocessor holds. The runner then compiles it again with the most
// registers that keep the unguarded kernel's resident warps; the spills that
// costs land mostly in the checked copies, which rarely run.
namespace cv::usercode::runner {

// From the running device's properties.
struct RegisterFile {
  int registers_per_sm = 0;     // cudaDeviceProp::regsPerMultiprocessor
  int max_warps_per_sm = 0;     // maxThreadsPerMultiProcessor / warpSize
  int warp_size = 0;
  int max_registers_per_thread = 255;
};

// Registers are given to a warp in units of 256, from one of the
// multiprocessor's 4 sub-partitions' quarter of the file (every architecture
// since Maxwell; CUDA's occupancy calculator, cudaOccMaxBlocksPerSMRegsLimit):
// neither is a device property.
constexpr int kRegisterUnit = 256;
constexpr int kSubPartitions = 4;

// Warps a multiprocessor holds at `registers` a thread, by registers alone.
int resident_warps(int registers, const RegisterFile& f);

// The cap for a guarded kernel of `guarded` registers whose unguarded form
// takes `raw`: the most registers a thread that hold as many warps as `raw`
// does (at least `raw`, below `guarded`); 0 when the guarded kernel already
// holds them (no cap would raise its occupancy).
int register_cap(int raw, int guarded, const RegisterFile& f);

}  // namespace cv::usercode::runner

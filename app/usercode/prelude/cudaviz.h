// cudaviz prelude: what every kernel file sees before its first line.
// It is read-only: the app compiles your file after it. The same text builds
// with NVRTC (GPU) and with the host C++ compiler (CPU path of per-particle
// functions), so everything here is plain C++ plus CUDA keywords.
#pragma once

#if defined(__CUDACC__)
#define CV_HD __host__ __device__ __forceinline__
#define CV_GPU 1
#elif defined(CV_EMU)
// Whole kernels on the CPU: cudaviz_emu.h (the emulator's part) came first.
#else
#define CV_HD inline
#define CV_GPU 0
#define __global__
#define __device__
#define __host__
#define __shared__
#define __forceinline__ inline
struct float3 {
  float x, y, z;
};
struct float4 {
  float x, y, z, w;
};
inline float3 make_float3(float x, float y, float z) { return float3{x, y, z}; }
inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
#endif

namespace cv {

// ---- The fountain (document 004): the same types and math as the built-in ------
struct Params {
  float max_age;         // steps a particle lives before respawning
  float gravity;         // vertical speed lost per step
  float restitution;     // fraction of vertical speed kept by a bounce
  float table_radius;    // the table top is the disc r < table_radius at y = 0
  float spread;          // horizontal launch speed range (centred on 0)
  float launch_speed;    // base vertical launch speed
  float launch_jitter;   // extra vertical launch speed times the frame's random number
  float emitter_radius;  // the emitter circles at this radius...
  float emitter_speed;   // ...advancing this many radians per step
};
// Particles sit on a width x height grid, the last row possibly partial:
// particle i = y * width + x exists when x < width and i < count.
struct Grid {
  unsigned width, height, count;
};
// The same for every particle in one step.
struct Frame {
  float emitter_x, emitter_z;
  float randy;  // one random number in [0, 1) per step
};
// One particle between steps.
struct Particle {
  float x, y, z, age;
  float vy;
};
// Horizontal launch velocity from the particle's grid column / row.
CV_HD float launch_vx(unsigned gx, const Grid& g, const Params& p) {
  return p.spread * (static_cast<float>(gx) / static_cast<float>(g.width) - 0.5f);
}
CV_HD float launch_vz(unsigned gy, const Grid& g, const Params& p) {
  return p.spread * (static_cast<float>(gy) / static_cast<float>(g.height) - 0.5f);
}

// ---- Bounds-checked buffers --------------------------------------------------
// A pointer and its length. In checked mode (the editor's "checked" box; on
// the CPU backend also whenever the guard is on) every s[i] and s.at(i) tests
// i < size; the first bad index, its thread, block and line are recorded in
// cv_fault and the access goes to a scratch slot instead, so the kernel
// finishes and the app tells you. at() passes your line; for [] the CPU
// records the code address (the app finds its line) and the GPU's guard
// fills the line in.
struct FaultRecord {
  int hit;   // 0 until the first out-of-range access
  int line;
  long long index, size;
  unsigned thread[3], block[3];
  unsigned long long pc;  // CPU: the access's code address (a return address); GPU: 0
};

template <class T>
struct Span {
  T* data;
  unsigned long long size;
  CV_HD T& operator[](long long i) const { return access(i, 0); }
  CV_HD T& at(long long i, int line = __builtin_LINE()) const { return access(i, line); }
  CV_HD T& access(long long i, int line) const;
};

}  // namespace cv

// Defined once per kernel module; the runner reads cv_fault after each checked launch.
#if CV_GPU || defined(CV_EMU)
__device__ cv::FaultRecord cv_fault;
__device__ __align__(16) unsigned char cv_scratch[64];
#else
extern "C" {
cv::FaultRecord cv_fault;
}
[[maybe_unused]] alignas(16) static unsigned char cv_scratch[64];
#endif

namespace cv {

#if CV_GPU
// One copy a module, called from every checked access: inlined at each (an
// atomic, nine stores and the guard's checks of them) it made the window's
// bounds-checked n-body PTX 2.6x the size of the unchecked one, and the
// driver's JIT of a first edit 2-5x longer.
#define CV_OUT_OF_RANGE_FN __device__ __noinline__
#else
// A call of its own on the CPU: its return address is the access's code.
#define CV_OUT_OF_RANGE_FN inline __attribute__((noinline, cold))
#endif
CV_OUT_OF_RANGE_FN void record_out_of_range(long long i, unsigned long long size, int line) {
#if CV_GPU || defined(CV_EMU)
  if (atomicCAS(&cv_fault.hit, 0, 1) != 0) return;
#if defined(CV_EMU)
  const uint3 th = cv_emu_fault_thread();  // the fast path keeps it apart from the context
#else
  const uint3 th = threadIdx;
#endif
  cv_fault.thread[0] = th.x, cv_fault.thread[1] = th.y, cv_fault.thread[2] = th.z;
  cv_fault.block[0] = blockIdx.x, cv_fault.block[1] = blockIdx.y, cv_fault.block[2] = blockIdx.z;
#else
  int expected = 0;
  if (!__atomic_compare_exchange_n(&cv_fault.hit, &expected, 1, false, __ATOMIC_SEQ_CST,
                                   __ATOMIC_SEQ_CST))
    return;
#endif
  cv_fault.line = line;
  cv_fault.index = i;
  cv_fault.size = static_cast<long long>(size);
#if !CV_GPU
  cv_fault.pc = reinterpret_cast<unsigned long long>(__builtin_return_address(0));
#endif
}
#undef CV_OUT_OF_RANGE_FN

template <class T>
CV_HD T& Span<T>::access(long long i, int line) const {
#if defined(CV_CHECKED)
  // One unsigned compare covers i < 0 too (a size is below 2^63); written so,
  // a loop bounded by the size (`k < s.size`) drops the check: the CPU's
  // compiler then vectorises it (with `i < 0 ||` it kept a test a step).
  if (static_cast<unsigned long long>(i) >= size) {
#if CV_GPU
    // s[i] passes no line: a marker the guard replaces with the line of this
    // code, the access's (it reads the PTX's line table; guard_abi.h kLineMarker).
    if (line == 0) asm volatile("mov.b32 %0, 2080374783;" : "=r"(line));
#endif
    record_out_of_range(i, size, line);
    return *reinterpret_cast<T*>(cv_scratch);
  }
#else
  (void)line;
#endif
  return data[i];
}

// ---- Where a thread is -------------------------------------------------------
#if CV_GPU || defined(CV_EMU)
// The flat index of this thread in a 1D launch over a block of x*y*z threads.
__device__ __forceinline__ unsigned long long global_index() {
  const unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  return static_cast<unsigned long long>(blockIdx.x) * (blockDim.x * blockDim.y * blockDim.z) + t;
}
// Threads in the whole grid (for grid-stride loops).
__device__ __forceinline__ unsigned long long grid_threads() {
  return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z * blockDim.x *
         blockDim.y * blockDim.z;
}

// ---- Colour by block / warp / thread / SM: one call --------------------------
// The app passes `ids`; call record_launch_id(ids, i) for the element this
// thread computes and the launch map and colour-by views show your launch.
struct Ids {
  unsigned* ids;            // null when the view is off
  unsigned long long size;  // elements of ids
  int mode;                 // 1 block, 2 warp, 3 thread (lane), 4 SM
};
__device__ __forceinline__ void record_launch_id(const Ids& out, unsigned long long i) {
  if (!out.ids || i >= out.size) return;
  const unsigned b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  const unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned warps = (blockDim.x * blockDim.y * blockDim.z + 31) / 32;
  unsigned id = 0;
  if (out.mode == 1) id = b;
  else if (out.mode == 2) id = b * warps + t / 32;
  else if (out.mode == 3) id = t % 32;
#if CV_GPU
  else if (out.mode == 4) asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
#else
  else if (out.mode == 4) id = cv_emu_smid();  // the emulator's worker thread
#endif
  out.ids[i] = id;
}
#else
struct Ids {
  unsigned* ids;
  unsigned long long size;
  int mode;
};
#endif

// ---- Random numbers for the pi kernel ----------------------------------------
// Sample k of a run is the point (rand01(seed, 2k), rand01(seed, 2k + 1)): a
// counter-based hash, so any thread can draw any sample and the app knows the
// exact answer for every order of work.
CV_HD unsigned long long mix64(unsigned long long z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
CV_HD float rand01(unsigned long long seed, unsigned long long counter) {
  return static_cast<float>(mix64(seed ^ mix64(counter)) >> 40) * (1.0f / 16777216.0f);
}
// In integers (x = ux / 2^24, as rand01 gives it): x*x + y*y <= 1 exactly, so
// a GPU compiler that fuses it into an FMA and a host compiler that does not
// count the same samples (in float they differed on a few borderline ones).
CV_HD bool sample_inside(unsigned long long seed, unsigned long long k) {
  const unsigned long long ux = mix64(seed ^ mix64(2 * k)) >> 40, uy = mix64(seed ^ mix64(2 * k + 1)) >> 40;
  return ux * ux + uy * uy <= (1ull << 48);
}

}  // namespace cv

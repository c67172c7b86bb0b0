// cudaviz prelude, CPU part: what a whole CUDA kernel needs when the host C++
// compiler builds it for the emulator (docs/emulator.md). Read before
// cudaviz.h. threadIdx and friends are the running emulated thread's, kept
// per worker thread; __shared__ variables are thread_local (a worker runs one
// block at a time, its threads as fibers); atomics are real atomics.
#pragma once
#define CV_EMU 1
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cudaviz_emu_abi.h"

// ---- Keywords ---------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __shared__ thread_local
#if defined(CV_EMU_EXPLAIN)
#define CV_HD inline __attribute__((always_inline))
#else
#define CV_HD inline
#endif
#define CV_GPU 0

// ---- Where the running thread is --------------------------------------------
// One per worker thread; the emulator switches its contents with the fiber.
extern "C" thread_local cv_emu::Ctx cv_emu_ctx_tls;
thread_local cv_emu::Ctx cv_emu_ctx_tls;
extern "C" cv_emu::Ctx* cv_emu_ctx() { return &cv_emu_ctx_tls; }
// The fast path's running thread (its index in the block) while a checked
// build's loops run (they keep it in a local, cv_fis_here, not in the
// context), else null.
thread_local const unsigned* cv_emu_fis_thread = nullptr;
// The thread a checked access out of range is recorded for (cudaviz.h).
inline cv_emu::Dim cv_emu_fault_thread() {
  if (!cv_emu_fis_thread) return cv_emu_ctx_tls.thread_idx;
  const unsigned t = *cv_emu_fis_thread;
  const cv_emu::Dim& b = cv_emu_ctx_tls.block_dim;
  return {t % b.x, t / b.x % b.y, t / (b.x * b.y)};
}

typedef cv_emu::Dim uint3;
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  constexpr dim3(const cv_emu::Dim& d) : x(d.x), y(d.y), z(d.z) {}
};
#define threadIdx (static_cast<const uint3&>(cv_emu_ctx_tls.thread_idx))
#define blockIdx (static_cast<const uint3&>(cv_emu_ctx_tls.block_idx))
#define blockDim (static_cast<const uint3&>(cv_emu_ctx_tls.block_dim))
#define gridDim (static_cast<const uint3&>(cv_emu_ctx_tls.grid_dim))
constexpr int warpSize = 32;
inline unsigned cv_emu_smid() { return cv_emu_ctx_tls.worker; }

// ---- Vector types -------------------------------------------------------------
// Explain builds: a vector type's copy is what the GPU makes of it, one access
// of its whole width (ld.v2 / ld.v4; a float3, align 4, three 4-byte ones),
// whatever the host compiler makes of the copy (one 16-byte load, four 4-byte
// stores, a memcpy). So its copy is written out and recorded here; a member
// (`v.x`) stays an access of its own, as on the GPU. Elsewhere: plain aggregates.
#if defined(__clang__)  // clang instruments atomics even in no_sanitize functions
#define CV_EMU_NO_TSAN_ATTR __attribute__((no_sanitize_thread, disable_sanitizer_instrumentation))
#else
#define CV_EMU_NO_TSAN_ATTR __attribute__((no_sanitize_thread))
#endif
#if defined(CV_EMU_EXPLAIN)
#define CV_EMU_NO_TSAN CV_EMU_NO_TSAN_ATTR
// The caller's code address and frame: the emulator walks the frames from
// there to the student's line and the lines of the calls around it. Only in
// a function that is not inlined (its return address is in the caller).
#define CV_EMU_CALLER __builtin_return_address(0), __builtin_frame_address(1)
CV_EMU_NO_TSAN __attribute__((noinline)) inline void cv_emu_vector_copy(void* to, const void* from, unsigned bytes,
                                                                        unsigned part) {
  for (unsigned o = 0; o < bytes; o += part)
    cv_emu_ctx_tls.hooks->access(static_cast<const char*>(from) + o, part, cv_emu::kRead, CV_EMU_CALLER);
  for (unsigned o = 0; o < bytes; o += part)
    cv_emu_ctx_tls.hooks->access(static_cast<char*>(to) + o, part, cv_emu::kWrite, CV_EMU_CALLER);
  __builtin_memcpy(to, from, bytes);
}
#define CV_EMU_VEC_COPY(N, part)                                                                   \
  N() = default;                                                                                   \
  CV_EMU_NO_TSAN N(const N& o) { cv_emu_vector_copy(this, &o, sizeof(N), part); }                  \
  CV_EMU_NO_TSAN N& operator=(const N& o) {                                                        \
    cv_emu_vector_copy(this, &o, sizeof(N), part);                                                 \
    return *this;                                                                                  \
  }
#define CV_EMU_VEC2(T, N)                                                                          \
  struct alignas(2 * sizeof(T)) N##2 {                                                             \
    T x, y;                                                                                        \
    constexpr N##2(T x_, T y_ = T()) : x(x_), y(y_) {}                                             \
    CV_EMU_VEC_COPY(N##2, sizeof(N##2))                                                            \
  };                                                                                               \
  inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }
#define CV_EMU_VEC3(T, N)                                                                          \
  struct N##3 {                                                                                    \
    T x, y, z;                                                                                     \
    constexpr N##3(T x_, T y_ = T(), T z_ = T()) : x(x_), y(y_), z(z_) {}                          \
    CV_EMU_VEC_COPY(N##3, sizeof(T))                                                               \
  };                                                                                               \
  inline N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }
#define CV_EMU_VEC4(T, N, A)                                                                       \
  struct alignas(A) N##4 {                                                                         \
    T x, y, z, w;                                                                                  \
    constexpr N##4(T x_, T y_ = T(), T z_ = T(), T w_ = T()) : x(x_), y(y_), z(z_), w(w_) {}       \
    CV_EMU_VEC_COPY(N##4, A)                                                                       \
  };                                                                                               \
  inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
#else
#if defined(CV_EMU_VERDICT)  // its stores call the emulator; the prelude's own must not
#define CV_EMU_NO_TSAN CV_EMU_NO_TSAN_ATTR
#else
#define CV_EMU_NO_TSAN
#endif
#define CV_EMU_VEC2(T, N) \
  struct alignas(2 * sizeof(T)) N##2 { T x, y; }; \
  inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }
#define CV_EMU_VEC3(T, N) \
  struct N##3 { T x, y, z; }; \
  inline N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }
#define CV_EMU_VEC4(T, N, A) \
  struct alignas(A) N##4 { T x, y, z, w; }; \
  inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
#endif
CV_EMU_VEC2(float, float) CV_EMU_VEC3(float, float) CV_EMU_VEC4(float, float, 16)
CV_EMU_VEC2(int, int) CV_EMU_VEC3(int, int) CV_EMU_VEC4(int, int, 16)
CV_EMU_VEC2(unsigned, uint) CV_EMU_VEC4(unsigned, uint, 16)
CV_EMU_VEC2(double, double) CV_EMU_VEC3(double, double)
inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{x, y, z}; }
#undef CV_EMU_VEC2
#undef CV_EMU_VEC3
#undef CV_EMU_VEC4
#undef CV_EMU_VEC_COPY

// ---- Math the templates use -------------------------------------------------
using std::sqrt;
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return expf(x); }
inline float __logf(float x) { return logf(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __powf(float a, float b) { return powf(a, b); }
inline float __saturatef(float x) { return x < 0.f ? 0.f : (x > 1.f ? 1.f : x); }
inline void sincosf(float x, float* s, float* c) { *s = sinf(x), *c = cosf(x); }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fadd_rn(float a, float b) { return a + b; }
inline int __float2int_rn(float x) { return static_cast<int>(nearbyintf(x)); }
// CUDA's min / max overloads for every arithmetic pair.
template <class A, class B, class = std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>>
inline std::common_type_t<A, B> min(A a, B b) { return b < a ? b : a; }
template <class A, class B, class = std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>>
inline std::common_type_t<A, B> max(A a, B b) { return a < b ? b : a; }

// ---- Bits ---------------------------------------------------------------------
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x ? __builtin_clz(static_cast<unsigned>(x)) : 32; }
inline int __clzll(long long x) { return x ? __builtin_clzll(static_cast<unsigned long long>(x)) : 64; }
inline unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
template <class T>
inline T __ldg(const T* p) { return *p; }
// The CPU's cycle counter (a GPU's clock64() counts the SM's cycles).
inline long long clock64() {
#if defined(__x86_64__)
  return static_cast<long long>(__builtin_ia32_rdtsc());
#else
  return 0;
#endif
}

// ---- Barriers -----------------------------------------------------------------
inline void __syncthreads(int line = __builtin_LINE()) { cv_emu_ctx_tls.hooks->barrier(line); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
[[noreturn]] inline void __trap(int line = __builtin_LINE()) {
  cv_emu_ctx_tls.hooks->trap("__trap()", line);
  __builtin_unreachable();
}
#define assert(c) ((c) ? (void)0 : cv_emu_ctx_tls.hooks->trap("assert(" #c ") failed", __LINE__))

// ---- Warp operations: the lanes named in the mask meet, then exchange -----------
template <class T>
inline T cv_emu_warp(int op, unsigned mask, T v, int arg, int width, int line) {
#if defined(CV_EMU_EXPLAIN)  // the vector types copy themselves there (above)
  static_assert(sizeof(T) <= 8 && std::is_trivially_destructible<T>::value,
                "warp shuffles move one value of at most 8 bytes (int, float, double, ...)");
#else
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                "warp shuffles move one value of at most 8 bytes (int, float, double, ...)");
#endif
  cv_emu::LaneSlot* s = cv_emu_ctx_tls.slot;
  s->value = 0;
  std::memcpy(static_cast<void*>(&s->value), static_cast<const void*>(&v), sizeof v);
  s->op = op, s->mask = mask, s->arg = arg, s->width = width, s->line = line;
  cv_emu_ctx_tls.hooks->warp(line);
  T r;
  std::memcpy(static_cast<void*>(&r), static_cast<const void*>(&cv_emu_ctx_tls.slot->result), sizeof r);
  return r;
}
template <class T>
inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize, int line = __builtin_LINE()) {
  return cv_emu_warp(cv_emu::kShfl, mask, var, src_lane, width, line);
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize, int line = __builtin_LINE()) {
  return cv_emu_warp(cv_emu::kShflUp, mask, var, static_cast<int>(delta), width, line);
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize, int line = __builtin_LINE()) {
  return cv_emu_warp(cv_emu::kShflDown, mask, var, static_cast<int>(delta), width, line);
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize, int line = __builtin_LINE()) {
  return cv_emu_warp(cv_emu::kShflXor, mask, var, lane_mask, width, line);
}
inline unsigned __ballot_sync(unsigned mask, int pred, int line = __builtin_LINE()) {
  return cv_emu_warp<unsigned>(cv_emu::kBallot, mask, pred ? 1u : 0u, 0, warpSize, line);
}
inline int __any_sync(unsigned mask, int pred, int line = __builtin_LINE()) {
  return static_cast<int>(cv_emu_warp<unsigned>(cv_emu::kAny, mask, pred ? 1u : 0u, 0, warpSize, line));
}
inline int __all_sync(unsigned mask, int pred, int line = __builtin_LINE()) {
  return static_cast<int>(cv_emu_warp<unsigned>(cv_emu::kAll, mask, pred ? 1u : 0u, 0, warpSize, line));
}
inline void __syncwarp(unsigned mask = 0xffffffffu, int line = __builtin_LINE()) {
  cv_emu_warp<unsigned>(cv_emu::kSyncWarp, mask, 0u, 0, warpSize, line);
}
inline unsigned __activemask(int line = __builtin_LINE()) {
  return cv_emu_warp<unsigned>(cv_emu::kActiveMask, 0xffffffffu, 0u, 0, warpSize, line);
}

// ---- Atomics: real ones (blocks run in parallel), recorded in explain builds -----
// Explain builds: an atomic is a call (not inlined), so its return address
// places it at the student's line, through any helper it was called from.
#if defined(CV_EMU_EXPLAIN)
#define CV_EMU_NOTE_ATOMIC(p, line) \
  ((void)(line), cv_emu_ctx_tls.hooks->access(p, sizeof(*p), cv_emu::kAtomic, CV_EMU_CALLER))
#define CV_EMU_ATOMIC_FN CV_EMU_NO_TSAN __attribute__((noinline)) inline
#elif defined(CV_EMU_VERDICT)  // an atomic never loses an update: no turn ends there
#define CV_EMU_NOTE_ATOMIC(p, line) (void)(line)
#define CV_EMU_ATOMIC_FN CV_EMU_NO_TSAN inline
#else
#define CV_EMU_NOTE_ATOMIC(p, line) (void)(line)
#define CV_EMU_ATOMIC_FN inline
#endif
template <class T, class F>
CV_EMU_NO_TSAN inline T cv_emu_atomic_update(T* p, F f) {
  T old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  T want = f(old);
  while (!__atomic_compare_exchange(p, &old, &want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    want = f(old);
  return old;
}
#define CV_EMU_ATOMIC_INT(T)                                                                       \
  CV_EMU_ATOMIC_FN T atomicAdd(T* p, T v, int line = __builtin_LINE()) {                     \
    CV_EMU_NOTE_ATOMIC(p, line);                                                                   \
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);                                             \
  }                                                                                                \
  CV_EMU_ATOMIC_FN T atomicSub(T* p, T v, int line = __builtin_LINE()) {                     \
    CV_EMU_NOTE_ATOMIC(p, line);                                                                   \
    return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED);                                             \
  }                                                                                                \
  CV_EMU_ATOMIC_FN T atomicExch(T* p, T v, int line = __builtin_LINE()) {                    \
    CV_EMU_NOTE_ATOMIC(p, line);                                                                   \
    return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);                                            \
  }                                                                                                \
  CV_EMU_ATOMIC_FN T atomicAnd(T* p, T v, int line = __builtin_LINE()) {                     \
    CV_EMU_NOTE_ATOMIC(p, line);                                                                   \
    return __atomic_fetch_and(p, v, __ATOMIC_RELAXED);                                             \
  }                                                                                                \
  CV_EMU_ATOMIC_FN T atomicOr(T* p, T v, int line = __builtin_LINE()) {                      \
    CV_EMU_NOTE_ATOMIC(p, line);                                                                   \
    return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);                                              \
  }                                                                                                \
  CV_EMU_ATOMIC_FN T atomicXor(T* p, T v, int line = __builtin_LINE()) {                     \
    CV_EMU_NOTE_ATOMIC(p, line);                                                                   \
    return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED);                                             \
  }                                                                                                \
  CV_EMU_ATOMIC_FN T atomicMin(T* p, T v, int line = __builtin_LINE()) {                     \
    CV_EMU_NOTE_ATOMIC(p, line);                                                                   \
    return cv_emu_atomic_update(p, [v](T o) { return v < o ? v : o; });                           \
  }                                                                                                \
  CV_EMU_ATOMIC_FN T atomicMax(T* p, T v, int line = __builtin_LINE()) {                     \
    CV_EMU_NOTE_ATOMIC(p, line);                                                                   \
    return cv_emu_atomic_update(p, [v](T o) { return o < v ? v : o; });                            \
  }                                                                                                \
  CV_EMU_ATOMIC_FN T atomicCAS(T* p, T compare, T v, int line = __builtin_LINE()) {          \
    CV_EMU_NOTE_ATOMIC(p, line);                                                                   \
    __atomic_compare_exchange_n(p, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);        \
    return compare;                                                                                \
  }
CV_EMU_ATOMIC_INT(int)
CV_EMU_ATOMIC_INT(unsigned)
CV_EMU_ATOMIC_INT(unsigned long long)
CV_EMU_ATOMIC_INT(long long)
#undef CV_EMU_ATOMIC_INT
#define CV_EMU_ATOMIC_FLOAT(T)                                                                     \
  CV_EMU_ATOMIC_FN T atomicAdd(T* p, T v, int line = __builtin_LINE()) {                     \
    CV_EMU_NOTE_ATOMIC(p, line);                                                                   \
    return cv_emu_atomic_update(p, [v](T o) { return o + v; });                                    \
  }                                                                                                \
  CV_EMU_ATOMIC_FN T atomicSub(T* p, T v, int line = __builtin_LINE()) {                     \
    CV_EMU_NOTE_ATOMIC(p, line);                                                                   \
    return cv_emu_atomic_update(p, [v](T o) { return o - v; });                                    \
  }                                                                                                \
  CV_EMU_ATOMIC_FN T atomicExch(T* p, T v, int line = __builtin_LINE()) {                    \
    CV_EMU_NOTE_ATOMIC(p, line);                                                                   \
    T old;                                                                                         \
    __atomic_exchange(p, &v, &old, __ATOMIC_RELAXED);                                              \
    return old;                                                                                    \
  }                                                                                                \
  CV_EMU_ATOMIC_FN T atomicMin(T* p, T v, int line = __builtin_LINE()) {                     \
    CV_EMU_NOTE_ATOMIC(p, line);                                                                   \
    return cv_emu_atomic_update(p, [v](T o) { return v < o ? v : o; });                            \
  }                                                                                                \
  CV_EMU_ATOMIC_FN T atomicMax(T* p, T v, int line = __builtin_LINE()) {                     \
    CV_EMU_NOTE_ATOMIC(p, line);                                                                   \
    return cv_emu_atomic_update(p, [v](T o) { return o < v ? v : o; });                            \
  }
CV_EMU_ATOMIC_FLOAT(float)
CV_EMU_ATOMIC_FLOAT(double)
#undef CV_EMU_ATOMIC_FLOAT
CV_EMU_ATOMIC_FN unsigned atomicInc(unsigned* p, unsigned limit, int line = __builtin_LINE()) {
  CV_EMU_NOTE_ATOMIC(p, line);
  return cv_emu_atomic_update(p, [limit](unsigned o) { return o >= limit ? 0u : o + 1; });
}
CV_EMU_ATOMIC_FN unsigned atomicDec(unsigned* p, unsigned limit, int line = __builtin_LINE()) {
  CV_EMU_NOTE_ATOMIC(p, line);
  return cv_emu_atomic_update(p, [limit](unsigned o) { return (o == 0 || o > limit) ? limit : o - 1; });
}
#define atomicAdd_block atomicAdd
// A finished block, counted where the caller watches (Ctx::blocks_done).
CV_EMU_NO_TSAN inline void cv_emu_count_block(unsigned long long* done) {
  if (done) __atomic_fetch_add(done, 1ull, __ATOMIC_RELAXED);
}
#define atomicAdd_system atomicAdd

// ---- printf: the first lines go back with the launch ---------------------------
__attribute__((format(printf, 1, 2))) inline int cv_emu_printf(const char* fmt, ...) {
  char buf[512];
  va_list a;
  va_start(a, fmt);
  const int n = vsnprintf(buf, sizeof buf, fmt, a);
  va_end(a);
  if (n > 0)
    cv_emu_ctx_tls.hooks->print(buf, static_cast<unsigned long long>(n < 512 ? n : 511));
  return n;
}
#define printf(...) cv_emu_printf(__VA_ARGS__)

// ---- What needs an NVIDIA GPU: an error at the line that uses it ---------------
#define CV_EMU_GPU_ONLY(what) \
  __attribute__((error(what " runs only on an NVIDIA GPU; the CPU emulator cannot run it")))
template <class... A> CV_EMU_GPU_ONLY("texture fetch (tex1Dfetch)") float tex1Dfetch(A...);
template <class... A> CV_EMU_GPU_ONLY("texture fetch (tex1D)") float tex1D(A...);
template <class... A> CV_EMU_GPU_ONLY("texture fetch (tex2D)") float tex2D(A...);
template <class... A> CV_EMU_GPU_ONLY("texture fetch (tex3D)") float tex3D(A...);
template <class... A> CV_EMU_GPU_ONLY("surface write (surf2Dwrite)") void surf2Dwrite(A...);
template <class... A> CV_EMU_GPU_ONLY("a launch from a kernel (dynamic parallelism)") int cudaLaunchKernel(A...);
template <class... A> CV_EMU_GPU_ONLY("a cooperative launch") int cudaLaunchCooperativeKernel(A...);
template <class... A> CV_EMU_GPU_ONLY("__syncthreads_count") int __syncthreads_count(A...);
template <class... A> CV_EMU_GPU_ONLY("__syncthreads_and") int __syncthreads_and(A...);
template <class... A> CV_EMU_GPU_ONLY("__syncthreads_or") int __syncthreads_or(A...);
template <class... A> CV_EMU_GPU_ONLY("__match_any_sync") unsigned __match_any_sync(A...);
template <class... A> CV_EMU_GPU_ONLY("__match_all_sync") unsigned __match_all_sync(A...);
template <class... A> CV_EMU_GPU_ONLY("__reduce_add_sync") unsigned __reduce_add_sync(A...);
template <class... A> CV_EMU_GPU_ONLY("__nanosleep") void __nanosleep(A...);
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

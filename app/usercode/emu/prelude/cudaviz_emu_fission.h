// cudaviz emulator, the fast path's helpers (docs/emulator.md, "Loop
// fission"): what the rewritten kernels (cv_fis_<name>, generated) use to keep
// a value per thread, to post a warp operation's operands and take its result,
// and the plain read-modify-writes that atomics on __shared__ memory become
// (a block's threads run one after another on one worker: nothing else
// touches its shared memory while they run).
#pragma once
#include <limits>

namespace cv_emu {
template <class T>
using Id = T;  // a declarator for any type: Id<float[4]> a;
}

// An access checked ahead (fission_ahead.h): the span's own test (Span::access).
template <class S, class I>
inline bool cv_fis_in(const S& s, I i) {
  return static_cast<unsigned long long>(static_cast<long long>(i)) < s.size;
}

// A thread's loop `for (T i = lo; i < hi; ++i)` (`<=` when inclusive) reads
// span[i + k] in range at every step (fission_ahead.h, range_loop): true when
// it makes no step, or its index starts at 0 or more, never wraps, and ends
// in the span. `lo < hi` converts as the loop's own test does.
template <class T, class U>
inline bool cv_fis_span_range(T lo, U hi, bool inclusive, long long k, unsigned long long size) {
  if (!(inclusive ? lo <= hi : lo < hi)) return true;
  if (static_cast<__int128>(lo) < 0) return false;  // (a signed index below 0: the slow loop names it)
  using C = decltype(lo + hi);
  const __int128 first = static_cast<__int128>(lo);
  const __int128 last = static_cast<__int128>(static_cast<C>(hi)) - (inclusive ? 0 : 1);
  if (last >= static_cast<__int128>(std::numeric_limits<T>::max())) return false;  // the index would wrap
  return first + k >= 0 && last + k < static_cast<__int128>(size);
}

// The bound of a region's fast copy over x (fission_emit.cpp, region_code):
// every thread when none has left, the first L of a one-row block when the
// rest have all left, else ~0u (the copy that tests each thread runs).
inline unsigned cv_fis_live(const unsigned char* done, unsigned threads, unsigned row, bool one_row) {
  unsigned l = 0;
  while (l < threads && !done[l]) ++l;
  if (l == threads) return row;
  for (unsigned t = l; t < threads; ++t)
    if (!done[t]) return ~0u;
  return one_row ? l : ~0u;
}

template <class T>
inline void cv_fis_put(T& dst, const T& src) {
  std::memcpy(static_cast<void*>(&dst), static_cast<const void*>(&src), sizeof(T));
}

template <class T>
inline unsigned long long cv_fis_bits(T v) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                "warp shuffles move one value of at most 8 bytes (int, float, double, ...)");
  unsigned long long b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

inline void cv_fis_post(cv_emu::LaneSlot& s, int op, unsigned mask, unsigned long long value, int arg, int width,
                        int line) {
  s.value = value, s.result = 0, s.op = op, s.mask = mask, s.arg = arg, s.width = width, s.line = line;
}

template <class T>
inline T cv_fis_take(const cv_emu::LaneSlot& s) {
  T r;
  std::memcpy(&r, &s.result, sizeof r);
  return r;
}

template <class T>
struct cv_fis_same {
  using type = T;
};
#define CV_FIS_RMW(name, expr)                                                             \
  template <class T>                                                                       \
  inline T cv_fis_##name(T* p, typename cv_fis_same<T>::type v, int = 0) {                 \
    const T o = *p;                                                                        \
    *p = (expr);                                                                           \
    return o;                                                                              \
  }
CV_FIS_RMW(atomicAdd, o + v)
CV_FIS_RMW(atomicSub, o - v)
CV_FIS_RMW(atomicExch, v)
CV_FIS_RMW(atomicMin, v < o ? v : o)
CV_FIS_RMW(atomicMax, o < v ? v : o)
CV_FIS_RMW(atomicAnd, o & v)
CV_FIS_RMW(atomicOr, o | v)
CV_FIS_RMW(atomicXor, o ^ v)
CV_FIS_RMW(atomicInc, o >= v ? 0 : o + 1)
CV_FIS_RMW(atomicDec, (o == 0 || o > v) ? v : o - 1)
#undef CV_FIS_RMW
template <class T>
inline T cv_fis_atomicCAS(T* p, typename cv_fis_same<T>::type compare, typename cv_fis_same<T>::type v, int = 0) {
  const T o = *p;
  if (o == compare) *p = v;
  return o;
}

// A checked build's fast path: the running thread's index in its block, for an
// out-of-range record (cv_emu_fault_thread); one a block, named while its loops run.
struct cv_fis_here {
  unsigned t = 0;
  cv_fis_here() { cv_emu_fis_thread = &t; }
  ~cv_fis_here() { cv_emu_fis_thread = nullptr; }
  cv_fis_here(const cv_fis_here&) = delete;
  cv_fis_here& operator=(const cv_fis_here&) = delete;
};

// An atomicAdd whose result is unused, into memory the kernel only adds to:
// summed per block and made as one atomic (fission_emit.cpp, find_deferred).
// `c`: under `if (c) atomicAdd(uniform address, v)`, the condition, so the
// sum takes `c ? v : 0` without a branch (fission_emit.cpp, branch_free_site).
template <class T>
struct cv_fis_defer {
  T* p = nullptr;
  T v = 0;
  bool c = false;
};
// `if (c) atomicAdd(&P[e], v)` with e the same for the block, outside a
// thread's loop: the loop over threads only sums `c ? v : 0`, ors the c's and
// stores each thread's c (all of which the compiler vectorises; GCC 12 does
// not vectorise "the first index where"); after the loop the first thread
// where c held makes the access once, with its record, and the sum goes to
// the block's deferred atomic (fission_emit.cpp, summed_site).
template <class T>
struct cv_fis_usum {
  T v = 0;
  unsigned char any = 0;
  unsigned char c[1024];  // each thread's c: false at the region's top, then the site's (summed_takes)
};

// &s[i] without the checked access's record: where i is out of range, the
// scratch slot the checked access returns then (never null: a first null
// would equal cv_fis_defer's empty address and the access would not be made).
template <class T>
inline T* cv_fis_peek(const cv::Span<T>& s, long long i) {
  return cv_fis_in(s, i) ? s.data + i : reinterpret_cast<T*>(cv_scratch);
}
template <class T>
inline T* cv_fis_peek(T* p, long long i) {
  return p + i;
}
template <class T>
inline void cv_fis_flush(cv_fis_defer<T>& d) {
  if (d.p && d.v) atomicAdd(d.p, d.v);
  d.p = nullptr, d.v = 0;
}
// The same, its address taken before the loop over threads (region_code's hoisted_).
template <class T>
inline void cv_fis_defer_put(cv_fis_defer<T>& d, typename cv_fis_same<T>::type v, int = 0) {
  d.v += v;
}
template <class T>
inline void cv_fis_defer_add(cv_fis_defer<T>& d, T* p, typename cv_fis_same<T>::type v, int = 0) {
  if (p != d.p) {
    cv_fis_flush(d);
    d.p = p;
  }
  d.v += v;
}

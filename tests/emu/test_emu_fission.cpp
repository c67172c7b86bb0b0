// The emulator's fast path (loop fission, docs/emulator.md) against its
// fibers on kernels made to reach its corners: variables that live across
// barriers, uniform loops with barriers, threads that leave early, warp
// operations, shared-memory atomics, printf and traps. Same buffers, same
// words; what it cannot split keeps running as fibers and says why.
#include <algorithm>
#include <functional>

#include "emu_test_util.h"

namespace cv::emu::test {
namespace {

struct Outcome {
  Report report;
  std::vector<unsigned> out;
};

// A block of x * y * z threads.
struct Block {
  Block(unsigned bx, unsigned by = 1, unsigned bz = 1) : x(bx), y(by), z(bz) {}
  unsigned x, y, z;
};

// Runs `k` on a fresh zeroed `out` of `words` unsigneds with (out, n) as its arguments.
Outcome launch(const Built& b, unsigned grid, Block block, unsigned n, size_t words, bool fibers) {
  Outcome o;
  o.out.assign(words, 0);
  SpanArg<unsigned> s{o.out.data(), o.out.size()};
  void* params[] = {&s, &n};
  Options opt;
  opt.force_fibers = fibers;
  usercode::LaunchShape sh = shape(grid, block.x, 1, block.y);
  sh.block[2] = block.z;
  o.report = run(b.kernel, sh, params, {view(o.out, "out")}, opt);
  return o;
}

// Both paths: the fast one taken, the same buffer, the same words and lines.
void same_both_ways(const std::string& src, unsigned grid, Block block, unsigned n, size_t words) {
  const Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  const Outcome fast = launch(b, grid, block, n, words, false), fibers = launch(b, grid, block, n, words, true);
  EXPECT_EQ(fast.report.path, "fission") << fast.report.fission_note;
  EXPECT_EQ(fibers.report.path, "fibers");
  EXPECT_EQ(fast.report.ok, fibers.report.ok);
  EXPECT_EQ(fast.report.error, fibers.report.error);
  EXPECT_EQ(fast.report.error_line, fibers.report.error_line);
  if (!fast.report.ok) return;  // which other blocks ran before the error's stopped the rest: any
  EXPECT_EQ(fast.out, fibers.out);
  // Blocks on different workers print in either order; a block's own lines keep theirs.
  auto by_block = [](std::vector<std::string> lines) {
    std::stable_sort(lines.begin(), lines.end(),
                     [](const std::string& x, const std::string& y) { return x.substr(0, 8) < y.substr(0, 8); });
    return lines;
  };
  EXPECT_EQ(by_block(fast.report.printf_lines), by_block(fibers.report.printf_lines));
}

TEST(EmuFission, VariablesAcrossBarriersAreKeptPerThread) {
  const char* src = R"(
struct Pair { int a; float b; };
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  __shared__ unsigned tile[256];
  const unsigned t = threadIdx.x, nt = blockDim.x;
  auto twice = 2 * t;
  unsigned acc[3] = {t, t + 1, t + 2}, scratch;
  Pair p{static_cast<int>(t), 0.5f * t};
  unsigned sum = 0, k = 0;
  for (unsigned round = 0; round < 3; ++round) {
    tile[t] = acc[round] + twice;
    __syncthreads();
    sum += tile[(t + round + 1) % nt];
    if (round == 1) { scratch = sum; ++k; }
    __syncthreads();
  }
  out[blockIdx.x * nt + t] = sum + scratch + k + static_cast<unsigned>(p.a) + static_cast<unsigned>(p.b);
}
)";
  same_both_ways(src, 3, 256, 0, 3 * 256);
  same_both_ways(src, 2, 96, 0, 2 * 96);
}

TEST(EmuFission, UniformLoopsIfsAndEarlyBlockReturns) {
  const char* src = R"(
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  __shared__ unsigned s[128];
  if (blockIdx.x == 1) return;  // a whole block leaves: uniform
  const unsigned t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  unsigned half = 1;
  while (half * 2 < blockDim.x) half *= 2;
  for (unsigned h = half; h > 0; h /= 2) {
    if (t < h && t + h < blockDim.x) s[t] += s[t + h];
    __syncthreads();
    if (h == n) break;  // a uniform break out of a loop with barriers
  }
  if (gridDim.x > 2) {
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[0] + h_unused_free(t);
  } else {
    out[blockIdx.x * blockDim.x + t] = s[t];
  }
}
)";
  // (a helper before the kernel, a device function without barriers)
  const std::string helper = "__device__ unsigned h_unused_free(unsigned v) { return v * 3; }\n";
  same_both_ways(helper + src, 3, 100, 4, 300);
  same_both_ways(helper + src, 2, 128, 0, 256);
}

TEST(EmuFission, ThreadsThatLeaveBeforeABarrierAreNamedTheSameWay) {
  const char* src = R"(
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = i;
  __syncthreads();
  out[i] += 1;
}
)";
  same_both_ways(src, 2, 64, 128, 128);  // everyone stays: fine
  same_both_ways(src, 2, 64, 100, 128);  // block 1: 36 of 64 reach the barrier at line 6
  const Built b = build_kernel(src, "k");
  const Outcome o = launch(b, 2, 64, 100, 128, false);
  EXPECT_FALSE(o.report.ok);
  EXPECT_EQ(o.report.error_line, 6);
  EXPECT_NE(o.report.error.find("reached by 36 of 64 threads of block (1,0,0)"), std::string::npos) << o.report.error;
}

TEST(EmuFission, WarpOperationsGiveTheFibersResults) {
  const char* src = R"(
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  const unsigned t = threadIdx.x, lane = t % 32;
  unsigned v = t * 7 + 1;
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  const float f = __shfl_xor_sync(0xffffffffu, 0.5f * t, 3);
  unsigned up = __shfl_up_sync(0xffffffffu, t, 2, 8);
  const unsigned from = __shfl_sync(0xffffffffu, t * 3, (lane + 5) % 32);
  const unsigned votes = __ballot_sync(0xffffffffu, t % 3 == 0);
  const int any = __any_sync(0xffffffffu, t == n);
  const int all = __all_sync(0xffffffffu, t < 1000);
  __syncwarp();
  const unsigned active = __activemask();
  out[blockIdx.x * blockDim.x + t] = v + static_cast<unsigned>(f * 2) + up + from + votes + any + 2 * all + (active & 7);
}
)";
  same_both_ways(src, 2, 64, 33, 128);
  same_both_ways(src, 1, 48, 5, 48);  // a full mask on a 48-thread block: the same words, both ways
  const Built b = build_kernel(src, "k");
  const Outcome o = launch(b, 1, 48, 5, 48, false);
  EXPECT_FALSE(o.report.ok);
  EXPECT_NE(o.report.error.find("names lanes 16-31, which are not there"), std::string::npos) << o.report.error;
}

TEST(EmuFission, SharedAtomicsPrintfAndTraps) {
  const char* src = R"(
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  __shared__ unsigned hist[8];
  const unsigned t = threadIdx.x;
  if (t < 8) hist[t] = 0;
  __syncthreads();
  atomicAdd(&hist[t % 8], t);
  atomicMax(&hist[(t + 1) % 8], t);
  if (t < 2) printf("block %u thread %u\n", blockIdx.x, t);
  __syncthreads();
  if (t < 8) atomicAdd(&out[t], hist[t]);
  if (n && blockIdx.x == 1 && t == n) __trap();
}
)";
  same_both_ways(src, 3, 64, 0, 8);
  same_both_ways(src, 3, 64, 5, 8);  // __trap() in thread 5 of block 1: the same words
}

// `if (c) atomicAdd(&P[e], v);` with e the same for the whole block: summed
// without a branch, the address taken at the first thread whose c holds (a
// block where none does adds nothing); on a __shared__ integer, `c ? v : 0`
// added. An address per thread keeps the deferral with its branch. Both give
// the fibers' buffer.
TEST(EmuFission, ConditionalAtomicsOnABlocksAddressAreSummedWithoutABranch) {
  const char* src = R"(
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  __shared__ unsigned hits;
  const unsigned t = threadIdx.x;
  if (t == 0) hits = 0;
  __syncthreads();
  unsigned mine = (t * 7 + blockIdx.x) % 5;
  if (mine) atomicAdd(&out[0], mine);
  if (t % 3 == 0 && blockIdx.x != 1) { atomicAdd(&out[1 + blockIdx.x % 2], 1u); }
  if (t > n) (void)atomicAdd(&out[4], t);
  if (t & 1) atomicAdd(&out[5 + t % 3], 1u);
  if (mine > 2) atomicAdd(&hits, mine);
  __syncthreads();
  if (t == 0) atomicAdd(&out[3], hits);
}
)";
  const Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  const std::string& code = b.build.fission.code;
  // Outside a thread's loop, on a block's address: summed (cv_fis_usum), the
  // address made once after the loop over threads.
  size_t summed = 0;
  for (size_t at = code.find(".any |= cv_c"); at != std::string::npos; at = code.find(".any |= cv_c", at + 1))
    ++summed;
  EXPECT_EQ(summed, 4u) << code;  // out[0], out[1 + ...], out[4], out[3]
  EXPECT_NE(code.find("cv_fis_atomicAdd(&hits, cv_c ? (mine) : 0)"), std::string::npos) << code;
  EXPECT_NE(code.find("cv_fis_defer_add("), std::string::npos) << code;  // out[5 + t % 3]
  same_both_ways(src, 3, 64, 40, 8);
  same_both_ways(src, 3, 64, 100, 8);  // no thread passes t > n
}

// A helper whose whole body is one integer atomicAdd of its parameters (the
// reduce template's atomic_add) is summed per block like the atomicAdd itself,
// its arguments converted as the call would (negative ints wrap the same);
// a helper that does more is called as written.
TEST(EmuFission, AHelperThatIsOneAtomicIsSummedPerBlock) {
  const char* src = R"(
__device__ __forceinline__ void add_to(unsigned* total, int v) {
  atomicAdd(total, static_cast<unsigned>(v));
}
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) add_to(&out[0], static_cast<int>(i) - 40);
  for (unsigned j = 0; j < i % 4; ++j) add_to(&out[1 + blockIdx.x % 2], -3);
}
)";
  const Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  const std::string& code = b.build.fission.code;
  EXPECT_NE(code.find("cv_fis_defer<unsigned int> cv_d_0"), std::string::npos) << code;
  EXPECT_NE(code.find("cv_fis_defer<unsigned int> cv_d_1"), std::string::npos) << code;
  EXPECT_EQ(code.find("add_to("), std::string::npos) << code;  // both calls summed
  same_both_ways(src, 3, 64, 150, 4);
  same_both_ways(src, 2, Block(8, 4), 50, 4);
  const Outcome o = launch(b, 3, 64, 150, 4, false);
  long long first = 0;
  for (long long i = 0; i < 150; ++i) first += i - 40;
  EXPECT_EQ(o.out[0], static_cast<unsigned>(first));
  // A block of 64 makes 16 * (0 + 1 + 2 + 3) = 96 trips of -3: blocks 0 and 2 on out[1], block 1 on out[2].
  EXPECT_EQ(o.out[1], static_cast<unsigned>(-2 * 96 * 3));
  EXPECT_EQ(o.out[2], static_cast<unsigned>(-96 * 3));

  const char* more = R"(
__device__ void add_twice(unsigned* total, unsigned v) {
  atomicAdd(total, v);
  atomicAdd(total, v);
}
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  add_twice(&out[0], (blockIdx.x * blockDim.x + threadIdx.x) & 1);
}
)";
  const Built twice = build_kernel(more, "k");
  ASSERT_TRUE(twice.module);
  EXPECT_NE(twice.build.fission.code.find("add_twice("), std::string::npos) << twice.build.fission.code;
  EXPECT_EQ(launch(twice, 3, 64, 0, 1, false).out[0], 192u);  // 96 odd threads of 192, twice each
  same_both_ways(more, 3, 64, 0, 1);
}

// The block function is compiled twice: for blocks of one row (y = z = 1),
// where the flat index is x and the compiler bounds `t < half` loops by it,
// and for any shape. Both give the fibers' results, whichever the launch has.
TEST(EmuFission, OneRowAndManyRowBlocksGiveTheFibersResults) {
  const char* src = R"(
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  __shared__ unsigned part[512];
  const unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  part[t] = t * 3 + threadIdx.y * 5 + threadIdx.z * 7 + blockIdx.x;
  __syncthreads();
  for (unsigned half = threads / 2; half > 0; half /= 2) {
    if (t < half) part[t] += part[t + half];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = part[0];
  if (t < n) atomicAdd(&out[8 + threadIdx.y % 4], threadIdx.z + 1);
  if (threadIdx.x == 1 && threadIdx.y == blockDim.y - 1) out[12 + threadIdx.z % 4] += blockDim.y * 10 + blockDim.z;
}
)";
  const Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  EXPECT_NE(b.build.fission.code.find("template <bool cv_1d> static void cv_fis_k("), std::string::npos)
      << b.build.fission.code;
  for (const Block block : {Block{64}, Block{8, 4, 2}, Block{4, 2, 8}, Block{16, 1, 4}, Block{2, 32}}) {
    SCOPED_TRACE(std::to_string(block.x) + "x" + std::to_string(block.y) + "x" + std::to_string(block.z));
    same_both_ways(src, 3, block, 40, 16);
    // The tree's sum, from the host: what the one-row copy must not get wrong.
    const Outcome fast = launch(b, 3, block, 40, 16, false);
    const unsigned threads = block.x * block.y * block.z;
    for (unsigned bx = 0; bx < 3; ++bx) {
      unsigned want = 0;
      for (unsigned t = 0; t < threads; ++t)
        want += t * 3 + (t / block.x % block.y) * 5 + (t / (block.x * block.y)) * 7 + bx;
      EXPECT_EQ(fast.out[bx], want) << "block " << bx;
    }
  }
}

// A conditional atomic on a block's address: outside a thread's loop the loop
// over threads only sums (and stores each thread's condition), and the first
// thread whose condition held makes the access once after it; inside a
// thread's loop the address is tested without the checked access's record
// (cv_fis_peek). Out of range, see EmuFastPath (through the runner).
TEST(EmuFission, AConditionalAtomicsAddressIsMadeOnceOrTestedWithoutARecord) {
  const char* src = R"(
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  const unsigned t = threadIdx.x;
  unsigned mine = (t * 5 + blockIdx.x) % 3;
  if (mine == 2) atomicAdd(&out[n], mine);
  for (unsigned j = 0; j < t % 3; ++j)
    if (mine == 1) atomicAdd(&out[n + 1], j);
}
)";
  const Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  const std::string& code = b.build.fission.code;
  EXPECT_NE(code.find(".c[cv_t] = cv_c"), std::string::npos) << code;
  EXPECT_NE(code.find("while (!cv_u_"), std::string::npos) << code;  // the first thread, after the loop
  EXPECT_NE(code.find("cv_fis_peek(out, n + 1)"), std::string::npos) << code;
  same_both_ways(src, 2, Block{64}, 3, 8);
  same_both_ways(src, 2, Block{64}, 0, 8);
  same_both_ways(src, 2, Block(4, 8, 2), 5, 8);
}

TEST(EmuFission, WhatItCannotSplitRunsAsFibersAndSaysWhy) {
  struct Case {
    const char* src;
    const char* why;
  } cases[] = {
      {R"(extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  if (threadIdx.x < n) {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
})", "under the if at line 2"},
      {R"(__device__ void sync_twice() { __syncthreads(); __syncthreads(); }
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  sync_twice();
  out[threadIdx.x] = n;
})", "the function 'sync_twice'"},
      {R"(extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  n += threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = n;
})", "parameter 'n'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.src);
    const Built b = build_kernel(c.src, "k");
    ASSERT_TRUE(b.module);
    const Outcome o = launch(b, 1, 32, 32, 32, false);
    EXPECT_EQ(o.report.path, "fibers");
    EXPECT_NE(o.report.fission_note.find(c.why), std::string::npos) << o.report.fission_note;
    EXPECT_GT(o.report.fission_line, 0);
  }
}

}  // namespace
}  // namespace cv::emu::test

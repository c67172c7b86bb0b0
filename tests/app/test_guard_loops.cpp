// Loops proven once (docs/guard.md "Loops proven once") on NVRTC's own PTX:
// the proven copy of a loop holds exactly the unguarded loop's instructions
// (no check inside), an access whose address does not follow from the
// loop's induction variables keeps its check in both copies, and the edge
// cases (counting down, 32- and 64-bit indices, loops with no trip count,
// pointers made from integers, misaligned vectors, generic addresses) are
// either proven soundly or left checked. The check's arithmetic itself is
// tested in test_guard_loop_checks.cpp; what the GPU does with a loop that
// leaves its buffer, in tests/gpu/test_guard_gpu.cpp.
#include <gtest/gtest.h>

#include "usercode/compile/compile.h"
#include "usercode/compile/jitlink.h"
#include "usercode/guard/ptx_loops.h"

namespace cv::usercode {
namespace {

bool nvrtc_missing() { return nvrtc_status().find("NVRTC 1") != 0; }

// A count3 kernel whose body is `body` (line 4 on).
std::string count3(const std::string& body) {
  return "// template: count3\n"
         "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {\n"
         "  const unsigned long long i = cv::global_index();\n" + body + "\n}\n";
}

struct Both {
  CompileResult raw, guarded;
};
Both build(const std::string& src) {
  CompileRequest req;
  req.source = src;
  req.arch = "sm_90";
  Both b{compile(req), {}};
  req.guard = true;
  b.guarded = compile(req);
  return b;
}

size_t loop_proven_sites(const guard::GuardedPtx& g) {
  size_t n = 0;
  for (const guard::GuardSite& s : g.sites) n += s.loop_proven;
  return n;
}

TEST(GuardLoops, ALoopIsProvenOnce) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  for (const char* body : {
           // 64-bit, unrolled by NVVM (a counter and a pointer stepping together)
           // (bounds other than the span's size: a loop bounded by data.size needs no check
           // at all, test_guard_bounds.cpp)
           "  unsigned long long s = 0;\n  for (unsigned long long k = i; k < data.size / 2; ++k) s += data[k];\n"
           "  if (s == 7) count[0] = s;",
           // 32-bit index, counting down
           "  int s = 0;\n  for (int k = int(data.size) - 1; k >= int(i & 7); --k) s += data[k];\n"
           "  if (s == 7) count[0] = s;",
           // grid-stride: a register step
           "  unsigned long long s = 0;\n"
           "  for (unsigned long long k = i; k < data.size / 2; k += cv::grid_threads()) s += data[k] % 3 == 0;\n"
           "  if (s) atomicAdd(&count[0], s);",
       }) {
    SCOPED_TRACE(body);
    const Both b = build(count3(body));
    ASSERT_TRUE(b.raw.ok && b.guarded.ok) << b.guarded.first_error() << b.guarded.error;
    EXPECT_GE(b.guarded.guarded.loops_proven, 1u) << b.guarded.guarded.ptx;
    EXPECT_GE(loop_proven_sites(b.guarded.guarded), 1u);
    EXPECT_EQ(b.guarded.guarded.guarded_instructions, b.guarded.guarded.memory_instructions);
    // The hot loops (the proven copies) are the unguarded loops, instruction for instruction.
    const guard::LoopFigures raw = guard::innermost_loop_figures(b.raw.ptx);
    const guard::LoopFigures fast = guard::innermost_loop_figures(b.guarded.guarded.ptx);
    EXPECT_GT(raw.instructions, 0u);
    EXPECT_EQ(fast.instructions, raw.instructions);
    EXPECT_EQ(fast.branches, raw.branches);
    EXPECT_FALSE(b.guarded.cubin.empty()) << "nvJitLink builds it";
  }
}

// Most threads of a grid-stride loop make one trip: they leave for the
// guarded copy on two compares (x0 < bound, bound - x0 <= step), before the
// trip count's division and the ranges are computed.
TEST(GuardLoops, AGridStrideLoopsOneTripThreadsLeaveBeforeTheDivision) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  const Both b = build(count3(
      "  unsigned long long s = 0;\n"
      "  for (unsigned long long k = i; k < data.size / 2; k += cv::grid_threads()) s += data[k] % 3 == 0;\n"
      "  if (s) atomicAdd(&count[0], s);"));
  ASSERT_TRUE(b.guarded.ok) << b.guarded.first_error() << b.guarded.error;
  const std::string& ptx = b.guarded.guarded.ptx;
  const size_t check = ptx.find("guarded once, before it runs"), div = ptx.find("div.u64", check);
  ASSERT_NE(check, std::string::npos) << ptx;
  ASSERT_NE(div, std::string::npos) << ptx;
  // Between the check's start and its division: exactly two exits to the guarded copy.
  const std::string before = ptx.substr(check, div - check);
  size_t exits = 0;
  for (size_t at = 0; (at = before.find("bra $cvg_l0_slow", at)) != std::string::npos; ++at) ++exits;
  EXPECT_EQ(exits, 2u) << before;
  EXPECT_NE(before.find("setp.le.u64"), std::string::npos) << before;
}

// The commonest loop, a 32-bit index stepped by 1 to a bound in a register
// (corelated's search), is counted in 32 bits: its check has no trip-count
// select, no 128-bit overflow test and no division, and is about half as long
// as before this form (45 PTX instructions before the window compare).
TEST(GuardLoops, AUnitStep32BitSearchHasTheShortCheck) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  const Both b = build(count3(
      "  const unsigned lo = unsigned(data[0]), hi = unsigned(data[1]);\n"
      "  unsigned hits = 0;\n"
      "  for (unsigned y = lo; y < hi; ++y)\n"
      "    if (data[y] == int(i)) { ++hits; break; }\n"
      "  if (hits) atomicAdd(&count[0], 1ull);"));
  ASSERT_TRUE(b.guarded.ok) << b.guarded.first_error() << b.guarded.error;
  const std::string& ptx = b.guarded.guarded.ptx;
  ASSERT_GE(b.guarded.guarded.loops_proven, 1u) << ptx;
  const size_t check = ptx.find("guarded once, before it runs"), proven = ptx.find("_fast:", check);
  ASSERT_NE(check, std::string::npos) << ptx;
  ASSERT_NE(proven, std::string::npos) << ptx;
  const std::string code = ptx.substr(check, proven - check);
  EXPECT_EQ(code.find("selp"), std::string::npos) << code;
  EXPECT_EQ(code.find("mul.hi"), std::string::npos) << code;
  EXPECT_EQ(code.find("div."), std::string::npos) << code;
  EXPECT_NE(code.find("setp.lt.u32"), std::string::npos) << code;
  size_t lines = 0;  // instructions before the window compare's table loads
  const std::string upto = code.substr(0, code.find("ld.const"));
  for (size_t at = 0; (at = upto.find(";\n", at)) != std::string::npos; ++at) ++lines;
  EXPECT_LE(lines, 20u) << upto;
}

// An index read from memory (data[data[k]]) does not follow from the loop:
// that read keeps its own check in the proven copy, the other one is proven.
TEST(GuardLoops, AnAccessThatCannotBeProvenIsStillChecked) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  const Both b = build(count3(
      "  long long s = 0;\n"
      "  for (unsigned k = 0; k < 64 && k < data.size; ++k) s += data[(unsigned)data[k] % data.size];\n"
      "  if (s == 7) count[0] = s;"));
  ASSERT_TRUE(b.guarded.ok) << b.guarded.first_error();
  const guard::GuardedPtx& g = b.guarded.guarded;
  ASSERT_GE(g.loops_proven, 1u) << g.ptx;
  size_t proven = 0, unproven_line5 = 0;
  for (const guard::GuardSite& s : g.sites) {
    proven += s.loop_proven;
    unproven_line5 += s.line == 5 && !s.loop_proven && s.access == "read";
  }
  EXPECT_GE(proven, 1u);
  EXPECT_GE(unproven_line5, 1u) << "the indirect read";
  // In the proven copy, the indirect read is checked under the copy's own labels.
  EXPECT_NE(g.ptx.find("// cudaviz guard: copy of site"), std::string::npos);
  EXPECT_NE(g.ptx.find("l0_f_"), std::string::npos) << "a check in the proven copy";
  EXPECT_EQ(guard::count_marked_sites(g.ptx), g.memory_instructions);
}

TEST(GuardLoops, EdgeCasesAreProvenSoundlyOrLeftChecked) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  struct Case {
    const char* what;
    std::string body;
    bool proven;  // some access in a loop proven
  } cases[] = {
      {"a loop with no trip count (a search that may run off the end)",
       "  unsigned k = i;\n  while (data[k] != 0) ++k;\n  count[0] = k;", false},
      // Made from an integer, the pointer is generic (no space known): left checked.
      {"stores through a pointer made from an integer, in a loop",
       "  for (unsigned k = 0; k < (data.size & 31); ++k) reinterpret_cast<int*>(0x7f0000000000ull)[k + (i & 1)] = k;",
       false},
      // Proven in shape (a 16-byte step): the check before the loop finds the
      // base misaligned at run time and takes the guarded copy.
      {"float4 loads at a byte offset of 4 (misaligned every time)",
       "  float4 s = make_float4(0, 0, 0, 0);\n  const char* p = reinterpret_cast<const char*>(data.data) + 4;\n"
       "  for (unsigned k = 0; k < (data.size / 8); ++k) {\n    const float4 v = reinterpret_cast<const float4*>(p)[k];\n"
       "    s.x += v.x, s.y += v.y, s.z += v.z, s.w += v.w;\n  }\n"
       "  if (s.x + s.y + s.z + s.w == 1.5f) count[0] = 1;", true},
      {"float loads stepping one byte (never provably aligned)",
       "  float s = 0;\n  const char* p = reinterpret_cast<const char*>(data.data);\n"
       "  for (unsigned k = 0; k + 4 <= data.size; ++k) s += *reinterpret_cast<const float*>(p + k);\n"
       "  if (s == 1.5f) count[0] = 1;", false},
      {"a generic pointer chosen at run time (global or shared)",
       "  __shared__ int tile[64];\n  tile[threadIdx.x & 63] = 1;\n  __syncthreads();\n"
       "  const int* p = (i & 1) ? data.data : tile;\n  int s = 0;\n"
       "  for (unsigned k = 0; k < 32; ++k) s += p[k];\n  if (s == 5) count[0] = 1;", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const Both b = build(count3(c.body));
    ASSERT_TRUE(b.guarded.ok) << b.guarded.first_error() << b.guarded.error;
    const guard::GuardedPtx& g = b.guarded.guarded;
    EXPECT_EQ(g.guarded_instructions, g.memory_instructions);
    EXPECT_EQ(guard::count_marked_sites(g.ptx), g.memory_instructions);
    EXPECT_EQ(loop_proven_sites(g) > 0, c.proven) << g.ptx;
    EXPECT_FALSE(b.guarded.cubin.empty());
  }
}

// A loop with a barrier (a block tree) is versioned: threads of one block
// may take different copies, so both copies' barriers are the non-aligned
// `barrier.sync`, which counts arrivals per barrier whichever instruction
// they come from. The tree's `h /= 2` bounds its addresses (0 to the entry
// value): its reads and writes are proven. A warp shuffle may be met from
// two copies too; __activemask may not (its answer is which threads sit at
// the very same instruction): that loop is not versioned.
// A halving loop whose accesses every thread makes on every trip is proven
// once; with barriers in it, both copies meet at the non-aligned form.
TEST(GuardLoops, HalvingLoopsAreVersionedWithBarriersBothCopiesMeetAt) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  const Both b = build(count3(
      "  __shared__ unsigned s[512];\n  const unsigned t = threadIdx.x & 255;\n  s[t] = 1;\n  s[t + 256] = 0;\n"
      "  __syncthreads();\n"
      "  for (unsigned h = blockDim.x / 2; h > 0; h /= 2) {\n    const unsigned v = s[t + h];\n    __syncthreads();\n"
      "    s[t] += v;\n    __syncthreads();\n  }\n"
      "  unsigned v = s[0];\n  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);\n"
      "  if (t == 0) count[0] = v;"));
  ASSERT_TRUE(b.guarded.ok) << b.guarded.first_error();
  const guard::GuardedPtx& g = b.guarded.guarded;
  EXPECT_GE(g.loops_proven, 1u) << g.ptx;
  EXPECT_GE(loop_proven_sites(g), 2u) << "s[t] and s[t + h] in the loop: " << g.ptx;
  EXPECT_EQ(g.guarded_instructions, g.memory_instructions);
  // The raw kernel's bar.sync in the tree; in the guarded one, both copies' are barrier.sync.
  EXPECT_NE(b.raw.ptx.find("bar.sync"), std::string::npos);
  const size_t fast = g.ptx.find("_fast:"), after = g.ptx.find("_after:", fast);
  ASSERT_NE(fast, std::string::npos);
  const std::string copies = g.ptx.substr(fast, after - fast);
  EXPECT_NE(copies.find("barrier.sync"), std::string::npos) << copies;
  EXPECT_EQ(copies.find("bar.sync"), std::string::npos) << copies;
  EXPECT_FALSE(b.guarded.cubin.empty()) << "nvJitLink builds it";

  // A block tree (`if (t < h)` around its accesses): a thread makes them in
  // about one trip in all, cheaper fenced than proven; its barrier stays aligned.
  const Both tree = build(count3(
      "  __shared__ unsigned s[256];\n  const unsigned t = threadIdx.x & 255;\n  s[t] = 1;\n  __syncthreads();\n"
      "  for (unsigned h = blockDim.x / 2; h > 0; h /= 2) {\n    if (t < h) s[t] += s[t + h];\n    __syncthreads();\n  }\n"
      "  if (t == 0) count[0] = s[0];"));
  ASSERT_TRUE(tree.guarded.ok) << tree.guarded.first_error();
  EXPECT_EQ(tree.guarded.guarded.loops_proven, 0u) << tree.guarded.guarded.ptx;
  EXPECT_EQ(tree.guarded.guarded.guarded_instructions, tree.guarded.guarded.memory_instructions);
  EXPECT_NE(tree.guarded.guarded.ptx.find("bar.sync"), std::string::npos) << tree.guarded.guarded.ptx;
  EXPECT_EQ(tree.guarded.guarded.ptx.find("barrier.sync"), std::string::npos) << tree.guarded.guarded.ptx;

  const Both m = build(count3(
      "  __shared__ unsigned s[64];\n  s[threadIdx.x & 63] = 1;\n  __syncthreads();\n  unsigned v = 0;\n"
      "  for (unsigned k = threadIdx.x & 7; k < 60; k += 4) v += s[k] * __popc(__activemask());\n"
      "  if (v == 3) count[0] = v;"));
  ASSERT_TRUE(m.guarded.ok) << m.guarded.first_error();
  bool refused = false;
  const std::vector<guard::Piece> pieces = guard::split_ptx(m.raw.ptx);
  for (const guard::Loop& l : guard::find_loops(pieces, 0, pieces.size()))
    refused = refused || l.why_not.find("activemask") != std::string::npos;
  EXPECT_TRUE(refused) << m.raw.ptx;
  EXPECT_EQ(m.guarded.guarded.guarded_instructions, m.guarded.guarded.memory_instructions);
}

}  // namespace
}  // namespace cv::usercode

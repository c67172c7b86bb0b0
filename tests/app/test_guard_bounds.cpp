// Accesses proven by their bounds (docs/guard.md, bounds_proof.h) on NVRTC's
// own PTX: the index of a span under `i < span.size` (an if or a loop's
// condition) and of a static __shared__ array under the thread's index in
// its block (below blockDim's product, at most maxThreadsPerBlock) need no
// code; and every near miss keeps its check: an index one past the size,
// another span's size, an array smaller than a block, an index moved after
// its test, a signed comparison, an index read from memory.
#include <gtest/gtest.h>

#include <cstring>

#include "usercode/compile/compile.h"
#include "usercode/compile/jitlink.h"
#include "usercode/guard/ptx_loops.h"
#include "usercode/templates/template_registry.h"

namespace cv::usercode {
namespace {

bool nvrtc_missing() { return nvrtc_status().find("NVRTC 1") != 0; }

std::string count3(const std::string& body) {
  return "// template: count3\n"
         "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {\n"
         "  const unsigned long long i = cv::global_index();\n"
         "  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);\n"
         "  const unsigned nt = blockDim.x * blockDim.y * blockDim.z;\n" +
         body + "\n}\n";
}

CompileResult guarded(const std::string& src) {
  CompileRequest req;
  req.source = src;
  req.arch = "sm_90";
  req.guard = true;
  return compile(req);
}

// Sites of the student's line `line` and how many of them are proven by their bounds.
struct LineSites {
  size_t all = 0, bounded = 0, checked = 0;  // checked: neither bounded nor a named variable's fixed place
};
LineSites at_line(const guard::GuardedPtx& g, int line) {
  LineSites s;
  for (const guard::GuardSite& site : g.sites)
    if (site.line == line) ++s.all, s.bounded += site.bounds_proven, s.checked += !site.bounds_proven && !site.proven;
  return s;
}

TEST(GuardBounds, ABlockTreesAccessesNeedNoCode) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  const CompileResult r = guarded(count3(
      "  __shared__ unsigned hits[1024];\n"                                         // 6
      "  hits[t] = i < data.size && data[i] % 3 == 0;\n"                            // 7
      "  __syncthreads();\n"                                                        // 8
      "  unsigned p = 1;\n"                                                         // 9
      "  while (p < nt) p *= 2;\n"                                                  // 10
      "  for (unsigned s = p / 2; s > 0; s /= 2) {\n"                               // 11
      "    if (t < s && t + s < nt) hits[t] += hits[t + s];\n"                     // 12
      "    __syncthreads();\n"                                                      // 13
      "  }\n"                                                                       // 14
      "  if (t == 0 && hits[0]) atomicAdd(&count[0], (unsigned long long)hits[0]);"));  // 15
  ASSERT_TRUE(r.ok) << r.first_error() << r.error;
  const guard::GuardedPtx& g = r.guarded;
  EXPECT_EQ(at_line(g, 7).bounded, 2u) << g.ptx;  // data[i] under i < data.size, hits[t]
  EXPECT_EQ(at_line(g, 12).bounded, 3u) << g.ptx;  // hits[t] twice, hits[t + s] under t + s < nt
  EXPECT_EQ(g.bounds_proven_instructions, 5u);
  // count[0] is not under any bound: still checked.
  EXPECT_EQ(at_line(g, 15).checked, 1u);
  EXPECT_EQ(g.loops_proven, 0u) << "nothing left for a loop's check";
  EXPECT_EQ(g.grouped_instructions, 0u);
  EXPECT_FALSE(r.cubin.empty()) << "nvJitLink builds it";
}

TEST(GuardBounds, AGridStrideLoopBoundedByItsSpanRunsAsWritten) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  CompileRequest req;
  req.source = count3(
      "  unsigned long long s = 0;\n"
      "  for (unsigned long long k = i; k < data.size; k += cv::grid_threads()) s += data[k] % 3 == 0;\n"  // 7
      "  if (s) atomicAdd(&count[0], s);");
  req.arch = "sm_90";
  const CompileResult raw = compile(req);
  const CompileResult r = guarded(req.source);
  ASSERT_TRUE(raw.ok && r.ok) << r.first_error() << r.error;
  EXPECT_EQ(at_line(r.guarded, 7).bounded, at_line(r.guarded, 7).all) << r.guarded.ptx;
  EXPECT_GE(at_line(r.guarded, 7).all, 1u);
  EXPECT_EQ(r.guarded.loops_proven, 0u) << "no check before the loop, no second copy";
  const guard::LoopFigures a = guard::innermost_loop_figures(raw.ptx), b = guard::innermost_loop_figures(r.guarded.ptx);
  EXPECT_GT(a.instructions, 0u);
  EXPECT_EQ(b.instructions, a.instructions);
  EXPECT_EQ(b.branches, a.branches);
}

TEST(GuardBounds, ThreadIndexArraysFitOnlyWhenTheArrayHoldsABlock) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  // 1024 threads may run: a 1024-element array holds every t, a 256-element one does not.
  const CompileResult big = guarded(count3(
      "  __shared__ unsigned s[1024];\n  s[t] = t;\n  __syncthreads();\n"  // 6, 7
      "  if (s[nt - 1 - t] == 3) count[0] = 1;"));
  ASSERT_TRUE(big.ok) << big.first_error();
  EXPECT_EQ(at_line(big.guarded, 7).bounded, 1u) << big.guarded.ptx;
  const CompileResult small = guarded(count3(
      "  __shared__ unsigned s[256];\n  s[t] = t;\n  __syncthreads();\n"
      "  if (s[0] == 3) count[0] = 1;"));
  ASSERT_TRUE(small.ok) << small.first_error();
  EXPECT_EQ(at_line(small.guarded, 7).bounded, 0u) << small.guarded.ptx;
  EXPECT_EQ(at_line(small.guarded, 7).all, 1u);
}

TEST(GuardBounds, NearMissesKeepTheirChecks) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  // Each body's line 7 reads data[...] where the bound does not hold (or cannot be shown).
  for (const char* body : {
           // one past the end
           "  unsigned long long s = 0;\n  if (i <= data.size) s = data[i];\n  if (s == 7) count[0] = s;",
           // another span's size
           "  unsigned long long s = 0;\n  if (i < count.size) s = data[i];\n  if (s == 7) count[0] = s;",
           // the index moved after its test
           "  unsigned long long s = 0, j = i;\n  if (j < data.size) { j += 32; s = data[j]; }\n  if (s == 7) count[0] = s;",
           // a signed comparison: a negative index passes it
           "  int s = 0, k = int(i) - 5;\n  if (k < int(data.size)) s = data[k];\n  if (s == 7) count[0] = s;",
           // an index read from memory
           "  int s = 0;\n  if (i < data.size) s = data[data[i] & 0xffff];\n  if (s == 7) count[0] = s;",
           // a thread's index into a span (not bounded by its size)
           "  int s = 0;\n  s = data[t];\n  if (s == 7) count[0] = s;",
       }) {
    SCOPED_TRACE(body);
    const CompileResult r = guarded(count3(body));
    ASSERT_TRUE(r.ok) << r.first_error() << r.error;
    const LineSites l = at_line(r.guarded, 7);
    ASSERT_GE(l.all, 1u) << r.guarded.ptx;
    // The bounded read (data[i] under i < data.size) of the last-but-one body is
    // the only one allowed; the index read from memory is not.
    const size_t allowed = std::string(body).find("data[data[i]") != std::string::npos ? 1 : 0;
    EXPECT_EQ(l.bounded, allowed) << r.guarded.ptx;
  }
}

TEST(GuardBounds, TheFaultKernelsAreNotProven) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  // Far past the end under a real bound's test: the test speaks of i, the access of i + 2^32.
  const CompileResult r = guarded(count3(
      "  unsigned long long s = 0;\n  if (i < data.size) s = data[i + (1ull << 32)];\n  if (s == 7) count[0] = s;"));
  ASSERT_TRUE(r.ok) << r.first_error();
  EXPECT_EQ(at_line(r.guarded, 7).bounded, 0u) << r.guarded.ptx;
}


std::string reverse(const std::string& body) {
  return "// template: reverse\n"
         "extern \"C\" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {\n"
         "  const unsigned long long i = cv::global_index();\n" + body + "\n}\n";
}

// out has in's size (the template says so, make_launch holds it): out[i]
// under i < in.size is in range; in[n - 1 - i] is the mirror of an i below n,
// in[n - i] is not.
TEST(GuardBounds, TheMirrorIndexAndASpanOfTheSameSize) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  const CompileResult right = guarded(reverse("  if (i < in.size) out[i] = in[in.size - 1 - i];"));  // line 4
  ASSERT_TRUE(right.ok) << right.first_error();
  EXPECT_EQ(at_line(right.guarded, 4).bounded, 2u) << right.guarded.ptx;
  const CompileResult wrong = guarded(reverse("  if (i < in.size) out[i] = in[in.size - i];"));
  ASSERT_TRUE(wrong.ok) << wrong.first_error();
  EXPECT_EQ(at_line(wrong.guarded, 4).bounded, 1u) << "out[i] only";
  EXPECT_EQ(at_line(wrong.guarded, 4).checked, 1u) << wrong.guarded.ptx;
  const CompileResult other = guarded(reverse("  if (i < out.size) out[i] = in[out.size - 1 - i];"));
  ASSERT_TRUE(other.ok) << other.first_error();
  EXPECT_EQ(at_line(other.guarded, 4).bounded, 2u) << "either size bounds either span";
  const CompileResult past = guarded(reverse("  if (i < in.size) out[i + 1] = in[i];"));
  ASSERT_TRUE(past.ok) << past.first_error();
  EXPECT_EQ(at_line(past.guarded, 4).checked, 1u) << past.guarded.ptx;
}

// The reverse template gives every launch 4 bytes of extern shared memory a
// thread (make_launch holds it): s[t] and its mirror s[threads - 1 - t] are in
// range, and so is s[t + h] under t + h < threads; s[t + 1], a wider element
// (8 bytes a thread) or a template that gives none keep their checks.
TEST(GuardBounds, ExternSharedHoldsWhatTheTemplateGivesAThread) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  const std::string head =
      "  extern __shared__ int s[];\n"
      "  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);\n"  // 5
      "  const unsigned nt = blockDim.x * blockDim.y * blockDim.z;\n";                                 // 6
  struct Case {
    const char* body;  // line 7
    size_t bounded, checked;
  } cases[] = {
      {"  s[t] = 1; __syncthreads(); if (i < out.size) out[i] = s[nt - 1 - t];", 3, 0},
      {"  s[t] = 1; __syncthreads(); if (t + 3 < nt && i < out.size) out[i] = s[t + 3];", 3, 0},
      {"  s[t + 1] = 1; __syncthreads(); if (i < out.size) out[i] = s[t];", 2, 1},
      {"  reinterpret_cast<long long*>(s)[t] = 1; __syncthreads(); if (i < out.size) out[i] = s[t];", 2, 1},
      {"  s[nt - t] = 1; __syncthreads(); if (i < out.size) out[i] = s[t];", 2, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.body);
    const CompileResult r = guarded(reverse(head + c.body));
    ASSERT_TRUE(r.ok) << r.first_error() << r.error;
    EXPECT_EQ(at_line(r.guarded, 7).bounded, c.bounded) << r.guarded.ptx;
    EXPECT_EQ(at_line(r.guarded, 7).checked, c.checked) << r.guarded.ptx;
  }
  // count3 launches without extern shared memory: nothing to prove s[t] by.
  const CompileResult none = guarded(count3("  extern __shared__ unsigned s[];\n  s[t] = 1;"));  // 6, 7
  ASSERT_TRUE(none.ok) << none.first_error();
  EXPECT_EQ(at_line(none.guarded, 7).checked, 1u) << none.guarded.ptx;
}

// The launch gives what the template says, whatever the block: the proofs
// above rely on every launch having it.
TEST(GuardBounds, ExternSharedSaidToHoldBytesAThreadHoldsThem) {
  for (const char* name : {"reverse", "corelated", "sum3", "nbody_kernel"}) {
    SCOPED_TRACE(name);
    TemplateSpec t = *find_template(name);
    EXPECT_GT(t.shared_bytes_per_thread, 0u);
    for (const BlockShape b : {BlockShape{256, 1, 1}, BlockShape{7, 3, 2}, BlockShape{1, 1, 1}}) {
      Workload w = first_launch(t, 100, b);
      EXPECT_NO_THROW(make_launch(t, w, "m"));
      const LaunchRequest r = make_launch(t, w, "m");
      EXPECT_EQ(r.shape.dynamic_shared_bytes, t.shared_bytes_per_thread * r.shape.block[0] * r.shape.block[1] * r.shape.block[2]);
    }
  }
  TemplateSpec t = *find_template("reverse");
  t.shared_bytes_per_thread = 8;  // more than before: the launch follows
  const LaunchRequest r = make_launch(t, first_launch(t, 1000, BlockShape{256, 1, 1}), "m");
  EXPECT_EQ(r.shape.dynamic_shared_bytes, 8u * 256);
}

TEST(GuardBounds, ASpanSaidToHaveAnothersSizeHasIt) {
  TemplateSpec t = *find_template("reverse");
  Workload w = first_launch(t, 1000, BlockShape{256, 1, 1});
  EXPECT_NO_THROW(make_launch(t, w, "m"));
  for (ArgSpec& a : t.args)
    if (a.name == "out") a.span.size = [](const Workload& x) { return static_cast<unsigned long long>(x.n + 1); };
  EXPECT_THROW(make_launch(t, w, "m"), std::logic_error);
}


// The fountain's grid count is at most every particle span's size (the
// template says so; make_launch holds it): in[i] under i < g.count needs no
// check; under i < g.width it keeps one.
TEST(GuardBounds, AGridsCountBoundsTheParticleSpans) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  auto fountain = [](const std::string& cond) {
    return "// template: fountain_kernel\n"
           "extern \"C\" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,\n"
           "    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {\n"
           "  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (" + cond + ") { out[i] = in[i]; vy[i] = 1.f; }\n"  // line 5
           "}\n";
  };
  const CompileResult count = guarded(fountain("i < g.count"));
  ASSERT_TRUE(count.ok) << count.first_error() << count.error;
  EXPECT_EQ(at_line(count.guarded, 5).bounded, 3u) << count.guarded.ptx;
  const CompileResult width = guarded(fountain("i < g.width"));
  ASSERT_TRUE(width.ok) << width.first_error();
  EXPECT_EQ(at_line(width.guarded, 5).bounded, 0u) << width.guarded.ptx;
  EXPECT_EQ(at_line(width.guarded, 5).checked, 3u);
}

TEST(GuardBounds, AGridCountPastTheSpansIsNeverLaunched) {
  TemplateSpec t = *find_template("fountain_kernel");
  Workload w = first_launch(t, 4096, BlockShape{256, 1, 1});
  ASSERT_NO_THROW(make_launch(t, w, "m"));
  struct Grid {
    unsigned width, height, count;
  } g{64, 65, 4097};
  std::vector<char> bytes(sizeof g);
  std::memcpy(bytes.data(), &g, sizeof g);
  w.scalars["g"] = bytes;
  EXPECT_THROW(make_launch(t, w, "m"), std::logic_error);
}


// A bound a barrier's count writes (bar.red.popc) is a value like any other:
// an index compared with it before the barrier is not bounded after it.
TEST(GuardBounds, ARegisterABarrierWritesIsNotABound) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  const CompileResult r = guarded(count3(
      "  __shared__ unsigned s[1024];\n"
      "  unsigned k = t;\n"
      "  if (k < 1024) k = __syncthreads_count(k > 3) * 2;\n"  // line 8
      "  s[k] = 1;\n"                                          // line 9
      "  if (s[0] == 7) count[0] = 1;"));
  ASSERT_TRUE(r.ok) << r.first_error() << r.error;
  EXPECT_EQ(at_line(r.guarded, 9).bounded, 0u) << r.guarded.ptx;
}

}  // namespace
}  // namespace cv::usercode

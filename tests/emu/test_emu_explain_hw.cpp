// Explain as the hardware sees it: a vector access is one request of its
// width (sectors per request known analytically), shared memory named as the
// student named it, an access inside a helper placed at its line and the
// call's, and races grouped with one sentence per missing barrier.
#include <numeric>

#include "emu_test_util.h"
#include "usercode/emu/explain_json.h"
#include "usercode/emu/explain_races.h"
#include "usercode/emu/pc_lines.h"
#include "usercode/emu/shared_names.h"

namespace cv::emu::test {
namespace {

int line_of(const std::string& src, const std::string& marker) {
  const size_t at = src.find(marker);
  return at == std::string::npos ? 0 : 1 + static_cast<int>(std::count(src.begin(), src.begin() + at, '\n'));
}

const SectorLine* sector_line(const Explain& x, int line, int kind) {
  for (const SectorLine& s : x.sectors)
    if (s.line == line && s.kind == kind) return &s;
  return nullptr;
}

struct Vec4 {
  alignas(16) float v[4];
};
struct Int2 {
  alignas(8) int v[2];
};
struct Int4 {
  alignas(16) int v[4];
};

// n threads in blocks of 128; every line's requests are whole warps.
// long-function: one kernel of nine buffers and the table of its lines' known answers.
TEST(EmuExplainHw, VectorAccessesAreOneRequestOfTheirWidth) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<const float4> a, cv::Span<float4> b, cv::Span<const int> c,\n"
      "                              cv::Span<int> d, cv::Span<const int2> e, cv::Span<double> f,\n"
      "                              cv::Span<int4> g, cv::Span<const float3> h, cv::Span<float> o) {\n"
      "  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x, n = c.size;\n"
      "  b[i] = a[i];  // float4 copy\n"
      "  d[i] = c[i];  // int copy\n"
      "  const int2 v = e[i];  // int2 load\n"
      "  f[i] = v.x + v.y;  // double store\n"
      "  g[i] = make_int4(v.x, v.y, 0, 0);  // int4 store\n"
      "  o[i] = a[i].y;  // one member of a float4\n"
      "  const float3 p = h[i];  // float3 load\n"
      "  d[i] = c[(i * 8) % n] + c[n - 1 - i] + c[0] + static_cast<int>(p.x);  // strided, mirrored, broadcast\n"
      "}\n";
  Built bld = build_kernel(src, "k", "", true);
  ASSERT_TRUE(bld.module);
  const unsigned n = 1024, T = 128;
  std::vector<Vec4> a(n), b(n);
  std::vector<int> c(n), d(n);
  std::vector<Int2> e(n);
  std::vector<double> f(n);
  std::vector<Int4> g(n);
  std::vector<float> h(3 * n), o(n);
  std::iota(c.begin(), c.end(), 0);
  SpanArg<Vec4> sa{a.data(), n}, sb{b.data(), n};
  SpanArg<int> sc{c.data(), n}, sd{d.data(), n};
  SpanArg<Int2> se{e.data(), n};
  SpanArg<double> sf{f.data(), n};
  SpanArg<Int4> sg{g.data(), n};
  SpanArg<float> sh{h.data(), n}, so{o.data(), n};
  void* params[] = {&sa, &sb, &sc, &sd, &se, &sf, &sg, &sh, &so};
  const std::vector<usercode::BufferView> views = {
      view(a, "a", false), view(b, "b"), view(c, "c", false), view(d, "d"), view(e, "e", false),
      view(f, "f"),        view(g, "g"), {h.data(), h.size() * 4, 12, "h", false}, view(o, "o")};
  Options opt;
  opt.explain = true;
  const Report r = run(bld.kernel, shape(n / T, T), params, views, opt);
  ASSERT_TRUE(r.ok) << r.error;
  const Explain& x = *r.explain;
  const unsigned warps = n / 32;
  struct Want {
    const char* marker;
    int kind;
    unsigned bytes;
    double spr;
    unsigned long long requests;
  };
  // 32 lanes x W bytes, contiguous: W sectors (4, 8, 16); a float4's member:
  // 4 bytes at a 16-byte stride, 16 sectors; a float3: three 4-byte requests
  // over 384 bytes, 12 sectors each; ints 32 bytes apart: 32; mirrored ints:
  // the same 4 sectors; one int for every lane: 1.
  const Want want[] = {
      {"float4 copy", cv_emu::kRead, 16, 16, warps},   {"float4 copy", cv_emu::kWrite, 16, 16, warps},
      {"int copy", cv_emu::kRead, 4, 4, warps},        {"int copy", cv_emu::kWrite, 4, 4, warps},
      {"int2 load", cv_emu::kRead, 8, 8, warps},       {"double store", cv_emu::kWrite, 8, 8, warps},
      {"int4 store", cv_emu::kWrite, 16, 16, warps},   {"one member", cv_emu::kRead, 4, 16, warps},
      {"float3 load", cv_emu::kRead, 4, 12, 3 * warps},
  };
  for (const Want& w : want) {
    const SectorLine* s = sector_line(x, line_of(src, w.marker), w.kind);
    ASSERT_TRUE(s) << w.marker;
    EXPECT_EQ(s->bytes, w.bytes) << w.marker;
    EXPECT_DOUBLE_EQ(s->sectors_per_request, w.spr) << w.marker;
    EXPECT_EQ(s->requests, w.requests) << w.marker;
    EXPECT_DOUBLE_EQ(s->efficiency, std::min(1.0, w.bytes / w.spr)) << w.marker;
  }
  // The last line: c strided (32 sectors), mirrored (4), broadcast (1).
  const SectorLine* mix = sector_line(x, line_of(src, "strided"), cv_emu::kRead);
  ASSERT_TRUE(mix);
  EXPECT_EQ(mix->requests, 3ull * warps);
  EXPECT_EQ(mix->sectors, (32ull + 4 + 1) * warps);
}

TEST(EmuExplainHw, RepeatedLoadsInALoopAreHeldInRegisters) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<const int> in, cv::Span<unsigned long long> count) {\n"
      "  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  for (unsigned k = 0; k < 8; ++k)\n"
      "    if (in[i] + in[k] == 0) atomicAdd(&count[0], 1ull);  // in[i] again each pass\n"
      "}\n";
  Built bld = build_kernel(src, "k", "", true);
  ASSERT_TRUE(bld.module);
  std::vector<int> in(256, 1);
  std::vector<unsigned long long> count(1);
  SpanArg<const int> a{in.data(), in.size()};
  SpanArg<unsigned long long> c{count.data(), 1};
  void* params[] = {&a, &c};
  Options opt;
  opt.explain = true;
  const Report r = run(bld.kernel, shape(2, 128), params, {view(in, "in", false), view(count, "count")}, opt);
  ASSERT_TRUE(r.ok) << r.error;
  const SectorLine* s = sector_line(*r.explain, 4, cv_emu::kRead);
  ASSERT_TRUE(s);
  // in[k] (broadcast, 1 sector) 8 times a warp; in[i] (4 sectors) once: the
  // other 7 of every lane are the register's.
  EXPECT_EQ(s->requests, 8u * 9);
  EXPECT_EQ(s->sectors, 8u * (8 * 1 + 4));
  EXPECT_EQ(s->repeats, 7u * 256);
}

// Two half-warps walk one array a row apart (row 0 from element 1, row 1 from
// element 2, both to the end): a pass's two elements straddle a sector in one
// pass of eight in the source's order. NVVM unrolled such a loop by four with
// the remainder first (sum3_hoisted.cu): the rows then meet at the same
// element in every request of the body (Nsight Compute: 1.00, not 1.125).
TEST(EmuExplainHw, LanesMeetAsTheGpusCompilerUnrolledTheLoop) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<const int> in, cv::Span<int> out) {\n"
      "  int acc = 0;\n"
      "  for (unsigned i = threadIdx.x / 16 + 1; i < in.size; ++i)\n"
      "    acc += in[i];  // the walk\n"
      "  out[threadIdx.x] = acc;\n"
      "}\n";
  Built bld = build_kernel(src, "k", "", true);
  ASSERT_TRUE(bld.module);
  std::vector<int> in(34, 1), out(32);
  SpanArg<const int> a{in.data(), in.size()};
  SpanArg<int> o{out.data(), out.size()};
  void* params[] = {&a, &o};
  auto walk = [&](std::vector<UnrolledLoop> unrolled) {
    Options opt;
    opt.explain = true;
    opt.unrolled = std::move(unrolled);
    const Report r = run(bld.kernel, shape(1, 32), params, {view(in, "in", false), view(out, "out")}, opt);
    EXPECT_TRUE(r.ok) << r.error;
    const SectorLine* s = r.explain ? sector_line(*r.explain, 4, cv_emu::kRead) : nullptr;
    return s ? std::pair{s->requests, s->sectors} : std::pair{0ull, 0ull};
  };
  // Row 0 makes 33 passes, row 1 32. Source order: 32 shared requests, 4 of
  // them over two sectors (elements 7|8, 15|16, 23|24, 31|32), then row 0's last.
  EXPECT_EQ(walk({}), std::pair(33ull, 37ull));
  // Remainder last: the body's passes pair as the source's; row 0's 33rd alone.
  EXPECT_EQ(walk({{4, 4, false}}), std::pair(33ull, 37ull));
  // Remainder first: row 0's one remainder pass alone (element 1), then both
  // rows in step through elements 2..33: one sector a request.
  EXPECT_EQ(walk({{4, 4, true}}), std::pair(33ull, 33ull));
  // Another line's layout changes nothing here.
  EXPECT_EQ(walk({{5, 4, true}}), std::pair(33ull, 37ull));
}

// A load the loop repeats (in[0]) where the loop also makes an atomic: nvcc
// cannot keep it in a register across passes (the atomic may write it); in a
// loop it unrolled it loads it again in each pass of the remainder loop and at
// the start of each pass of the body (sum3_naive.cu on the H100: one load of
// v[a] per four trips). Without a store in the body it hoists it out.
TEST(EmuExplainHw, RepeatedLoadsAreLoadedAgainInEachPassOfAnUnrolledBodyThatStores) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<const int> in, cv::Span<unsigned long long> count) {\n"
      "  for (unsigned i = threadIdx.x / 16 + 1; i < in.size; ++i)\n"
      "    if (in[0] + in[i] == 0) atomicAdd(&count[0], 1ull);  // never taken: every in[] is 1\n"
      "}\n";
  Built bld = build_kernel(src, "k", "", true);
  ASSERT_TRUE(bld.module);
  std::vector<int> in(34, 1);
  std::vector<unsigned long long> count(1);
  SpanArg<const int> a{in.data(), in.size()};
  SpanArg<unsigned long long> c{count.data(), 1};
  void* params[] = {&a, &c};
  auto walk = [&](std::vector<UnrolledLoop> unrolled) {
    Options opt;
    opt.explain = true;
    opt.unrolled = std::move(unrolled);
    const Report r = run(bld.kernel, shape(1, 32), params, {view(in, "in", false), view(count, "count")}, opt);
    EXPECT_TRUE(r.ok) << r.error;
    const SectorLine* s = r.explain ? sector_line(*r.explain, 3, cv_emu::kRead) : nullptr;
    return s ? std::tuple{s->requests, s->sectors, s->repeats} : std::tuple{0ull, 0ull, 0ull};
  };
  // The walk: 33 requests of one sector (the rows meet, remainder first).
  // in[0] held: its first request only; 32 + 31 repeats a lane pair, 16 pairs.
  EXPECT_EQ(walk({{3, 4, true, false}}), std::tuple(34ull, 34ull, 1008ull));
  // Loaded again: row 0's remainder pass, then the 8 passes of the body (both
  // rows): 9 requests; each lane's other 24 loads are the register's.
  EXPECT_EQ(walk({{3, 4, true, true}}), std::tuple(42ull, 42ull, 768ull));
}

Explain explain_one_block(const std::string& src, unsigned threads, unsigned blocks = 1, unsigned dyn = 4096) {
  Built bld = build_kernel(src, "k", "", true);
  if (!bld.module) return {};
  std::vector<int> out(threads * blocks);
  std::vector<unsigned long long> sum(1);
  SpanArg<int> o{out.data(), out.size()};
  SpanArg<unsigned long long> s{sum.data(), 1};
  void* params[] = {&o, &s};
  Options opt;
  opt.explain = true;
  opt.source = src;
  const Report r = run(bld.kernel, shape(blocks, threads, 1, 1, dyn), params, {view(out, "out"), view(sum, "sum")}, opt);
  EXPECT_TRUE(r.ok) << r.error;
  return r.explain.value_or(Explain{});
}

TEST(EmuExplainHw, SharedArraysAreNamedAsWritten) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<int> out, cv::Span<unsigned long long> sum) {\n"
      "  extern __shared__ int s[];\n"
      "  __shared__ float tile[4][65];\n"
      "  const unsigned t = threadIdx.x;\n"
      "  s[t] = t;  // write s\n"
      "  out[t] = s[63 - t];  // read s\n"
      "  tile[2][t] = t;  // write tile\n"
      "  out[t] += tile[2][63 - t];  // read tile\n"
      "}\n";
  const Explain x = explain_one_block(src, 64);
  const RaceGroup* gs = nullptr;
  const RaceGroup* gt = nullptr;
  for (const RaceGroup& g : x.race_groups) {
    if (g.buffer == "s") gs = &g;
    if (g.buffer == "tile") gt = &g;
  }
  ASSERT_TRUE(gs && gt) << (x.race_groups.empty() ? "no groups" : x.race_groups[0].sentence);
  EXPECT_TRUE(gs->shared);
  EXPECT_EQ(gs->first.line, line_of(src, "write s"));
  EXPECT_EQ(gs->second.line, line_of(src, "read s"));
  EXPECT_EQ(gs->elements, 64u);
  EXPECT_NE(gs->sentence.find("64 threads wrote s[] at line 5 and others read it at line 6 with no __syncthreads() "
                              "between"),
            std::string::npos)
      << gs->sentence;
  // Element labels in the variable's own type and shape: s[0..63], tile[2][0..63].
  for (const Race& r : gs->instances) {
    EXPECT_EQ(r.element, "s[" + std::to_string(r.index) + "]");
    EXPECT_LT(r.index, 64);
  }
  for (const Race& r : gt->instances) {
    EXPECT_EQ(r.element.rfind("tile[2][", 0), 0u) << r.element;
    EXPECT_EQ(r.index / 65, 2);
  }
  // Who touched what names them too.
  bool saw_s = false;
  for (const Touch& t : x.touches) saw_s = saw_s || (t.shared && t.buffer == "s" && t.index == t.thread);
  EXPECT_TRUE(saw_s);
}

TEST(EmuExplainHw, AliasedExternArraysAreOneMemoryNamedByTheirLine) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<int> out, cv::Span<unsigned long long> sum) {\n"
      "  extern __shared__ float a[];\n"
      "  extern __shared__ int b[];\n"
      "  const unsigned t = threadIdx.x;\n"
      "  a[t] = 1.0f;  // through a\n"
      "  __syncthreads();\n"
      "  out[t] = b[63 - t];  // through b\n"
      "}\n";
  Built bld = build_kernel(src, "k", "", true);
  ASSERT_TRUE(bld.module);
  std::vector<int> out(64);
  std::vector<unsigned long long> sum(1);
  SpanArg<int> o{out.data(), out.size()};
  SpanArg<unsigned long long> s{sum.data(), 1};
  void* params[] = {&o, &s};
  Options opt;
  opt.explain = true;
  opt.source = src;
  const Report r = run(bld.kernel, shape(1, 64, 1, 1, 1024), params, {view(out, "out"), view(sum, "sum")}, opt);
  ASSERT_TRUE(r.ok) << r.error;
  float one = 1.0f;
  int bits = 0;
  std::memcpy(&bits, &one, 4);
  for (int v : out) EXPECT_EQ(v, bits);  // one block of memory, as on the GPU
  bool a_line = false, b_line = false;
  for (const Touch& t : r.explain->touches) {
    if (!t.shared) continue;
    if (t.line == line_of(src, "through a")) a_line = a_line || t.buffer == "a";
    if (t.line == line_of(src, "through b")) b_line = b_line || t.buffer == "b";
    EXPECT_NE(t.buffer, "cv_emu_dynamic_shared");
  }
  EXPECT_TRUE(a_line && b_line);
}

TEST(EmuExplainHw, HelpersArePlacedAtTheirLineAndTheCall) {
  const std::string header =
      "// a template's helper, as cudaviz_reduce.h's atomic_add\n"
      "__device__ inline void helper_add(unsigned long long* p) {\n"
      "  atomicAdd(p, 1ull);\n"
      "}\n";
  const std::string src =
      "__device__ __forceinline__ void put(cv::Span<int> o, unsigned i, int v) {\n"
      "  o[i] = v;  // put's store\n"
      "}\n"
      "__device__ __noinline__ int get(cv::Span<int> o, unsigned i) {\n"
      "  return o[i];  // get's load\n"
      "}\n"
      "extern \"C\" __global__ void k(cv::Span<int> out, cv::Span<unsigned long long> sum) {\n"
      "  const unsigned i = threadIdx.x;\n"
      "  put(out, i, get(out, i) + 1);  // the calls\n"
      "  atomicAdd(&sum[0], 1ull);  // direct atomic\n"
      "  helper_add(&sum[0]);  // the helper's atomic\n"
      "}\n";
  BuildRequest q;
  q.source = src;
  q.entries = {"k"};
  q.explain = true;
  q.headers = {{"cudaviz.h", emu_test::prelude::cudaviz_h}, {"cudaviz_helpers.h", header}};
  q.includes = {"cudaviz.h", "cudaviz_helpers.h"};
  const BuildResult b = build_module(q);
  ASSERT_TRUE(b.ok) << b.first_error() << b.log.substr(0, 2000);
  Module m(b.shared_object, true, "kernel.cu");
  std::vector<int> out(64);
  std::vector<unsigned long long> sum(1);
  SpanArg<int> o{out.data(), out.size()};
  SpanArg<unsigned long long> s{sum.data(), 1};
  void* params[] = {&o, &s};
  Options opt;
  opt.explain = true;
  const Report r = run(m.kernel("k"), shape(1, 64), params, {view(out, "out"), view(sum, "sum")}, opt);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(sum[0], 128u);
  const int calls = line_of(src, "the calls");
  const SectorLine* st = sector_line(*r.explain, line_of(src, "put's store"), cv_emu::kWrite);
  const SectorLine* ld = sector_line(*r.explain, line_of(src, "get's load"), cv_emu::kRead);
  ASSERT_TRUE(st && ld);
  EXPECT_EQ(st->call_line, calls);  // inlined: addr2line -i
  EXPECT_EQ(ld->call_line, calls);  // a call: the frame above it
  const SectorLine* direct = sector_line(*r.explain, line_of(src, "direct atomic"), cv_emu::kAtomic);
  const SectorLine* helper = sector_line(*r.explain, line_of(src, "the helper's atomic"), cv_emu::kAtomic);
  ASSERT_TRUE(direct && helper);  // at the student's lines, not the header's line 3
  EXPECT_EQ(direct->call_line, 0);
  EXPECT_EQ(helper->call_line, 0);
  EXPECT_EQ(sector_line(*r.explain, 3, cv_emu::kAtomic), nullptr);
}

TEST(EmuExplainHw, OneMissingBarrierIsOneGroup) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<int> out, cv::Span<unsigned long long> sum) {\n"
      "  extern __shared__ int s[];\n"
      "  const unsigned t = threadIdx.x;\n"
      "  s[t] = out[t];  // stage\n"
      "  out[t] = s[1023 - t];  // mirror\n"
      "}\n";
  const Explain x = explain_one_block(src, 1024);
  ASSERT_EQ(x.race_groups.size(), 1u);
  const RaceGroup& g = x.race_groups[0];
  EXPECT_EQ(x.racy_elements, 1024u);
  EXPECT_EQ(g.elements, 1024u);
  EXPECT_EQ(g.first_threads, 1024u);
  EXPECT_EQ(g.cause, RaceCause::NoBarrier);
  EXPECT_FALSE(g.lost_update);
  EXPECT_EQ(g.sentence,
            "1024 threads wrote s[] at line 4 and others read it at line 5 with no __syncthreads() between "
            "(1024 elements)");
  EXPECT_NE(g.fix.find("__syncthreads() between line 4 and line 5"), std::string::npos) << g.fix;
  EXPECT_EQ(g.instances.size(), kGroupInstances);
  EXPECT_LE(x.races.size(), kMaxRaces);
  // The JSON carries the groups and reads back.
  const Explain back = explain_from_json(nlohmann::json::parse(to_json(x).dump()));
  ASSERT_EQ(back.race_groups.size(), 1u);
  EXPECT_EQ(back.race_groups[0].sentence, g.sentence);
  EXPECT_EQ(back.race_groups[0].instances.size(), g.instances.size());
  EXPECT_EQ(back.race_groups[0].cause, g.cause);
}

TEST(EmuExplainHw, LostUpdatesAndOtherBlocksAreNamed) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<int> out, cv::Span<unsigned long long> sum) {\n"
      "  sum[0] += 1;  // plain update\n"
      "  if (threadIdx.x == 0) out[0] = blockIdx.x;  // each block's thread 0\n"
      "}\n";
  const Explain x = explain_one_block(src, 64, 4);
  const RaceGroup* lost = nullptr;
  const RaceGroup* blocks = nullptr;
  for (const RaceGroup& g : x.race_groups) {
    if (g.buffer == "sum") lost = &g;
    if (g.buffer == "out") blocks = &g;
  }
  ASSERT_TRUE(lost && blocks);
  EXPECT_TRUE(lost->lost_update);
  EXPECT_EQ(lost->first_threads, 256u);
  EXPECT_EQ(lost->cause, RaceCause::OtherBlocks);  // the widest its pairs show
  EXPECT_NE(lost->sentence.find("256 threads updated sum[0] at line 2 with a plain read and write, not an atomic"),
            std::string::npos)
      << lost->sentence;
  EXPECT_NE(lost->fix.find("atomicAdd"), std::string::npos);
  EXPECT_EQ(blocks->cause, RaceCause::OtherBlocks);
  EXPECT_FALSE(blocks->lost_update);
  EXPECT_NE(blocks->sentence.find("threads of other blocks wrote it at line 3"), std::string::npos) << blocks->sentence;
}

// ---- the pieces, without a compiler ----------------------------------------------

TEST(EmuExplainHw, Addr2lineFramesKeepTheStudentsLinesInnermostFirst) {
  const std::string out =
      "0x0000000000001234\n"
      "/tmp/x/cudaviz_emu.h:250\n"
      " (inlined by) /tmp/x/kernel.cu:14 (discriminator 2)\n"
      " (inlined by) /tmp/x/kernel.cu:27\n"
      " (inlined by) /tmp/x/cudaviz_emu_thunk.h:38\n"
      "0x0000000000001300\n"
      "??:0\n";
  const auto m = parse_addr2line(out, "kernel.cu");
  ASSERT_EQ(m.count(0x1234), 1u);
  EXPECT_EQ(m.at(0x1234), (std::vector<int>{14, 27}));
  EXPECT_TRUE(m.at(0x1300).empty());
}

TEST(EmuExplainHw, CallStacksAreWalkedOnlyInsideTheModule) {
  uintptr_t frames[8] = {};
  // Three frame records, each {caller's frame, return address}, at rising addresses.
  frames[0] = reinterpret_cast<uintptr_t>(&frames[2]), frames[1] = 0x1100;
  frames[2] = reinterpret_cast<uintptr_t>(&frames[4]), frames[3] = 0x1200;
  frames[4] = reinterpret_cast<uintptr_t>(&frames[6]), frames[5] = 0x9000;  // outside: the walk ends
  const TextRange text{0x1000, 0x2000};
  const CallStack s = walk_stack(reinterpret_cast<const void*>(0x1010), frames, text);
  EXPECT_EQ(s[0], 0x1010u);
  EXPECT_EQ(s[1], 0x1100u);
  EXPECT_EQ(s[2], 0x1200u);
  EXPECT_EQ(s[3], 0u);
  // A pc outside the module reads no frame at all.
  const CallStack outside = walk_stack(reinterpret_cast<const void*>(0x5000), nullptr, text);
  EXPECT_EQ(outside[1], 0u);
  const std::vector<Place> p = place_stacks({s}, {{0x1010, {14}}, {0x1100, {27, 27}}, {0x1200, {40}}});
  EXPECT_EQ(p[0].line, 14);
  EXPECT_EQ(p[0].call_line, 27);
}

TEST(EmuExplainHw, DwarfGivesEachSharedArraysElementAndShape) {
  const std::string text =
      " <1><65>: Abbrev Number: 2 (DW_TAG_base_type)\n"
      "    <66>   DW_AT_byte_size   : 4\n"
      "    <68>   DW_AT_name        : (indirect string, offset: 0): float\n"
      " <1><8e>: Abbrev Number: 9 (DW_TAG_base_type)\n"
      "    <8f>   DW_AT_byte_size   : 4\n"
      "    <91>   DW_AT_name        : int\n"
      " <1><9c>: Abbrev Number: 4 (DW_TAG_array_type)\n"
      "    <9d>   DW_AT_type        : <0x8e>\n"
      " <2><a5>: Abbrev Number: 10 (DW_TAG_subrange_type)\n"
      "    <aa>   DW_AT_upper_bound : 4095\n"
      " <2><ac>: Abbrev Number: 0\n"
      " <1><b4>: Abbrev Number: 11 (DW_TAG_variable)\n"
      "    <b5>   DW_AT_name        : s\n"
      "    <ba>   DW_AT_type        : <0x9c>\n"
      " <1><c0>: Abbrev Number: 12 (DW_TAG_const_type)\n"
      "    <c1>   DW_AT_type        : <0x65>\n"
      " <1><c9>: Abbrev Number: 4 (DW_TAG_array_type)\n"
      "    <ca>   DW_AT_type        : <0xc0>\n"
      " <2><d3>: Abbrev Number: 3 (DW_TAG_subrange_type)\n"
      "    <d8>   DW_AT_upper_bound : 15\n"
      " <2><d9>: Abbrev Number: 3 (DW_TAG_subrange_type)\n"
      "    <da>   DW_AT_count       : 17\n"
      " <2><db>: Abbrev Number: 0\n"
      " <2><e0>: Abbrev Number: 5 (DW_TAG_variable)\n"
      "    <e1>   DW_AT_name        : (indirect string, offset: 0x19): tile\n"
      "    <e7>   DW_AT_type        : <0xc9>\n"
      " <2><f0>: Abbrev Number: 5 (DW_TAG_variable)\n"
      "    <f1>   DW_AT_name        : other\n"
      "    <f7>   DW_AT_type        : <0x8e>\n";
  const auto shapes = parse_variable_shapes(text, {"s", "tile", "count"});
  ASSERT_EQ(shapes.size(), 2u);
  EXPECT_EQ(shapes.at("s").elem_bytes, 4u);
  EXPECT_EQ(shapes.at("s").dims, (std::vector<unsigned long long>{4096}));
  EXPECT_EQ(shapes.at("tile").elem_bytes, 4u);
  EXPECT_EQ(shapes.at("tile").dims, (std::vector<unsigned long long>{16, 17}));
  EXPECT_EQ(element_label("tile", 2 * 17 + 5, {16, 17}), "tile[2][5]");
  EXPECT_EQ(element_label("s", 9, {4096}), "s[9]");
  // A C name is not demangled ("s" would read as the type short) and an
  // element counts in the variable's own type, whatever the access's width.
  const SharedNamer namer({{2048, 16384, "s"}, {0, 16 * 17 * 4, "tile"}}, shapes, "");
  const SharedName n = namer.name(2048 + 12, 16, 0);
  EXPECT_EQ(n.element, "s[3]");
  EXPECT_EQ(namer.name(2 * 17 * 4 + 20, 4, 0).element, "tile[2][5]");
}

}  // namespace
}  // namespace cv::emu::test

// Explain with known answers: races (global and shared), sectors per request
// against the access model, divergence, who touched what.
#include <chrono>
#include <regex>

#include "emu_test_util.h"
#include "emu/reversal_model.h"
#include "usercode/emu/explain_json.h"

namespace cv::emu::test {
namespace {

int line_of(const std::string& src, const std::string& marker) {
  const size_t at = src.find(marker);
  return at == std::string::npos ? 0 : 1 + static_cast<int>(std::count(src.begin(), src.begin() + at, '\n'));
}

Explain explain_count3(const std::string& src, size_t n = 4096, unsigned block = 256) {
  Built b = build_kernel(src, "count3", "count3", true);
  if (!b.module) return {};
  std::vector<int> data(n);
  for (size_t i = 0; i < n; ++i) data[i] = static_cast<int>(i * 7);
  std::vector<unsigned long long> count(1, 0);
  SpanArg<const int> span{data.data(), data.size()};
  SpanArg<unsigned long long> c{count.data(), 1};  // also reads as a plain pointer
  void* params[] = {&span, &c};
  Options o;
  o.explain = true;
  const auto t0 = std::chrono::steady_clock::now();
  const Report r = run(b.kernel, shape(static_cast<unsigned>((n + block - 1) / block), block), params,
                       {view(data, "data", false), view(count, "count")}, o);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 2.0);
  EXPECT_TRUE(r.ok) << r.error;
  return r.explain.value_or(Explain{});
}

TEST(EmuExplain, RacyCountReportsTheRaceAtItsLine) {
  const std::string src = shipped("count3_racy.cu");
  const Explain x = explain_count3(src);
  ASSERT_FALSE(x.races.empty());
  const Race& r = x.races[0];
  EXPECT_EQ(r.buffer, "count");
  EXPECT_EQ(r.index, 0);
  EXPECT_FALSE(r.shared);
  const int line = line_of(src, "the race");
  EXPECT_EQ(r.first.line, line);
  EXPECT_EQ(r.second.line, line);
  EXPECT_TRUE(r.first.kind == cv_emu::kWrite || r.second.kind == cv_emu::kWrite);
  EXPECT_NE(r.sentence.find("race on count[0]: thread ("), std::string::npos) << r.sentence;
  EXPECT_NE(r.sentence.find("at line " + std::to_string(line)), std::string::npos) << r.sentence;
}

TEST(EmuExplain, AtomicAndSharedCountsHaveNoRace) {
  for (const char* f : {"count3_atomic.cu", "count3_shared.cu", "count3.cu"}) {
    const Explain x = explain_count3(shipped(f));
    EXPECT_TRUE(x.races.empty()) << f << ": " << (x.races.empty() ? "" : x.races[0].sentence);
    EXPECT_GT(x.events, 0u) << f;
  }
}

TEST(EmuExplain, SharedCountWithoutItsBarrierRacesInSharedMemory) {
  std::string src = shipped("count3_shared.cu");
  const size_t first = src.find("__syncthreads();");
  ASSERT_NE(first, std::string::npos);
  src.replace(first, 16, "                ");  // keep the lines where they were
  const Explain x = explain_count3(src);
  ASSERT_FALSE(x.races.empty());
  bool shared = false;
  for (const Race& r : x.races) shared = shared || (r.shared && r.buffer == "block_count");
  EXPECT_TRUE(shared) << x.races[0].sentence;
  EXPECT_EQ(x.races[0].first.who.block.x, x.races[0].second.who.block.x);  // shared: one block
}

// The reversal (document 001): the naive kernel reads mirrored; the tiled one
// stages a block's tile in shared memory. Sectors per request from the
// emulator's recorded addresses against the access model's count.
double model_spr(unsigned n, unsigned T, std::function<long long(unsigned b, unsigned t)> element) {
  return cv::test::model_sectors_per_request(n, T, element);
}

const SectorLine* sector_line(const Explain& x, int line, int kind) {
  for (const SectorLine& s : x.sectors)
    if (s.line == line && s.kind == kind) return &s;
  return nullptr;
}

TEST(EmuExplain, ReversalSectorsMatchTheAccessModel) {
  const std::string naive =
      "extern \"C\" __global__ void rev(cv::Span<const int> in, cv::Span<int> out) {\n"
      "  const unsigned long long i = cv::global_index(), n = in.size;\n"
      "  if (i < n) out[i] = in[n - 1 - i];\n"
      "}\n";
  const std::string tiled =
      "extern \"C\" __global__ void rev(cv::Span<const int> in, cv::Span<int> out) {\n"
      "  __shared__ int tile[1024];\n"
      "  const long long n = in.size, T = blockDim.x, t = threadIdx.x;\n"
      "  const long long out_base = blockIdx.x * T, in_base = n - out_base - T;\n"
      "  if (in_base + t >= 0) tile[T - 1 - t] = in[in_base + t];\n"
      "  __syncthreads();\n"
      "  if (out_base + t < n) out[out_base + t] = tile[t];\n"
      "}\n";
  for (unsigned n : {4096u, 4100u}) {
    const unsigned T = 128, G = (n + T - 1) / T;
    std::vector<int> in(n), out(n);
    std::iota(in.begin(), in.end(), 0);
    Options o;
    o.explain = true;
    auto explain = [&](const std::string& src) {
      Built b = build_kernel(src, "rev", "", true);
      SpanArg<const int> a{in.data(), n};
      SpanArg<int> c{out.data(), n};
      void* params[] = {&a, &c};
      const Report r = run(b.kernel, shape(G, T), params, {view(in, "in", false), view(out, "out")}, o);
      EXPECT_TRUE(r.ok) << r.error;
      for (unsigned i = 0; i < n; ++i) EXPECT_EQ(out[i], static_cast<int>(n - 1 - i));
      return r.explain.value_or(Explain{});
    };
    const Explain xn = explain(naive), xt = explain(tiled);
    auto guard = [n](long long e) { return e >= 0 && e < n ? e : -1; };
    const double naive_load = model_spr(n, T, [&](unsigned b, unsigned t) { return guard(n - 1 - (1ll * b * T + t)); });
    const double linear = model_spr(n, T, [&](unsigned b, unsigned t) { return guard(1ll * b * T + t); });
    const double tiled_load =
        model_spr(n, T, [&](unsigned b, unsigned t) { return guard(static_cast<long long>(n) - (b + 1ll) * T + t); });
    const SectorLine* nl = sector_line(xn, 3, cv_emu::kRead);
    const SectorLine* ns = sector_line(xn, 3, cv_emu::kWrite);
    const SectorLine* tl = sector_line(xt, 5, cv_emu::kRead);
    const SectorLine* ts = sector_line(xt, 7, cv_emu::kWrite);
    ASSERT_TRUE(nl && ns && tl && ts);
    EXPECT_DOUBLE_EQ(nl->sectors_per_request, naive_load) << n;
    EXPECT_DOUBLE_EQ(ns->sectors_per_request, linear) << n;
    EXPECT_DOUBLE_EQ(tl->sectors_per_request, tiled_load) << n;
    EXPECT_DOUBLE_EQ(ts->sectors_per_request, linear) << n;
    EXPECT_GE(nl->sectors_per_request, 4.0);
    EXPECT_TRUE(xn.races.empty() && xt.races.empty());
  }
}

TEST(EmuExplain, DivergenceCountsLanesEachWay) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<unsigned> out) {\n"
      "  const unsigned t = threadIdx.x;\n"
      "  if (t % 4 == 0) out[t] = 1;\n"
      "  else out[t] = 2;\n"
      "  if (blockIdx.x == 0) out[t] += 1;\n"
      "}\n";
  Built b = build_kernel(src, "k", "", true);
  ASSERT_TRUE(b.module);
  std::vector<unsigned> out(64);
  SpanArg<unsigned> o{out.data(), out.size()};
  void* params[] = {&o};
  Options opt;
  opt.explain = true;
  const Report r = run(b.kernel, shape(1, 64), params, {view(out, "out")}, opt);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_TRUE(r.explain);
  const Explain& x = *r.explain;
  const Branch* three = nullptr;
  const Branch* five = nullptr;
  for (const Branch& br : x.branches) {
    if (br.line == 3) three = &br;
    if (br.line == 5) five = &br;
  }
  ASSERT_TRUE(three && five);
  EXPECT_EQ(three->warps, 2u);
  EXPECT_EQ(three->divergent_warps, 2u);
  EXPECT_EQ(three->lanes_taken, 16u);
  EXPECT_EQ(three->lanes_not_taken, 48u);
  EXPECT_EQ(five->divergent_warps, 0u);
  EXPECT_EQ(five->lanes_taken, 64u);
  // Who touched what: thread 5 wrote out[5] (line 4) and read-modified it (line 5).
  bool wrote = false, read = false;
  for (const Touch& t : x.touches) {
    if (t.thread == 5 && t.index == 5 && t.kind == cv_emu::kWrite && t.line == 4) wrote = true;
    if (t.thread == 5 && t.index == 5 && t.kind == cv_emu::kRead && t.line == 5) read = true;
  }
  EXPECT_TRUE(wrote && read);
  // The JSON carries the fields and reads back.
  const nlohmann::ordered_json j = to_json(x);
  ASSERT_TRUE(j.contains("races") && j.contains("sectors_per_request") && j.contains("divergent_branches"));
  EXPECT_EQ(j["divergent_branches"].size(), 1u);
  const Explain back = explain_from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.touches.size(), x.touches.size());
  EXPECT_EQ(back.branches.size(), x.branches.size());
}

}  // namespace
}  // namespace cv::emu::test

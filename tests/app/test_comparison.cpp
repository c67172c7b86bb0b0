// Comparisons that say which way (bench/comparison.h): the words both ways and
// at equality, the spread of the reps, the guard's share, and which built-in is
// "the same algorithm" for the shipped kernels and for student-style kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "bench/comparison.h"
#include "ui/kernel_comparison.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::bench {
namespace {

TEST(ComparisonWords, SayWhichWay) {
  EXPECT_EQ(speed_words(3.8, 2.0, "tiled"), "1.90x slower than the built-in tiled");
  EXPECT_EQ(speed_words(1.0, 2.5, "shared"), "2.50x faster than the built-in shared");
  EXPECT_EQ(speed_words(2.0, 2.0, "fast"), "as fast as the built-in fast");
  // A ratio that prints as 1.00x is said as equal, never "1.00x slower".
  EXPECT_EQ(speed_words(1.004, 1.0, "naive"), "as fast as the built-in naive");
  EXPECT_EQ(speed_words(1.0, 1.004, "naive"), "as fast as the built-in naive");
  EXPECT_EQ(speed_words(1.006, 1.0, "naive"), "1.01x slower than the built-in naive");
  EXPECT_THROW(speed_words(0, 1, "naive"), std::invalid_argument);
  EXPECT_THROW(speed_words(1, -1, "naive"), std::invalid_argument);
}

TEST(ComparisonSpread, MinMedianMax) {
  const Spread s = spread_of({5, 1, 3, 2, 4});
  EXPECT_DOUBLE_EQ(s.min_ms, 1);
  EXPECT_DOUBLE_EQ(s.median_ms, 3);
  EXPECT_DOUBLE_EQ(s.max_ms, 5);
  EXPECT_EQ(s.reps, 5);
  EXPECT_DOUBLE_EQ(spread_of({4, 1, 2, 3}).median_ms, 2.5);
  EXPECT_EQ(spread_of({}).reps, 0);
  const nlohmann::ordered_json j = to_json(s);
  EXPECT_DOUBLE_EQ(j["max"].get<double>(), 5);
  EXPECT_NE(spread_words(s).find("min 1, max 5, 5 reps"), std::string::npos) << spread_words(s);
}

TEST(ComparisonGuard, ShareOfTheUnguardedTime) {
  ASSERT_TRUE(guard_percent(1.06, 1.0));
  EXPECT_NEAR(*guard_percent(1.06, 1.0), 6, 1e-9);
  EXPECT_EQ(guard_words(*guard_percent(1.06, 1.0)), "guard: +6%");
  EXPECT_EQ(guard_words(*guard_percent(2.94, 1.0)), "guard: +194%");
  EXPECT_EQ(guard_words(*guard_percent(0.99, 1.0)), "guard: -1%");
  EXPECT_EQ(guard_words(-0.2), "guard: +0%");
  EXPECT_FALSE(guard_percent(1.0, 0));
  EXPECT_FALSE(guard_percent(0, 1.0));
}

std::string shipped(const std::string& file) {
  const std::string dir = usercode::kernel_dir(test_config().paths);
  std::ifstream in(dir + "/" + file);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::optional<std::string> same_as(const std::string& target, const std::string& source,
                                   std::vector<std::string> measured = {}) {
  if (measured.empty())
    for (const BuiltinAlgorithm& b : builtin_algorithms(target)) measured.push_back(b.variant);
  return match_builtin(target, classify_kernel(source), measured).variant;
}

TEST(ComparisonMatch, ShippedKernels) {
  struct Case {
    const char* file;
    const char* target;
    std::optional<std::string> want;
  };
  const Case cases[] = {
      {"nbody_tiled.cu", "nbody", "tiled"},           {"nbody_allpairs.cu", "nbody", "original"},
      {"reverse_shared.cu", "reverse", "shared"},     {"reverse_naive.cu", "reverse", "naive"},
      {"reverse.cu", "reverse", "naive"},             {"count3_shared.cu", "count3", "shared_tree"},
      {"count3_atomic.cu", "count3", "atomic"},       {"count3_racy.cu", "count3", "racy"},
      {"reduce.cu", "reduce", "shared_tree"},         {"reduce_atomic.cu", "reduce", "atomic"},
      {"sum3_shared.cu", "sum3", "shared"},           {"corelated.cu", "corelated", "shared"},
      {"swarm_kernel.cu", "swarm", "swarm"},          {"fountain_kernel.cu", "fountain", "lean"},
      // naive and hoisted differ only in what sits in registers: not told apart.
      {"sum3_naive.cu", "sum3", std::nullopt},
  };
  for (const Case& c : cases) {
    const std::string src = shipped(c.file);
    ASSERT_FALSE(src.empty()) << c.file;
    EXPECT_EQ(same_as(c.target, src), c.want) << c.file << ": " << match_builtin(c.target, classify_kernel(src), {}).why;
  }
  // Only what was timed can be the match: pi's many (its fast is another plan).
  EXPECT_EQ(same_as("pi", shipped("pi.cu"), {"many", "fast"}), "many");
  EXPECT_EQ(same_as("nbody", shipped("nbody_tiled.cu"), {"original", "fast"}), std::nullopt);
}

TEST(ComparisonMatch, StudentStyleKernels) {
  // A tiled n-body with #pragma unroll and a dynamic shared array.
  const char* tiled = R"(// template: nbody_kernel
extern "C" __global__ void nbody_forces(cv::Span<const float4> pos, cv::Span<float3> acc, int n) {
  extern __shared__ float4 tile[];  /* the tile */
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float3 a = {0, 0, 0};
  for (int base = 0; base < n; base += blockDim.x) {
    tile[threadIdx.x] = pos[base + threadIdx.x];
    __syncthreads();
    #pragma unroll 4
    for (int j = 0; j < blockDim.x; ++j) a.x += tile[j].x;
    __syncthreads();
  }
  acc[i] = a;
})";
  EXPECT_EQ(same_as("nbody", tiled), "tiled");
  // A warp-shuffle reduction with one atomic per warp, grid-stride: the shuffle one.
  const char* shuffle = R"(
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  long long v = 0;
  unsigned long long stride = blockDim.x * gridDim.x;
  for (unsigned long long i = cv::global_index(); i < data.size; i += stride) v += data[i];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0) atomicAdd((unsigned long long*)&sum[0], (unsigned long long)v);
})";
  const KernelTraits k = classify_kernel(shuffle);
  EXPECT_TRUE(has(k.set, Trait::GridStride));
  EXPECT_TRUE(has(k.set, Trait::WarpShuffle));
  EXPECT_FALSE(has(k.set, Trait::BlockTree));  // no barrier in the shuffle loop
  EXPECT_EQ(same_as("reduce", shuffle), "warp_shuffle");
  // A block tree with __syncthreads in a halving while loop, then one atomic per block.
  const char* tree = R"(
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  __shared__ unsigned c[256];
  c[threadIdx.x] = data[blockIdx.x * blockDim.x + threadIdx.x] % 3 == 0;
  __syncthreads();
  unsigned s = blockDim.x / 2;
  while (s > 0) { if (threadIdx.x < s) c[threadIdx.x] += c[threadIdx.x + s]; __syncthreads(); s >>= 1; }
  if (threadIdx.x == 0) atomicAdd(&count[0], (unsigned long long)c[0]);
})";
  EXPECT_TRUE(has(classify_kernel(tree).set, Trait::BlockTree));
  EXPECT_EQ(same_as("count3", tree), "shared_tree");
  // Shared memory where the match has none is another algorithm: said, not guessed.
  const char* odd = R"(
extern "C" __global__ void nbody_forces(cv::Span<const float4> pos, cv::Span<float3> acc, int n) {
  __shared__ float4 me[256];
  me[threadIdx.x] = pos[threadIdx.x];
  acc[threadIdx.x].x = me[threadIdx.x].x;
})";
  const AlgorithmMatch m = match_builtin("nbody", classify_kernel(odd), {"original", "tiled", "fast"});
  EXPECT_FALSE(m.variant);
  EXPECT_NE(m.why.find("cannot tell"), std::string::npos) << m.why;
  // Words in comments and strings are not code.
  const KernelTraits quiet = classify_kernel("// __shared__ atomicAdd(\n/* __shfl_sync( */ const char* s = \"__syncthreads()\";");
  EXPECT_EQ(quiet.set, 0u);
}

TEST(ComparisonMatch, HostileSourcesAreReadInOnePass) {
  // 256 KiB shapes that cost a naive scan seconds (or a regex its stack): each
  // is classified, and what it holds is still seen.
  std::string nested, strides, unclosed;
  for (int i = 0; i < 10000; ++i) nested += "for(;;){__syncthreads();";
  for (int i = 0; i < 20000; ++i) strides += "x = gridDim.x ";
  for (int i = 0; i < 40000; ++i) unclosed += "for(;;" "atomicAdd(";
  EXPECT_TRUE(has(classify_kernel(nested).set, Trait::TileLoop));
  EXPECT_FALSE(has(classify_kernel(strides).set, Trait::GridStride));
  EXPECT_TRUE(has(classify_kernel(unclosed).set, Trait::Atomics));
  EXPECT_EQ(classify_kernel(std::string(200000, '(')).set, 0u);
}

TEST(ComparisonMatch, UnknownTargetOrNothingTimedCannotTell) {
  EXPECT_FALSE(same_as("no_such_lab", "__global__ void k() {}"));
  const AlgorithmMatch m = match_builtin("reverse", classify_kernel(""), {});
  EXPECT_FALSE(m.variant);
  EXPECT_NE(m.why.find("cannot tell"), std::string::npos);
  // On the CPU backend the built-ins are the CPU twins: said so.
  const AlgorithmMatch cpu = match_builtin("reverse", classify_kernel(shipped("reverse_shared.cu")), {"cpu", "cpu_threads"});
  EXPECT_FALSE(cpu.variant);
  EXPECT_NE(cpu.why.find("none timed here can be (cpu: the CPU twin, cpu_threads: the CPU twin)"), std::string::npos)
      << cpu.why;
}

TEST(ComparisonCells, LabsTableSpreadAndWords) {
  nlohmann::ordered_json yours = {{"ms_min", 1.0}, {"ms_median", 1.5}, {"ms_max", 4.0}};
  EXPECT_EQ(spread_cell(yours), "1.5 [1-4]");
  EXPECT_EQ(spread_cell({{"ms_min", 1.0}, {"ms_median", 1.5}}), "1.5 [min 1]");
  EXPECT_EQ(spread_cell(nlohmann::ordered_json::object()), "-");
  EXPECT_EQ(compare_cell(yours), "");  // a built-in's row: the caller shows its vs ratios
  yours["compare"]["lines"] = {"yours is 2.00x slower than the built-in tiled (same algorithm)", "guard: +5%"};
  EXPECT_EQ(compare_cell(yours), "yours is 2.00x slower than the built-in tiled (same algorithm); guard: +5%");
}

TEST(ComparisonLines, SameAlgorithmThenFastestThenGuard) {
  const KernelTraits tiled = classify_kernel(shipped("nbody_tiled.cu"));
  const Comparison c = compare("nbody", tiled, 4.0, {{"original", 8.0}, {"tiled", 2.0}, {"fast", 1.0}}, 4.0 / 3.8);
  ASSERT_TRUE(c.same_words);
  EXPECT_EQ(*c.same_words, "2.00x slower than the built-in tiled");
  ASSERT_TRUE(c.fastest_words);
  EXPECT_EQ(*c.fastest_words, "4.00x slower than the built-in fast");
  ASSERT_TRUE(c.guard);
  EXPECT_EQ(*c.guard, "guard: +5%");
  const std::vector<std::string> lines = c.lines();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "yours is 2.00x slower than the built-in tiled (same algorithm)");
  // The same algorithm is the fastest: one line, no second.
  const Comparison one = compare("nbody", tiled, 1.0, {{"original", 8.0}, {"tiled", 2.0}}, 0);
  EXPECT_FALSE(one.fastest_words);
  EXPECT_FALSE(one.guard);
  EXPECT_EQ(one.fastest_variant, "tiled");
  // No match: the reason, then the fastest only.
  const Comparison none = compare("sum3", classify_kernel(shipped("sum3_naive.cu")), 3.0,
                                  {{"naive", 3.0}, {"hoisted", 2.0}, {"fast", 0.5}});
  EXPECT_FALSE(none.same_words);
  ASSERT_EQ(none.lines().size(), 2u);
  EXPECT_NE(none.lines()[0].find("cannot tell whether yours is the built-in naive or hoisted"), std::string::npos);
  EXPECT_EQ(none.lines()[1], "yours is 6.00x slower than the built-in fast (fastest built-in)");
  const nlohmann::ordered_json j = to_json(none, classify_kernel(shipped("sum3_naive.cu")));
  EXPECT_TRUE(j["same_algorithm"].is_null());
  EXPECT_EQ(j["tied"].size(), 2u);
  EXPECT_EQ(j["vs_fastest"], "6.00x slower than the built-in fast");
}

TEST(KernelTabComparison, WordsFromTheScenesSteps) {
  KernelComparison k;
  const std::string tiled = shipped("nbody_tiled.cu");
  k.follow(tiled, "nbody", true);
  EXPECT_NE(k.lines().front().find("shows once yours steps"), std::string::npos);
  for (float ms : {1.0f, 0.5f, 0.6f}) k.builtin_step("fast", ms);
  for (float ms : {2.0f, 2.2f, 1.8f}) k.yours_step(ms);
  std::vector<std::string> l = k.lines();
  ASSERT_GE(l.size(), 3u);
  EXPECT_EQ(l[0], "yours: 2 ms (min 1.8, max 2.2, 3 steps) a step");
  EXPECT_NE(l[1].find("the same algorithm's built-in is tiled"), std::string::npos) << l[1];
  EXPECT_EQ(l[2], "yours is 3.33x slower than the built-in fast (fastest built-in timed here)");
  for (float ms : {1.0f, 1.0f}) k.builtin_step("tiled", ms);
  l = k.lines();
  EXPECT_EQ(l[1], "yours is 2.00x slower than the built-in tiled (same algorithm)");
  // The same text with the guard off: the guard's share appears.
  k.follow(tiled, "nbody", false);
  for (float ms : {1.6f, 1.6f, 1.6f}) k.yours_step(ms);
  l = k.lines();
  EXPECT_EQ(l.back(), "guard: +25% (this text's steps with the guard on and off)");
  // A new text forgets yours (both guard settings); the built-ins stay.
  k.follow(tiled + "\n", "nbody", true);
  EXPECT_NE(k.lines().front().find("shows once yours steps"), std::string::npos);
  k.yours_step(1.0f);
  EXPECT_EQ(k.lines()[1], "yours is as fast as the built-in tiled (same algorithm)");
  // The CPU backend: the built-in is the CPU twin, and the words say so.
  KernelComparison cpu;
  cpu.follow(tiled, "nbody", true, false);
  cpu.builtin_step("cpu", 2.0f);
  cpu.yours_step(8.0f);
  l = cpu.lines();
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[1], "the same algorithm's built-in is the GPU's tiled; on the CPU backend the built-in is the CPU twin");
  EXPECT_EQ(l[2], "yours is 4.00x slower than the built-in cpu (fastest built-in timed here)");
}

}  // namespace
}  // namespace cv::bench

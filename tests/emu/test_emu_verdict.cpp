// The verdict schedule (docs/emulator.md, "Races on the CPU as on the GPU"):
// a kernel that loses updates on a GPU loses them on the CPU in every one of
// ten verdict runs; race-free kernels keep their exact answers.
#include "emu_test_util.h"

namespace cv::emu::test {
namespace {

std::vector<int> data_of(size_t n) {
  std::vector<int> d(n);
  unsigned long long x = 99;
  for (auto& v : d) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    v = static_cast<int>(x >> 40) - (1 << 23);
  }
  return d;
}

// (data, result) kernels on n elements in blocks of 256; the result's first word.
unsigned long long run_lab(const Built& b, const std::vector<int>& data, bool verdict, std::string* path = nullptr) {
  std::vector<unsigned long long> result(1, 0);
  SpanArg<const int> d{data.data(), data.size()};
  SpanArg<unsigned long long> r{result.data(), 1};
  void* params[] = {&d, &r};
  Options o;
  o.verdict = verdict;
  const unsigned grid = static_cast<unsigned>((data.size() + 255) / 256);
  const Report rep = run(b.kernel, shape(grid, 256), params, {view(const_cast<std::vector<int>&>(data), "data", false), view(result, "result")}, o);
  EXPECT_TRUE(rep.ok) << rep.error;
  if (path) *path = rep.path;
  return result[0];
}

const char* kSharedTotal = R"(
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  __shared__ unsigned total;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  const unsigned long long i = cv::global_index();
  if (i < data.size && data[i] % 3 == 0) total += 1;  // no atomic: threads of a block race
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&count[0], static_cast<unsigned long long>(total));
}
)";

const char* kPlainBlockSum = R"(
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<unsigned long long> sum) {
  __shared__ long long part[256];
  const unsigned t = threadIdx.x;
  const unsigned long long i = cv::global_index();
  part[t] = i < data.size ? data[i] : 0;
  __syncthreads();
  for (unsigned h = blockDim.x / 2; h > 0; h /= 2) {
    if (t < h) part[t] += part[t + h];
    __syncthreads();
  }
  if (t == 0) sum[0] += static_cast<unsigned long long>(part[0]);  // no atomic: blocks race
}
)";

const char* kAtomicBlockSum = R"(
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<unsigned long long> sum) {
  __shared__ long long part[256];
  const unsigned t = threadIdx.x;
  const unsigned long long i = cv::global_index();
  part[t] = i < data.size ? data[i] : 0;
  __syncthreads();
  for (unsigned h = blockDim.x / 2; h > 0; h /= 2) {
    if (t < h) part[t] += part[t + h];
    __syncthreads();
  }
  if (t == 0) atomicAdd(&sum[0], static_cast<unsigned long long>(part[0]));
}
)";

unsigned long long count3_of(const std::vector<int>& d) {
  unsigned long long c = 0;
  for (int v : d) c += v % 3 == 0;
  return c;
}

unsigned long long sum_of(const std::vector<int>& d) {
  long long s = 0;
  for (int v : d) s += v;
  return static_cast<unsigned long long>(s);
}

TEST(EmuVerdict, RacyKernelsAreWrongInTenOfTenVerdictRuns) {
  const std::vector<int> data = data_of(20000);
  struct Racy {
    std::string src, entry;
    unsigned long long right;
  } racy[] = {{shipped("count3_racy.cu"), "count3", count3_of(data)},
              {kSharedTotal, "count3", count3_of(data)},
              {kPlainBlockSum, "reduce", sum_of(data)}};
  for (const Racy& r : racy) {
    SCOPED_TRACE(r.src);
    const Built b = build_kernel(r.src, r.entry, "", false, true);
    ASSERT_TRUE(b.module);
    for (int run = 0; run < 10; ++run) {
      std::string path;
      EXPECT_NE(run_lab(b, data, true, &path), r.right) << "verdict run " << run;
      EXPECT_EQ(path, "verdict");
    }
  }
}

TEST(EmuVerdict, RaceFreeKernelsKeepTheirAnswers) {
  const std::vector<int> data = data_of(20000);
  struct Right {
    std::string src, entry;
    unsigned long long right;
  } right[] = {{shipped("count3.cu"), "count3", count3_of(data)},
               {shipped("count3_shared.cu"), "count3", count3_of(data)},
               {shipped("count3_atomic.cu"), "count3", count3_of(data)},
               {kAtomicBlockSum, "reduce", sum_of(data)}};
  for (const Right& r : right) {
    SCOPED_TRACE(r.src);
    const Built b = build_kernel(r.src, r.entry, "", false, true);
    ASSERT_TRUE(b.module);
    for (int run = 0; run < 3; ++run) EXPECT_EQ(run_lab(b, data, true), r.right);
  }
}

TEST(EmuVerdict, AVerdictScheduleNeedsAVerdictBuild) {
  const Built b = build_kernel(shipped("count3.cu"), "count3");
  ASSERT_TRUE(b.module);
  std::vector<int> data = data_of(100);
  std::vector<unsigned long long> result(1, 0);
  SpanArg<const int> d{data.data(), data.size()};
  SpanArg<unsigned long long> r{result.data(), 1};
  void* params[] = {&d, &r};
  Options o;
  o.verdict = true;
  EXPECT_THROW(run(b.kernel, shape(1, 128), params, {view(data, "data", false), view(result, "result")}, o),
               std::invalid_argument);
}

}  // namespace
}  // namespace cv::emu::test

// Searches and shared counters in a thread's range loop (fission_reduce.h,
// docs/emulator.md): the fast copy ORs a search's condition over chunks and
// counts a shared element's updates in a local. Either way the fibers'
// answers; loops of other shapes are left as written; an access past the end
// is still named (the copy as written runs, which stops at the first hit).
#include "emu_test_util.h"

#include <cstring>

namespace cv::emu::test {
namespace {

Built checked_build(const std::string& src) { return build_kernel(src, "k", "", false, false, true); }

bool has(const Built& b, const char* text) { return b.build.fission.code.find(text) != std::string::npos; }

// k(in, out, n) on grid x block threads, `dyn` bytes of dynamic shared memory; the fast path or the fibers.
std::vector<unsigned> run_k(const Built& b, unsigned grid, unsigned block, std::vector<int> in, unsigned n,
                            bool fibers, unsigned dyn = 0, std::string* error = nullptr) {
  std::vector<unsigned> out(static_cast<size_t>(grid) * block, 0u);
  SpanArg<int> a{in.data(), in.size()};
  SpanArg<unsigned> o{out.data(), out.size()};
  void* params[] = {&a, &o, &n};
  Options opt;
  opt.force_fibers = fibers;
  const Report r = run(b.kernel, shape(grid, block, 1, 1, dyn), params, {view(in, "in", false), view(out, "out")}, opt);
  if (error) *error = r.ok ? "" : r.error;
  else EXPECT_TRUE(r.ok) << r.error;
  if (!fibers) EXPECT_EQ(r.path, "fission");
  return out;
}

int line_fault(const Built& b) {
  struct {
    int hit, line;
    long long index, size;
  } f{};
  if (b.module && b.module->fault_record()) std::memcpy(&f, b.module->fault_record(), sizeof f);
  return f.hit ? static_cast<int>(f.index) : -1;
}

std::vector<int> values(unsigned n) {
  std::vector<int> v(n);
  for (unsigned i = 0; i < n; ++i) v[i] = static_cast<int>((i * 37u) % 11u) - 5;
  return v;
}

// Thread t counts the elements past t that make a zero sum with in[t], into
// its own slot of a shared array; a barrier; thread t writes its slot.
const char* kCounter = R"(
extern "C" __global__ void k(cv::Span<const int> in, cv::Span<unsigned> out, unsigned n) {
  extern __shared__ unsigned slots[];
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned me = threadIdx.x;
  slots[me] = 7;
  __syncthreads();
  if (t < n) {
    const int a = in[t];
    for (unsigned i = t + 1; i < n; ++i)
      if (a + in[i] == 0) slots[me]++;
    for (unsigned i = 0; i < t; i++) {
      slots[me] += in[i] > a ? 2u : 0u;
      slots[me] -= 1;
    }
  }
  __syncthreads();
  out[t] = slots[me];
}
)";

std::vector<unsigned> counter_truth(const std::vector<int>& in, unsigned n, size_t threads) {
  std::vector<unsigned> out(threads, 7u);
  for (unsigned t = 0; t < n; ++t) {
    for (unsigned i = t + 1; i < n; ++i) out[t] += in[t] + in[i] == 0;
    for (unsigned i = 0; i < t; ++i) out[t] += (in[i] > in[t] ? 2u : 0u) - 1u;
  }
  return out;
}

TEST(EmuReduce, ASharedCounterCountsInALocalAndGivesTheFibersCounts) {
  const Built b = checked_build(kCounter);
  ASSERT_TRUE(b.module);
  EXPECT_TRUE(has(b, "cv_acc_")) << b.build.fission.code;
  for (unsigned n : {1u, 63u, 64u, 200u}) {  // one thread, a full block, a last block some threads skip
    SCOPED_TRACE("n = " + std::to_string(n));
    const unsigned grid = (n + 63) / 64;
    const std::vector<unsigned> fast = run_k(b, grid, 64, values(n), n, false, 64 * 4);
    EXPECT_EQ(fast, run_k(b, grid, 64, values(n), n, true, 64 * 4));
    EXPECT_EQ(fast, counter_truth(values(n), n, fast.size()));
  }
}

// The loop also reads the slot, updates two slots, or adds floats: left as
// written (a local would change what it reads, or the rounding).
TEST(EmuReduce, CountersTheLoopReadsOrThatAreNotOneIntegerSlotAreLeftAsWritten) {
  const char* reads = R"(
extern "C" __global__ void k(cv::Span<const int> in, cv::Span<unsigned> out, unsigned n) {
  __shared__ unsigned slots[64];
  const unsigned me = threadIdx.x;
  slots[me] = 0;
  for (unsigned i = 0; i < n; ++i)
    if (in[i] > static_cast<int>(slots[me])) slots[me]++;
  out[blockIdx.x * blockDim.x + me] = slots[me];
}
)";
  const char* two = R"(
extern "C" __global__ void k(cv::Span<const int> in, cv::Span<unsigned> out, unsigned n) {
  __shared__ unsigned slots[128];
  const unsigned me = threadIdx.x;
  slots[me] = 0, slots[me + 64] = 0;
  for (unsigned i = 0; i < n; ++i) {
    slots[me] += in[i] > 0;
    slots[me + 64] += in[i] < 0;
  }
  out[blockIdx.x * blockDim.x + me] = slots[me] * 1000 + slots[me + 64];
}
)";
  const char* floats = R"(
extern "C" __global__ void k(cv::Span<const int> in, cv::Span<unsigned> out, unsigned n) {
  __shared__ float sums[64];
  const unsigned me = threadIdx.x;
  sums[me] = 0.f;
  for (unsigned i = 0; i < n; ++i) sums[me] += 0.1f * in[i];
  out[blockIdx.x * blockDim.x + me] = static_cast<unsigned>(sums[me] * 1000.f);
}
)";
  for (const char* src : {reads, two, floats}) {
    const Built b = checked_build(src);
    ASSERT_TRUE(b.module);
    EXPECT_FALSE(has(b, "cv_acc_")) << b.build.fission.code;
    EXPECT_EQ(run_k(b, 2, 64, values(150), 150, false), run_k(b, 2, 64, values(150), 150, true));
  }
}

// Thread t looks for key t % 7 - 3 among in[0..m), m = n + t % 5 capped at the
// size; on a hit it counts and stops. Hits at the first element, inside the
// first chunk, at a chunk's edge, past it, and never.
const char* kSearch = R"(
extern "C" __global__ void k(cv::Span<const int> in, cv::Span<unsigned> out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const int key = static_cast<int>(t % 7) - 3;
  const unsigned m = n + t % 5 < in.size ? n + t % 5 : static_cast<unsigned>(in.size);
  unsigned found = 100;
  for (unsigned y = 0; y < m; ++y) {
    const int v = in[y];
    if (v == key) {
      found += 10;
      out[t] = found;
      break;
    }
  }
  if (found == 100) out[t] = 1;
}
)";

std::vector<int> with_key_at(unsigned size, unsigned at, int key) {
  std::vector<int> v(size, 99);
  if (at < size) v[at] = key;
  return v;
}

TEST(EmuReduce, ASearchOrsItsConditionInChunksAndGivesTheFibersAnswer) {
  const Built b = checked_build(kSearch);
  ASSERT_TRUE(b.module);
  EXPECT_TRUE(has(b, "cv_hit_")) << b.build.fission.code;
  for (unsigned at : {0u, 5u, 63u, 64u, 65u, 130u, 1000u}) {
    SCOPED_TRACE("key at " + std::to_string(at));
    const std::vector<int> in = with_key_at(200, at, 0);  // threads with key 0: t % 7 == 3
    const std::vector<unsigned> fast = run_k(b, 2, 64, in, 190, false);
    EXPECT_EQ(fast, run_k(b, 2, 64, in, 190, true));
    for (unsigned t = 0; t < fast.size(); ++t) {
      const unsigned m = std::min(190u + t % 5, 200u);
      EXPECT_EQ(fast[t], t % 7 == 3 && at < m ? 110u : 1u) << "thread " << t;
    }
  }
}

// A hit the statements after it read the index of, a search that leaves the
// thread or has an else: left as written, the fibers' answers.
TEST(EmuReduce, SearchesWhoseHitNeedsTheIndexOrLeavesTheThreadAreLeftAsWritten) {
  const char* index = R"(
extern "C" __global__ void k(cv::Span<const int> in, cv::Span<unsigned> out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned at = 0;
  for (unsigned y = 0; y < n; ++y)
    if (in[y] == static_cast<int>(t % 7)) {
      at = y + 1;
      break;
    }
  out[t] = at;
}
)";
  const char* leaves = R"(
extern "C" __global__ void k(cv::Span<const int> in, cv::Span<unsigned> out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = 5;
  for (unsigned y = 0; y < n; ++y)
    if (in[y] == static_cast<int>(t % 7)) {
      out[t] = 9;
      return;
    }
}
)";
  for (const char* src : {index, leaves}) {
    const Built b = checked_build(src);
    ASSERT_TRUE(b.module);
    EXPECT_FALSE(has(b, "cv_hit_")) << b.build.fission.code;
    const std::vector<int> in = values(150);
    EXPECT_EQ(run_k(b, 2, 64, in, 150, false), run_k(b, 2, 64, in, 150, true));
  }
}

// A search one step past the end: the test before the loop fails, the loop
// runs as written. A key found before the end leaves it without a fault (the
// OR over the range would have read past it); a key never found reaches the
// end, and the access is named with its index.
TEST(EmuReduce, ASearchPastTheEndStopsAtItsHitAndOtherwiseIsNamed) {
  const char* src = R"(
extern "C" __global__ void k(cv::Span<const int> in, cv::Span<unsigned> out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned found = 0;
  for (unsigned y = 0; y < n + 1; ++y)
    if (in[y] == 0) {
      ++found;
      break;
    }
  out[t] = found;
}
)";
  const Built b = checked_build(src);
  ASSERT_TRUE(b.module);
  EXPECT_TRUE(has(b, "cv_hit_")) << b.build.fission.code;
  const std::vector<unsigned> hit = run_k(b, 1, 64, with_key_at(100, 40, 0), 100, false);
  EXPECT_EQ(hit, std::vector<unsigned>(64, 1u));
  EXPECT_EQ(line_fault(b), -1);
  std::string error;
  run_k(b, 1, 64, with_key_at(100, 1000, 0), 100, false, 0, &error);
  EXPECT_EQ(line_fault(b), 100) << error;
}

}  // namespace
}  // namespace cv::emu::test

#include "usercode/emu/sync_cost.h"

#include <time.h>

#include <algorithm>
#include <vector>

#include "usercode/emu/build.h"
#include "usercode/emu/emu.h"

namespace cv::emu {
namespace {

constexpr const char* kSource = R"(
extern "C" __global__ void barrier_rounds(unsigned* out, unsigned rounds) {
  unsigned v = threadIdx.x;
  for (unsigned r = 0; r < rounds; ++r) {
    __syncthreads();
    v += r;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
extern "C" __global__ void shuffle_rounds(unsigned* out, unsigned rounds) {
  unsigned v = threadIdx.x;
  for (unsigned r = 0; r < rounds; ++r) v += __shfl_xor_sync(0xffffffffu, v, 1 + r % 31);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
)";

// One block runs on the calling thread (a one-block launch is not shared
// out), timed by that thread's CPU clock: the cost per emulated thread, not
// disturbed by other processes on a busy machine.
constexpr unsigned kBlock = 256, kBlocks = 1, kRounds = 1000;

double thread_cpu_ms() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

double best_ms(const Kernel& k, unsigned rounds, std::vector<unsigned>& out) {
  usercode::LaunchShape s;
  s.grid[0] = kBlocks;
  s.block[0] = kBlock;
  unsigned* p = out.data();
  void* params[] = {&p, &rounds};
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    const double t0 = thread_cpu_ms();
    run(k, s, params, {}, {});
    best = std::min(best, thread_cpu_ms() - t0);
  }
  return best;
}

}  // namespace

SyncCosts measure_sync_costs(const std::string& cxx, const std::string& tmpdir) {
  SyncCosts c;
  BuildRequest q;
  q.source = kSource;
  q.entries = {"barrier_rounds", "shuffle_rounds"};
  q.cxx = cxx;
  q.tmpdir = tmpdir;
  const BuildResult b = build_module(q);
  if (!b.ok) {
    c.error = b.first_error();
    return c;
  }
  Module m(b.shared_object);
  std::vector<unsigned> out(kBlock * kBlocks);
  const double per = 1e6 / (static_cast<double>(kBlock) * kBlocks * kRounds);  // ms -> ns per thread-round
  const Kernel bar = m.kernel("barrier_rounds"), shf = m.kernel("shuffle_rounds");
  c.barrier_ns_per_thread = std::max(0.0, best_ms(bar, kRounds, out) - best_ms(bar, 0, out)) * per;
  c.shuffle_ns_per_thread = std::max(0.0, best_ms(shf, kRounds, out) - best_ms(shf, 0, out)) * per;
  c.threads = kBlock * kBlocks;
  c.rounds = kRounds;
  return c;
}

}  // namespace cv::emu

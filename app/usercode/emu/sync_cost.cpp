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

double best_ms(const Kernel& k, unsigned rounds, std::vector<unsigned>& out, bool fibers) {
  usercode::LaunchShape s;
  s.grid[0] = kBlocks;
  s.block[0] = kBlock;
  unsigned* p = out.data();
  void* params[] = {&p, &rounds};
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    const double t0 = thread_cpu_ms();
    Options o;
    o.force_fibers = fibers;
    run(k, s, params, {}, o);
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
  auto cost = [&](const Kernel& k, bool fibers) {
    return std::max(0.0, best_ms(k, kRounds, out, fibers) - best_ms(k, 0, out, fibers)) * per;
  };
  c.barrier_ns_per_thread = cost(bar, false);
  c.shuffle_ns_per_thread = cost(shf, false);
  c.fiber_barrier_ns_per_thread = cost(bar, true);
  c.fiber_shuffle_ns_per_thread = cost(shf, true);
  c.threads = kBlock * kBlocks;
  c.rounds = kRounds;
  return c;
}

}  // namespace cv::emu

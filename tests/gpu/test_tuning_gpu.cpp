// Tuning on a real device: the occupancy model against
// cudaOccupancyMaxActiveBlocksPerMultiprocessor for every kernel the panels
// show, the suggestion, the device report against cudaDeviceProp, the copy
// bandwidth, and a fountain sweep giving one row per shape. Skipped without a
// device (never passed).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "bench/bench.h"
#include "common/device_report.h"
#include "common/occupancy.h"
#include "common/occupancy_cuda.h"
#include "fountain/fountain.h"
#include "gpu/gpu_test_util.h"
#include "labs/pi/pi.h"
#include "labs/pi/pi_points.h"
#include "labs/reverse/reverse.h"
#include "labs/sum3/sum3.h"
#include "nbody/nbody.h"
#include "swarm/swarm.h"
#include "tuning/copy_bandwidth.h"
#include "tuning/sweep.h"

using namespace cv;

namespace {

std::vector<KernelAttributes> all_kernels() {
  std::vector<KernelAttributes> k = {
      fountain::kernel_attributes(fountain::Variant::Lean),
      fountain::kernel_attributes(fountain::Variant::Original),
      swarm::kernel_attributes(),
      nbody::kernel_attributes(nbody::Variant::Original, {256, 1, 1}),
      nbody::kernel_attributes(nbody::Variant::Tiled, {256, 1, 1}),
      nbody::kernel_attributes(nbody::Variant::Fast, {256, 1, 1}),
      nbody::kernel_attributes(nbody::Variant::Fast, {1024, 1, 1}),
      pi::points_kernel_attributes(),
  };
  for (auto v : sum3::all_variants())
    if (auto a = sum3::kernel_attributes(v)) k.push_back(*a);
  for (auto v : reverse::all_variants())
    if (auto a = reverse::kernel_attributes(v)) k.push_back(*a);
  for (auto v : pi::all_variants())
    if (auto a = pi::kernel_attributes(v)) k.push_back(*a);
  return k;
}

KernelUsage usage_of(const KernelAttributes& a, int threads) {
  KernelUsage u;
  u.regs_per_thread = a.regs_per_thread;
  u.static_shared = a.static_shared_bytes;
  u.dynamic_shared = a.dynamic_shared.bytes(threads);
  u.max_threads_per_block = a.max_threads_per_block;
  return u;
}

}  // namespace

TEST(TuningGpu, DeviceReportMatchesCudaDeviceProp) {
  CV_REQUIRE_GPU();
  const DeviceReport& d = device_report();
  ASSERT_TRUE(d.available) << d.unavailable_reason;
  cudaDeviceProp p{};
  CV_CUDA(cudaGetDeviceProperties(&p, 0));
  EXPECT_EQ(d.name, p.name);
  EXPECT_EQ(d.cc_major, p.major);
  EXPECT_EQ(d.sm_count, p.multiProcessorCount);
  EXPECT_EQ(d.max_threads_per_sm, p.maxThreadsPerMultiProcessor);
  EXPECT_EQ(d.max_blocks_per_sm, p.maxBlocksPerMultiProcessor);
  EXPECT_EQ(d.regs_per_sm, p.regsPerMultiprocessor);
  EXPECT_EQ(d.regs_per_block, p.regsPerBlock);
  EXPECT_EQ(d.shared_per_sm, static_cast<long long>(p.sharedMemPerMultiprocessor));
  EXPECT_EQ(d.reserved_shared_per_block, static_cast<long long>(p.reservedSharedMemPerBlock));
  EXPECT_EQ(d.mem_bus_bits, p.memoryBusWidth);
  EXPECT_GT(d.clock_khz, 0);
  EXPECT_GT(d.mem_clock_khz, 0);
  std::cout << "device rows:\n";
  for (const auto& [k, v] : device_rows(d)) std::cout << "  " << k << ": " << v << "\n";
}

TEST(TuningGpu, ModelMatchesCudaOccupancyForEveryPanelKernel) {
  CV_REQUIRE_GPU();
  const OccupancyDevice dev = to_occupancy_device(device_report());
  int compared = 0;
  for (const KernelAttributes& a : all_kernels()) {
    ASSERT_TRUE(a.ok) << a.error;
    EXPECT_GT(a.regs_per_thread, 0) << a.name;
    for (int threads : {1, 17, 32, 64, 96, 128, 192, 256, 320, 384, 512, 640, 768, 1024}) {
      if (threads > a.max_threads_per_block) continue;  // the kernel cannot launch it at all
      const Occupancy o = occupancy_model(dev, usage_of(a, threads), threads);
      const CudaAnswer c = cuda_active_blocks_per_sm(a, threads);
      ASSERT_TRUE(c.ok) << c.error;
      EXPECT_EQ(o.blocks_per_sm, c.value)
          << a.name << " at " << threads << " threads: " << a.regs_per_thread << " regs, "
          << a.static_shared_bytes << " B static + " << a.dynamic_shared.bytes(threads)
          << " B dynamic shared; model: " << explain(o, dev);
      ++compared;
    }
    std::cout << a.name << ": " << a.regs_per_thread << " regs, " << a.static_shared_bytes
              << " B static shared, max " << a.max_threads_per_block
              << " threads; at 256: " << explain(occupancy_model(dev, usage_of(a, 256), 256), dev)
              << "\n";
  }
  EXPECT_GT(compared, 100);
}

TEST(TuningGpu, SuggestionHasTheModelsHighestOccupancy) {
  CV_REQUIRE_GPU();
  const OccupancyDevice dev = to_occupancy_device(device_report());
  for (const KernelAttributes& a : {fountain::kernel_attributes(fountain::Variant::Lean),
                                    nbody::kernel_attributes(nbody::Variant::Tiled, {256, 1, 1})}) {
    const CudaAnswer s = cuda_suggest_block_threads(a);
    ASSERT_TRUE(s.ok) << s.error;
    ASSERT_GT(s.value, 0);
    ASSERT_LE(s.value, a.max_threads_per_block);
    const double best = occupancy_model(dev, usage_of(a, s.value), s.value).occupancy;
    for (int t = 32; t <= a.max_threads_per_block; t += 32)
      EXPECT_LE(occupancy_model(dev, usage_of(a, t), t).occupancy, best + 1e-12)
          << a.name << ": " << t << " threads beat the suggested " << s.value;
  }
}

TEST(TuningGpu, CopyBandwidthIsBelowTheTheoreticalPeak) {
  CV_REQUIRE_GPU();
  // A bandwidth floor means nothing under compute-sanitizer, beside other processes.
  if (cv::sanitizer_run()) GTEST_SKIP() << "a performance check: not run under the sanitizers";
  const tuning::CopyBandwidth b = tuning::measure_copy_bandwidth(256ll << 20, 5);
  const double peak = peak_memory_gb_per_s(device_report());
  std::cout << "copy: " << b.gb_per_s << " GB/s of a theoretical " << peak << " GB/s\n";
  EXPECT_GT(b.gb_per_s, 0.1 * peak);
  EXPECT_LT(b.gb_per_s, 1.05 * peak);
}

TEST(TuningGpu, FountainSweepGivesOneRowPerShape) {
  CV_REQUIRE_GPU();
  SweepOptions o;
  o.target = "fountain";
  o.backend = "cuda";
  o.shapes = tuning::parse_shape_list(tuning::kDefaultShapes);
  // Sanitizer run: the 1x1 shape makes a block a particle, and racecheck keeps
  // host memory for every block it ran (~40 KB each): 4096 particles, 2 reps.
  o.n = cv::sanitizer_run() ? 1 << 12 : 1 << 20;
  o.reps = cv::sanitizer_run() ? 2 : 20;
  const std::string path = ::testing::TempDir() + "tuning_sweep_fountain_gpu.csv";
  o.csv = path;
  std::ostringstream out, err;
  ASSERT_EQ(tuning::run_sweep(o, out, err), 0) << err.str();
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), o.shapes.size() + 1);
  for (size_t i = 1; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].rfind("fountain,lean,cuda,", 0), 0u) << lines[i];
    EXPECT_NE(lines[i].find(",ok,"), std::string::npos) << lines[i];
  }
  std::cout << out.str();
}

// What the "see inside the kernel" views draw, checked against what the GPU
// kernels themselves report: the block/warp/lane ids the particle kernels write
// equal the launch map's model, and the stoppable reduction's values after
// every step equal the CPU model of that step.
#include <gtest/gtest.h>

#include <map>

#include "common/cuda_check.h"
#include "common/cuda_resources.h"
#include "fountain/fountain.h"
#include "gpu/gpu_test_util.h"
#include "insight/launch_model.h"
#include "insight/tree_steps.h"
#include "insight/tree_steps_gpu.h"
#include "nbody/nbody.h"
#include "swarm/swarm.h"

using namespace cv;
using namespace cv::insight;

namespace {

std::vector<uint32_t> download(const DeviceBuffer<uint32_t>& b) {
  std::vector<uint32_t> h(b.size());
  CV_CUDA(cudaDeviceSynchronize());  // the kernels ran on non-blocking streams
  CV_CUDA(cudaMemcpy(h.data(), b.get(), b.bytes(), cudaMemcpyDeviceToHost));
  return h;
}

// Every element's id from the kernel equals the model's, in every mode; with
// `sm`, all threads of a block report one SM.
template <class Step>
void check_ids(const ElementLaunch& l, Step&& step) {
  DeviceBuffer<uint32_t> ids(l.count);
  for (ColourBy mode : {ColourBy::Block, ColourBy::Warp, ColourBy::Thread}) {
    CV_CUDA(cudaMemset(ids.get(), 0xff, ids.bytes()));
    // The memset runs on the legacy stream, the kernel on a non-blocking one:
    // without this wait the sentinel could land after the kernel's ids.
    CV_CUDA(cudaDeviceSynchronize());
    step(IdsOut{ids.get(), static_cast<int>(mode)});
    const auto got = download(ids);
    for (unsigned long long i = 0; i < l.count; ++i)
      ASSERT_EQ(got[i], model_id(l, i, mode))
          << l.name << " block "
          << to_string(BlockShape{static_cast<int>(l.block.x), static_cast<int>(l.block.y),
                                  static_cast<int>(l.block.z)})
          << " mode " << static_cast<int>(mode) << " element " << i;
  }
  step(IdsOut{ids.get(), static_cast<int>(ColourBy::Sm)});
  const auto sm = download(ids);
  std::map<uint32_t, uint32_t> sm_of_block;
  for (unsigned long long i = 0; i < l.count; ++i) {
    const uint32_t b = model_id(l, i, ColourBy::Block);
    auto [it, fresh] = sm_of_block.emplace(b, sm[i]);
    ASSERT_EQ(it->second, sm[i]) << "block " << b << " ran on two SMs";
    ASSERT_LT(sm[i], 4096u);  // %smid is a hardware slot number, never a sentinel
  }
}

}  // namespace

TEST(InsightGpu, FountainIdsMatchLaunchModel) {
  CV_REQUIRE_GPU();
  const std::vector<std::pair<unsigned, BlockShape>> cases{
      {999000u, {7, 13, 1}},  // a 1000 x 999 grid
      {10007u, {16, 16, 1}},
      {10007u, {1, 256, 1}},
      {10007u, {33, 2, 1}}};
  for (const auto& [n, block] : cases)
    for (fountain::Variant v : fountain::all_variants()) {
      const fountain::Grid g = fountain::make_grid(n);
      const ElementLaunch l = make_launch(Layout::Grid2d, g.width, g.height, n, block, "fountain");
      CudaStream stream;
      DeviceBuffer<float4> vbo(fountain::vbo_bytes(v, n) / sizeof(float4));
      fountain::FountainGpu gpu(n, v);
      fountain::Params p;
      gpu.reset(vbo.get(), p, 3, stream.get());
      fountain::FrameClock clock(3);
      check_ids(l, [&](const IdsOut& ids) {
        gpu.step(vbo.get(), clock.next(p), p, block, stream.get(), ids);
      });
    }
}

TEST(InsightGpu, SwarmIdsMatchLaunchModel) {
  CV_REQUIRE_GPU();
  for (const BlockShape block : {BlockShape{5, 3, 4}, BlockShape{32, 8, 1}, BlockShape{7, 13, 1}}) {
    const unsigned n = 10007;
    const swarm::Grid g = swarm::make_grid(n);
    const ElementLaunch l = make_launch(Layout::RowsYz, g.width, g.height, n, block, "swarm");
    CudaStream stream;
    DeviceBuffer<float4> vbo(swarm::vbo_bytes(n) / sizeof(float4));
    swarm::SwarmGpu gpu(n, swarm::Variant::Swarm);
    swarm::Params p;
    gpu.reset(vbo.get(), p, 5, stream.get(), make_float3(0, 1, 0));
    check_ids(l, [&](const IdsOut& ids) {
      gpu.step(vbo.get(), make_float3(0, 1, 0), p, block, stream.get(), ids);
    });
  }
}

TEST(InsightGpu, NBodyIdsMatchLaunchModel) {
  CV_REQUIRE_GPU();
  const unsigned n = 1000;
  for (int threads : {96, 100, 256}) {
    const BlockShape block{threads, 1, 1};
    // The integrating kernel runs the block flattened to x*y*z threads.
    const ElementLaunch l = make_launch(Layout::Flat, n, 1, n, block, "nbody");
    CudaStream stream;
    DeviceBuffer<float4> vbo(n);
    nbody::NBodyGpu gpu(n);
    nbody::Params p;
    gpu.reset(vbo.get(), nbody::Initial::Sphere, p, 9, stream.get());
    check_ids(l, [&](const IdsOut& ids) {
      gpu.step(vbo.get(), p, nbody::Variant::Original, block, stream.get(), ids);
    });
  }
}

TEST(InsightGpu, TreeStepsMatchCpuModelAfterEveryStep) {
  CV_REQUIRE_GPU();
  TreeStepsGpu gpu;
  for (unsigned n : {64u, 100u, 333u, 512u, 1000u, 1024u}) {
    const auto in = tree_input(n, n);
    const unsigned steps = tree_steps(padded_size(n));
    for (int v = 0; v < kTreeVariants; ++v)
      for (unsigned k = 0; k <= steps; ++k) {
        const auto variant = static_cast<TreeVariant>(v);
        ASSERT_EQ(gpu.run(variant, in, k), tree_values_cpu(variant, in, k))
            << to_string(variant) << " n " << n << " after step " << k;
      }
  }
}

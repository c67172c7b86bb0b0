// CUDA kernel of the swarm: the document's 2D grid of blocks with the caller's block
// shape, calling the shared per-particle step.
#include "common/launch.h"
#include "insight/launch_ids.cuh"
#include "swarm/swarm.h"

namespace cv::swarm {
namespace {

// x threads walk a row of the particle grid; y and z threads together walk rows,
// so any block shape covers every particle exactly once. `in` may be vbo itself
// (a thread reads only its own element), so no __restrict__ on either.
__global__ void step_kernel(const float4* in, float4* vbo, float4* __restrict__ state, Grid g,
                            float3 target, uint32_t key, Variant v, Params p,
                            insight::IdsOut ids) {
  const insight::Xy xy = insight::rows_yz_xy(insight::dim3u(blockIdx), insight::dim3u(threadIdx),
                                             insight::dim3u(blockDim));
  const unsigned gx = xy.x, gy = xy.y;
  if (gx >= g.width || gy >= g.height) return;
  const unsigned i = gy * g.width + gx;
  if (i >= g.count) return;
  insight::write_launch_id(ids, i);
  const float4 q = in[i], st = state[i];
  Particle s{q.x, q.y, q.z, st.x, st.y, st.z, st.w};
  step(s, target, key, i, v, p);
  vbo[i] = make_float4(s.x, s.y, s.z, age01(s.age, p));
  state[i] = make_float4(s.vx, s.vy, s.vz, s.age);
}

}  // namespace

KernelAttributes kernel_attributes() {
  return query_kernel_attributes(reinterpret_cast<const void*>(&step_kernel), "swarm step_kernel");
}

SwarmGpu::SwarmGpu(unsigned count, Variant v)
    : grid_(make_grid(count)), variant_(v), state_(count) {}

void SwarmGpu::reset(float4* vbo, const Params& p, uint64_t seed, cudaStream_t s, float3 target) {
  InitialState init = initial_state(grid_.count, variant_, p, seed, target);
  seed_ = seed;
  steps_ = 0;
  if (grid_.count == 0) return;
  CV_CUDA(cudaMemcpyAsync(vbo, init.vbo.data(), vbo_bytes(grid_.count), cudaMemcpyHostToDevice, s));
  CV_CUDA(
      cudaMemcpyAsync(state_.get(), init.state.data(), state_.bytes(), cudaMemcpyHostToDevice, s));
  CV_CUDA(cudaStreamSynchronize(s));  // the host vectors die with this scope
}

void SwarmGpu::step(float4* vbo, float3 target, const Params& p, const BlockShape& block,
                    cudaStream_t s, const insight::IdsOut& ids) {
  step_from(vbo, vbo, target, p, block, s, ids);
}

void SwarmGpu::step_from(const float4* source, float4* vbo, float3 target, const Params& p,
                         const BlockShape& block, cudaStream_t s, const insight::IdsOut& ids) {
  require_valid(block);
  const uint32_t key = step_key(seed_, steps_);
  ++steps_;
  if (grid_.count == 0) return;
  const dim3 grid(ceil_div(grid_.width, block.x),
                  ceil_div(grid_.height, static_cast<unsigned long long>(block.y) * block.z), 1);
  step_kernel<<<grid, to_dim3(block), 0, s>>>(source, vbo, state_.get(), grid_, target, key,
                                               variant_, p, ids);
  cuda_check_launch("swarm step_kernel<<<>>>");
}

std::vector<float4> SwarmGpu::state(cudaStream_t s) const {
  std::vector<float4> out(grid_.count);
  if (grid_.count == 0) return out;
  CV_CUDA(cudaMemcpyAsync(out.data(), state_.get(), state_.bytes(), cudaMemcpyDeviceToHost, s));
  CV_CUDA(cudaStreamSynchronize(s));
  return out;
}

}  // namespace cv::swarm

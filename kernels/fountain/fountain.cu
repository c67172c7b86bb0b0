// CUDA kernels of the fountain. Both use the document's 2D grid of 2D blocks with
// the caller's block shape and call the shared per-particle step.
#include "common/launch.h"
#include "fountain/fountain.h"
#include "insight/launch_ids.cuh"

namespace cv::fountain {
namespace {

// Ours: position and age travel together in the VBO, vy is the only private
// state, horizontal velocity is derived from the grid position and colour from
// age (in the shader): 40 bytes a particle. `in` is the previous frame: the
// same buffer as vbo (in place) or the other half of a ping-pong pair; each
// thread reads only its own element, so no __restrict__ on either.
__global__ void step_lean(const float4* in, float4* vbo, float* __restrict__ vy, Grid g, Frame f,
                          Params p, insight::IdsOut ids) {
  const insight::Xy xy = thread_xy(insight::dim3u(blockIdx), insight::dim3u(threadIdx),
                                    insight::dim3u(blockDim));
  const unsigned gx = xy.x, gy = xy.y, i = particle_index(gx, gy, g);
  if (!particle_exists(gx, i, g)) return;
  insight::write_launch_id(ids, i);
  const float4 q = in[i];
  Particle s{q.x, q.y, q.z, q.w, vy[i]};
  step(s, launch_vx(gx, g, p), launch_vz(gy, g, p), f, p);
  vbo[i] = make_float4(s.x, s.y, s.z, s.age);
  vy[i] = s.vy;
}

// The document's memory layout: state float4(age, vx, vy, vz), positions then
// colours in the VBO: 80 bytes a particle.
__global__ void step_original(const float4* in, float4* vbo, float4* __restrict__ state, Grid g,
                          Frame f, Params p, insight::IdsOut ids) {
  const insight::Xy xy = thread_xy(insight::dim3u(blockIdx), insight::dim3u(threadIdx),
                                    insight::dim3u(blockDim));
  const unsigned gx = xy.x, gy = xy.y, i = particle_index(gx, gy, g);
  if (!particle_exists(gx, i, g)) return;
  insight::write_launch_id(ids, i);
  const float4 st = state[i];
  const float4 q = in[i];
  Particle s{q.x, q.y, q.z, st.x, st.z};
  step(s, st.y, st.w, f, p);
  state[i] = make_float4(s.age, st.y, s.vy, st.w);
  vbo[g.count + i] = colour(s.age, p);
  vbo[i] = make_float4(s.x, s.y, s.z, 1.f);
}

}  // namespace

KernelAttributes kernel_attributes(Variant v) {
  if (v == Variant::Lean)
    return query_kernel_attributes(reinterpret_cast<const void*>(&step_lean), "fountain step_lean");
  return query_kernel_attributes(reinterpret_cast<const void*>(&step_original), "fountain step_original");
}

FountainGpu::FountainGpu(unsigned count, Variant v) : grid_(make_grid(count)), variant_(v) {
  if (v == Variant::Lean)
    vy_ = DeviceBuffer<float>(count);
  else
    state_ = DeviceBuffer<float4>(count);
}

void FountainGpu::reset(float4* vbo, const Params& p, uint64_t seed, cudaStream_t s) {
  // The CPU twin builds the initial state so both backends start identically.
  FountainCpu host(grid_.count, variant_);
  host.reset(p, seed);
  CV_CUDA(cudaMemcpyAsync(vbo, host.vbo().data(), host.vbo().size() * sizeof(float4),
                          cudaMemcpyHostToDevice, s));
  if (variant_ == Variant::Lean)
    CV_CUDA(cudaMemcpyAsync(vy_.get(), host.vy().data(), vy_.bytes(), cudaMemcpyHostToDevice, s));
  else
    CV_CUDA(cudaMemcpyAsync(state_.get(), host.state().data(), state_.bytes(),
                            cudaMemcpyHostToDevice, s));
  CV_CUDA(cudaStreamSynchronize(s));  // the host copies die with this scope
}

void FountainGpu::step(float4* vbo, const Frame& f, const Params& p, const BlockShape& block,
                       cudaStream_t s, const insight::IdsOut& ids) {
  step_from(vbo, vbo, f, p, block, s, ids);
}

void FountainGpu::step_from(const float4* source, float4* vbo, const Frame& f, const Params& p,
                            const BlockShape& block, cudaStream_t s, const insight::IdsOut& ids) {
  require_valid(block);
  if (grid_.count == 0) return;
  const dim3 grid = grid_2d(grid_.width, grid_.height, block);
  if (variant_ == Variant::Lean) {
    step_lean<<<grid, to_dim3(block), 0, s>>>(source, vbo, vy_.get(), grid_, f, p, ids);
    cuda_check_launch("fountain step_lean<<<>>>");
  } else {
    step_original<<<grid, to_dim3(block), 0, s>>>(source, vbo, state_.get(), grid_, f, p, ids);
    cuda_check_launch("fountain step_original<<<>>>");
  }
}

}  // namespace cv::fountain

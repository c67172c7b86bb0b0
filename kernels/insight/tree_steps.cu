// The stoppable tree reduction: one block, every variant's steps through the
// shared tree_op()/shuffle_offset(), stopped after `stop` steps, every
// thread's value written out so the view shows the array as the kernel left it.
#include <stdexcept>

#include "common/cuda_check.h"
#include "insight/tree_steps_gpu.h"

namespace cv::insight {
namespace {

constexpr unsigned kFull = 0xffffffffu;

// Shared-memory variants: sh[dst] += sh[src] for active threads, a barrier per step.
__device__ void shared_steps(int32_t* sh, TreeVariant v, unsigned t, unsigned p, unsigned stop) {
  for (unsigned k = 0; k < stop; ++k) {
    const TreeOp op = tree_op(v, t, k, p);
    if (op.active) sh[op.dst] += sh[op.src];
    __syncthreads();
  }
}

// Shuffles within each warp, then warp 0 gathers and shuffles the warps' totals.
__device__ int32_t shuffle_steps(int32_t* sh, int32_t v, unsigned t, unsigned p, unsigned stop) {
  const unsigned lane = t % 32u, warp = t / 32u;
  unsigned k = 0;
  for (; k < stop && shuffle_in_warps(k); ++k)
    v += __shfl_down_sync(kFull, v, shuffle_offset(k, p));
  if (k == stop) return v;
  __syncthreads();  // sh held the input: every thread has read its value
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  if (warp != 0) return v;
  v = lane < p / 32u ? sh[lane] : 0;
  for (; k < stop; ++k) v += __shfl_down_sync(kFull, v, shuffle_offset(k, p));
  return v;
}

__global__ void tree_steps_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                                  unsigned p, TreeVariant v, unsigned stop) {
  extern __shared__ int32_t sh[];
  const unsigned t = threadIdx.x;
  sh[t] = in[t];
  __syncthreads();
  if (v == TreeVariant::Shuffle) {
    out[t] = shuffle_steps(sh, sh[t], t, p, stop);
    return;
  }
  shared_steps(sh, v, t, p, stop);
  out[t] = sh[t];
}

}  // namespace

std::vector<int32_t> TreeStepsGpu::run(TreeVariant v, const std::vector<int32_t>& padded,
                                       unsigned stop) {
  const unsigned p = static_cast<unsigned>(padded.size());
  if (p < kMinElements || p > kMaxElements || padded_size(p) != p || stop > tree_steps(p))
    throw std::invalid_argument("tree steps: size " + std::to_string(p) +
                                " must be a power of two in [64, 1024] and stop " +
                                std::to_string(stop) + " at most log2(size)");
  CV_CUDA(cudaMemcpy(in_.get(), padded.data(), p * sizeof(int32_t), cudaMemcpyHostToDevice));
  tree_steps_kernel<<<1, p, p * sizeof(int32_t)>>>(in_.get(), out_.get(), p, v, stop);
  cuda_check_launch("tree_steps_kernel<<<>>>");
  std::vector<int32_t> out(p);
  CV_CUDA(cudaMemcpy(out.data(), out_.get(), p * sizeof(int32_t), cudaMemcpyDeviceToHost));
  return out;
}

}  // namespace cv::insight

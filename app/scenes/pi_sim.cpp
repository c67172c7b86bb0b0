#include "scenes/pi_sim.h"

#include <vector>

#include "common/cuda_check.h"
#include "labs/pi/pi_points.h"

namespace cv {
namespace {

unsigned long long count_inside(const std::vector<float4>& points) {
  unsigned long long in = 0;
  for (const float4& p : points) in += p.w > 0.5f ? 1 : 0;
  return in;
}

class PiSimCuda final : public PiSim {
 public:
  explicit PiSimCuda(unsigned count) : host_(count) {}
  void write(VertexWrite& out, uint64_t seed, const BlockShape& block) override {
    pi::write_points_gpu(static_cast<float4*>(out.device()), static_cast<unsigned>(host_.size()),
                         seed, block, out.stream());
  }
  unsigned long long inside(VertexTarget& vertices, cudaStream_t s) override {
    // Count from the buffer the picture is drawn from (a readback, once per sample).
    VertexWrite front = vertices.read(s);
    CV_CUDA(cudaMemcpyAsync(host_.data(), front.device(), host_.size() * sizeof(float4),
                            cudaMemcpyDeviceToHost, s));
    CV_CUDA(cudaStreamSynchronize(s));
    front.close();
    return count_inside(host_);
  }

 private:
  std::vector<float4> host_;  // a readback for the count
};

class PiSimCpu final : public PiSim {
 public:
  explicit PiSimCpu(unsigned count) : host_(count) {}
  void write(VertexWrite& out, uint64_t seed, const BlockShape&) override {
    pi::write_points_cpu(host_.data(), static_cast<unsigned>(host_.size()), seed);
    out.put(host_.data(), host_.size() * sizeof(float4));
  }
  unsigned long long inside(VertexTarget&, cudaStream_t) override { return count_inside(host_); }

 private:
  std::vector<float4> host_;  // the points
};

}  // namespace

std::unique_ptr<PiSim> make_pi_sim(Backend backend, unsigned count) {
  if (backend == Backend::Cuda) return std::make_unique<PiSimCuda>(count);
  return std::make_unique<PiSimCpu>(count);
}

}  // namespace cv

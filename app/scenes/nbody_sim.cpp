#include "scenes/nbody_sim.h"

#include <stdexcept>
#include <string>

#include "common/cuda_check.h"

namespace cv {
namespace {

class NBodySimCuda final : public NBodySim {
 public:
  explicit NBodySimCuda(unsigned count) : gpu_(count) {}
  void load(VertexWrite& out, const nbody::Bodies& b) override {
    gpu_.load(static_cast<float4*>(out.device()), b, out.stream());
  }
  void step(VertexWrite& out, const nbody::Params& p, nbody::Variant v,
            const std::string& fast_build, int steps, const BlockShape& block,
            const insight::IdsOut& ids) override {
    if (gpu_.fast_tile() != fast_build) gpu_.set_fast_tile(fast_build);
    auto* vbo = static_cast<float4*>(out.device());
    for (int i = 0; i < steps; ++i)
      gpu_.step_from(i == 0 ? static_cast<const float4*>(out.source()) : vbo, vbo, p, v, block,
                     out.stream(), ids);
  }
  nbody::Energy energy(VertexTarget& vertices, cudaStream_t s, const nbody::Params& p,
                       const BlockShape& block) override {
    VertexWrite front = vertices.read(s);
    const nbody::Energy e = gpu_.energy(static_cast<const float4*>(front.device()), p, block, s);
    front.close();
    return e;
  }
  std::optional<nbody::NBodyGpu::FastLaunch> fast_launch(const BlockShape& block) const override {
    return gpu_.fast_launch(block);
  }
  std::vector<float4> bodies(VertexWrite& out, bool first, unsigned pad) override {
    std::vector<float4> host(padded(pad));
    CV_CUDA(cudaMemcpyAsync(host.data(), snapshot(out, first, pad), host.size() * sizeof(float4),
                            cudaMemcpyDeviceToHost, out.stream()));
    CV_CUDA(cudaStreamSynchronize(out.stream()));
    return host;
  }
  void bodies_to(VertexWrite& out, bool first, void* device_dst, unsigned pad) override {
    CV_CUDA(cudaMemcpyAsync(device_dst, snapshot(out, first, pad), padded(pad) * sizeof(float4),
                            cudaMemcpyDeviceToDevice, out.stream()));
    // Another process reads them next, outside this stream's order.
    CV_CUDA(cudaStreamSynchronize(out.stream()));
  }
  void step_with(VertexWrite& out, const std::vector<float4>& acc, const nbody::Params& p,
                 const BlockShape& block, const insight::IdsOut& ids) override {
    require_count(acc.size());
    if (acc_.size() != acc.size()) acc_ = DeviceBuffer<float4>(acc.size());
    CV_CUDA(cudaMemcpyAsync(acc_.get(), acc.data(), acc_.bytes(), cudaMemcpyHostToDevice, out.stream()));
    gpu_.step_with(acc_.get(), static_cast<float4*>(out.device()), p, block, out.stream(), ids);
    // acc (the caller's) may go away once this returns.
    CV_CUDA(cudaStreamSynchronize(out.stream()));
  }
  void step_with(VertexWrite& out, const float4* acc, const nbody::Params& p, const BlockShape& block,
                 const insight::IdsOut& ids) override {
    gpu_.step_with(acc, static_cast<float4*>(out.device()), p, block, out.stream(), ids);
  }

 private:
  // count + pad bodies, refused beyond the padding the snapshot has.
  size_t padded(unsigned pad) const {
    const size_t n = static_cast<size_t>(gpu_.count()) + pad;
    if (n > gpu_.padded_count())
      throw std::invalid_argument("nbody: " + std::to_string(pad) + " bodies of padding is more than the " +
                                  std::to_string(gpu_.padded_count() - gpu_.count()) + " the snapshot has");
    return n;
  }
  // The padded bodies of this step (out's source on the first step of a frame), on out's stream.
  const float4* snapshot(VertexWrite& out, bool first, unsigned pad) {
    padded(pad);
    return gpu_.snapshot(static_cast<const float4*>(first ? out.source() : out.device()), out.stream());
  }
  void require_count(size_t n) const {
    if (n != gpu_.count())
      throw std::invalid_argument("nbody: " + std::to_string(n) + " accelerations for " +
                                  std::to_string(gpu_.count()) + " bodies");
  }

  nbody::NBodyGpu gpu_;
  DeviceBuffer<float4> acc_;  // the given accelerations, uploaded
};

class NBodySimCpu final : public NBodySim {
 public:
  explicit NBodySimCpu(unsigned count) : cpu_(count) {}
  void load(VertexWrite& out, const nbody::Bodies& b) override {
    cpu_.load(b);
    put(out);
  }
  void step(VertexWrite& out, const nbody::Params& p, nbody::Variant, const std::string&,
            int steps, const BlockShape&, const insight::IdsOut&) override {
    for (int i = 0; i < steps; ++i) cpu_.step(p);
    put(out);
  }
  nbody::Energy energy(VertexTarget&, cudaStream_t, const nbody::Params& p,
                       const BlockShape&) override {
    return cpu_.energy(p);
  }
  std::vector<float4> bodies(VertexWrite&, bool, unsigned pad) override { return cpu_.bodies(pad); }
  void step_with(VertexWrite& out, const std::vector<float4>& acc, const nbody::Params& p,
                 const BlockShape&, const insight::IdsOut&) override {
    if (acc.size() != cpu_.count())
      throw std::invalid_argument("nbody: " + std::to_string(acc.size()) + " accelerations for " +
                                  std::to_string(cpu_.count()) + " bodies");
    cpu_.step_with(acc.data(), p);
    put(out);
  }
  void bodies_to(VertexWrite&, bool, void*, unsigned) override { no_device(); }
  void step_with(VertexWrite&, const float4*, const nbody::Params&, const BlockShape&,
                 const insight::IdsOut&) override {
    no_device();
  }

 private:
  [[noreturn]] static void no_device() {
    throw std::logic_error("nbody: the CPU twin has no device memory for a force kernel to share");
  }
  void put(VertexWrite& out) const {
    out.put(cpu_.vbo().data(), cpu_.vbo().size() * sizeof(float4));
  }
  nbody::NBodyCpu cpu_;
};

}  // namespace

std::unique_ptr<NBodySim> make_nbody_sim(Backend backend, unsigned count) {
  if (backend == Backend::Cuda) return std::make_unique<NBodySimCuda>(count);
  return std::make_unique<NBodySimCpu>(count);
}

}  // namespace cv

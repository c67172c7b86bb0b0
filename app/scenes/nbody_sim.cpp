#include "scenes/nbody_sim.h"

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

 private:
  nbody::NBodyGpu gpu_;
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

 private:
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

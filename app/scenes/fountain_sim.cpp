#include "scenes/fountain_sim.h"

namespace cv {
namespace {

class FountainSimCuda final : public FountainSim {
 public:
  FountainSimCuda(unsigned count, fountain::Variant v) : gpu_(count, v) {}
  void reset(VertexWrite& out, const fountain::Params& p, uint64_t seed) override {
    gpu_.reset(static_cast<float4*>(out.device()), p, seed, out.stream());
  }
  void step(VertexWrite& out, const fountain::Frame& f, const fountain::Params& p,
            const BlockShape& block, const insight::IdsOut& ids) override {
    gpu_.step_from(static_cast<const float4*>(out.source()), static_cast<float4*>(out.device()), f,
                   p, block, out.stream(), ids);
  }

 private:
  fountain::FountainGpu gpu_;
};

class FountainSimCpu final : public FountainSim {
 public:
  FountainSimCpu(unsigned count, fountain::Variant v) : cpu_(count, v) {}
  void reset(VertexWrite& out, const fountain::Params& p, uint64_t seed) override {
    cpu_.reset(p, seed);
    put(out);
  }
  void step(VertexWrite& out, const fountain::Frame& f, const fountain::Params& p,
            const BlockShape&, const insight::IdsOut&) override {
    cpu_.step(f, p);
    put(out);
  }

 private:
  void put(VertexWrite& out) const {
    out.put(cpu_.vbo().data(), fountain::vbo_bytes(cpu_.variant(), cpu_.count()));
  }
  fountain::FountainCpu cpu_;
};

}  // namespace

std::unique_ptr<FountainSim> make_fountain_sim(Backend backend, unsigned count,
                                               fountain::Variant v) {
  if (backend == Backend::Cuda) return std::make_unique<FountainSimCuda>(count, v);
  return std::make_unique<FountainSimCpu>(count, v);
}

}  // namespace cv

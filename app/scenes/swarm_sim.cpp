#include "scenes/swarm_sim.h"

namespace cv {
namespace {

class SwarmSimCuda final : public SwarmSim {
 public:
  SwarmSimCuda(unsigned count, swarm::Variant v) : gpu_(count, v) {}
  void set_variant(swarm::Variant v) override { gpu_.set_variant(v); }
  void reset(VertexWrite& out, const swarm::Params& p, uint64_t seed, float3 target) override {
    gpu_.reset(static_cast<float4*>(out.device()), p, seed, out.stream(), target);
  }
  void step(VertexWrite& out, float3 target, const swarm::Params& p, const BlockShape& block,
            const insight::IdsOut& ids) override {
    gpu_.step_from(static_cast<const float4*>(out.source()), static_cast<float4*>(out.device()),
                   target, p, block, out.stream(), ids);
  }

 private:
  swarm::SwarmGpu gpu_;
};

class SwarmSimCpu final : public SwarmSim {
 public:
  SwarmSimCpu(unsigned count, swarm::Variant v) : cpu_(count, v) {}
  void set_variant(swarm::Variant v) override { cpu_.set_variant(v); }
  void reset(VertexWrite& out, const swarm::Params& p, uint64_t seed, float3 target) override {
    cpu_.reset(p, seed, target);
    put(out);
  }
  void step(VertexWrite& out, float3 target, const swarm::Params& p, const BlockShape&,
            const insight::IdsOut&) override {
    cpu_.step(target, p);
    put(out);
  }

 private:
  void put(VertexWrite& out) const { out.put(cpu_.vbo().data(), swarm::vbo_bytes(cpu_.count())); }
  swarm::SwarmCpu cpu_;
};

}  // namespace

std::unique_ptr<SwarmSim> make_swarm_sim(Backend backend, unsigned count, swarm::Variant v) {
  if (backend == Backend::Cuda) return std::make_unique<SwarmSimCuda>(count, v);
  return std::make_unique<SwarmSimCpu>(count, v);
}

}  // namespace cv

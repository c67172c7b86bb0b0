#pragma once
// The swarm's simulation behind one interface, made once from the backend:
// SwarmSimCuda runs swarm::SwarmGpu's kernel on the vertex target's device
// memory, SwarmSimCpu the threaded twin (swarm::SwarmCpu) and puts its
// vertices into the target; both call swarm/swarm_math.h.
#include <cstdint>
#include <memory>

#include "common/block_shape.h"
#include "common/device_info.h"
#include "gl/vertex_target.h"
#include "insight/launch_ids.h"
#include "swarm/swarm.h"

namespace cv {

class SwarmSim {
 public:
  virtual ~SwarmSim() = default;
  // Keeps the particles; the new steering applies from the next step.
  virtual void set_variant(swarm::Variant v) = 0;
  // The initial state around `target` (same seed, same frames after it) into `out`.
  virtual void reset(VertexWrite& out, const swarm::Params& p, uint64_t seed, float3 target) = 0;
  // One step towards (or away from) `target` into `out`; see FountainSim::step.
  virtual void step(VertexWrite& out, float3 target, const swarm::Params& p,
                    const BlockShape& block, const insight::IdsOut& ids) = 0;
};

// Throws CudaError / bad_alloc when the state cannot be allocated.
std::unique_ptr<SwarmSim> make_swarm_sim(Backend backend, unsigned count, swarm::Variant v);

}  // namespace cv

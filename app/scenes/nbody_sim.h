#pragma once
// The n-body simulation behind one interface, made once from the backend:
// NBodySimCuda runs nbody::NBodyGpu's force kernels on the vertex target's
// device memory, NBodySimCpu the threaded twin (nbody::NBodyCpu) and puts its
// vertices into the target; both call nbody/nbody_math.h.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "common/device_info.h"
#include "gl/vertex_target.h"
#include "insight/launch_ids.h"
#include "nbody/nbody.h"

namespace cv {

class NBodySim {
 public:
  virtual ~NBodySim() = default;
  // Given bodies (count of them) into `out` and the private state.
  virtual void load(VertexWrite& out, const nbody::Bodies& b) = 0;
  // `steps` leapfrog steps (the first reads out's source, the rest continue in
  // out) with force variant `v`; `fast_build` names the fast variant's build
  // ("" : the plan; the CPU twin has one). See FountainSim::step for block and ids.
  virtual void step(VertexWrite& out, const nbody::Params& p, nbody::Variant v,
                    const std::string& fast_build, int steps, const BlockShape& block,
                    const insight::IdsOut& ids) = 0;
  // Kinetic + potential energy of the current frame (the target's front on the
  // GPU), O(N^2); blocks until done.
  virtual nbody::Energy energy(VertexTarget& vertices, cudaStream_t s, const nbody::Params& p,
                               const BlockShape& block) = 0;
  // A force kernel from elsewhere (the student's, scenes/nbody_user_kernel.cpp):
  // the bodies it reads for a step, (x, y, z, mass) then `pad` zero-mass bodies,
  // in host memory (from out's source on the first step of a frame, `first`,
  // else from out); then that step finished from its accelerations (count of
  // them, without G) into `out`, integrated by the built-in's own kernel.
  virtual std::vector<float4> bodies(VertexWrite& out, bool first, unsigned pad) = 0;
  virtual void step_with(VertexWrite& out, const std::vector<float4>& acc, const nbody::Params& p,
                         const BlockShape& block, const insight::IdsOut& ids) = 0;
  // The same in device memory, for a force kernel that reads and writes it in
  // place (the runner, through exported memory): the bodies into `device_dst`
  // (count + pad float4s), finished when this returns (so is every earlier
  // step on out's stream, whose last integration read the accelerations the
  // force kernel writes next); then the step from `acc`, count float4s in
  // device memory, on out's stream. CUDA only: the CPU twin throws std::logic_error.
  virtual void bodies_to(VertexWrite& out, bool first, void* device_dst, unsigned pad) = 0;
  virtual void step_with(VertexWrite& out, const float4* acc, const nbody::Params& p,
                         const BlockShape& block, const insight::IdsOut& ids) = 0;
  // How the fast variant launches with `block` on this device (nullopt on the CPU).
  virtual std::optional<nbody::NBodyGpu::FastLaunch> fast_launch(const BlockShape& block) const {
    (void)block;
    return std::nullopt;
  }
};

// Throws CudaError / bad_alloc when the state cannot be allocated.
std::unique_ptr<NBodySim> make_nbody_sim(Backend backend, unsigned count);

}  // namespace cv

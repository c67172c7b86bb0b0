#pragma once
// The n-body scene's student force kernel (template nbody_kernel,
// docs/kernels.md), one frame of it, apart from the window so the GPU tests
// run it without GL: each step the bodies go to the runner, the student's
// kernel computes every body's acceleration there, and the simulation
// integrates them with the built-in's own leapfrog kernel.
//
// On the CUDA backend the bodies and the accelerations live in device memory
// this object owns (exportable VMM allocations, one CudaExportableMemory each,
// shared with the runner once per allocation): the simulation copies the
// bodies in on the device, the runner's kernel reads them and writes the
// accelerations in place, and the simulation integrates from there; nothing
// crosses the socket but the request and the reply. Where that memory cannot
// be made (no VMM export) and on the CPU backend, the bodies travel in the
// request and the accelerations come back in the reply.
//
// Ordering across the two processes: the bodies' copy (and every earlier
// step, whose integration read the accelerations) is finished before the
// request goes; the runner synchronises its stream before it replies, so the
// integration launched after the reply reads finished accelerations.
#include <cstdint>
#include <memory>
#include <string>

#include "common/block_shape.h"
#include "insight/launch_ids.h"
#include "nbody/nbody.h"

namespace cv {

class CudaExportableMemory;
class NBodySim;
class VertexWrite;
namespace usercode {
class UserKernel;
}

class NBodyUserForces {
 public:
  NBodyUserForces();
  ~NBodyUserForces();
  NBodyUserForces(const NBodyUserForces&) = delete;
  NBodyUserForces& operator=(const NBodyUserForces&) = delete;

  struct Frame {
    int steps = 0;        // steps yours ran into out (0: none, the built-in steps the frame)
    bool failed = false;  // a fault or a reply without the accelerations: the built-in from now on
    bool busy = false;    // a lab run held the runner
    bool in_place = false;  // the runner read and wrote this object's device buffers
    double kernel_ms = 0, round_trip_ms = 0;  // summed over the steps
    std::string note;  // for the panel: "" in place (or on the CPU), else why slower
  };
  // Up to `steps` steps of the loaded kernel into `out` (the first reads
  // out's source, the rest continue in out), integrated by `sim` with `p`;
  // stops at the first step that fails. `device`: the CUDA device the
  // shared memory is made on (the scene's).
  Frame run(usercode::UserKernel& uk, NBodySim& sim, VertexWrite& out, unsigned count, int steps,
            const nbody::Params& p, const BlockShape& b, const insight::IdsOut& ids, int device);

  // Whether the device buffers exist now (for `count` bodies), and why not.
  bool shared() const { return bodies_ != nullptr; }
  const std::string& share_error() const { return share_error_; }

 private:
  // The device buffers for `count` bodies, made on first use and again when the
  // count changes; false (share_error_ says why) when they cannot be exported.
  bool ensure_shared(unsigned count, int device);

  std::unique_ptr<CudaExportableMemory> bodies_;  // count + nbody_template::kPad (x, y, z, mass)
  std::unique_ptr<CudaExportableMemory> acc_;     // count (ax, ay, az, unused), without G
  unsigned count_ = 0;                            // what they (or the failed try) were for
  uint64_t generation_ = 0;                       // their ids in the runner (scene_user::owned_id)
  std::string share_error_;
};

}  // namespace cv

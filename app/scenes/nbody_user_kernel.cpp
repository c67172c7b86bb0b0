// The n-body scene's hook for the student's force kernel (template
// nbody_kernel, docs/kernels.md; the transport: scenes/nbody_user_kernel.h).
// The galaxies move by what the student wrote; the energy drift and
// interactions/s follow. Any fault: the built-in variant steps instead and the
// user kernel's status says why.
#include "scenes/nbody_user_kernel.h"

#include <optional>
#include <vector>

#include "common/cuda_check.h"
#include "common/device_select.h"
#include "gl/external_memory.h"
#include "scenes/nbody_scene.h"
#include "scenes/nbody_sim.h"
#include "scenes/scene_user_kernel.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/nbody_args.h"
#include "usercode/templates/nbody_parts.h"
#include "usercode/client/user_kernel.h"

namespace cv {
namespace {
constexpr uint64_t kForcesTag =
    2;  // scene_user::owned_id: n-body's bodies (0) and accelerations (1)
}  // namespace

NBodyUserForces::NBodyUserForces() = default;
NBodyUserForces::~NBodyUserForces() = default;

bool NBodyUserForces::ensure_shared(unsigned count, int device) {
  if (count == count_ && (bodies_ || !share_error_.empty())) return bodies_ != nullptr;
  bodies_.reset();
  acc_.reset();
  share_error_.clear();
  count_ = count;
  try {
    const CudaVmmApi api = CudaVmmApi::load();
    const size_t padded = static_cast<size_t>(count) + usercode::nbody_template::kPad;
    auto bodies = std::make_unique<CudaExportableMemory>(api, device, padded * sizeof(float4));
    auto acc = std::make_unique<CudaExportableMemory>(api, device,
                                                      static_cast<size_t>(count) * sizeof(float4));
    // Zeros, as the runner's own buffer starts: a kernel that skips a body adds
    // nothing. Done before the runner (another process) first writes it.
    CV_CUDA(cudaMemset(acc->get(), 0, acc->size()));
    CV_CUDA(cudaStreamSynchronize(nullptr));
    bodies_ = std::move(bodies);
    acc_ = std::move(acc);
    generation_ = scene_user::next_generation();
  } catch (const std::exception& e) {
    share_error_ = e.what();
    return false;
  }
  return true;
}

NBodyUserForces::Frame NBodyUserForces::run(usercode::UserKernel& uk, NBodySim& sim,
                                            VertexWrite& out, unsigned count, int steps,
                                            const nbody::Params& p, const BlockShape& b,
                                            const insight::IdsOut& ids, int device) {
  Frame f;
  usercode::RunnerClient* rc = uk.runner();
  f.in_place = rc && out.on_device() && ensure_shared(count, device);
  if (out.on_device() && !f.in_place)
    f.note = scene_user::reply_note("accelerations", rc ? share_error_ : "");
  for (; f.steps < steps; ++f.steps) {
    usercode::Workload w;
    w.n = count;
    w.block = b;
    usercode::put(w, usercode::nbody_args::eps2, p.softening * p.softening);
    std::optional<usercode::SharedBuffer> bodies, acc;
    if (f.in_place) {
      sim.bodies_to(out, f.steps == 0, bodies_->get(), usercode::nbody_template::kPad);
      bodies = scene_user::share(*bodies_, scene_user::owned_id(kForcesTag, generation_, 0), *rc);
      acc = scene_user::share(*acc_, scene_user::owned_id(kForcesTag, generation_, 1), *rc);
      w.shared["bodies"] = *bodies;
      w.shared["acc"] = *acc;
      w.read_back = false;
    } else {
      w.reset = true;  // the bodies of this step, sent whole (nothing stays in the runner)
      w.init["bodies"] =
          usercode::bytes_of_all(sim.bodies(out, f.steps == 0, usercode::nbody_template::kPad));
    }
    usercode::LaunchOutcome reply;
    const scene_user::Launch l = scene_user::launch(uk, w, reply);
    scene_user::close_fds({&bodies, &acc});
    if (l.busy) {  // a lab run holds the runner: the built-in steps (or this frame ends early)
      f.busy = true;
      break;
    }
    const std::vector<float4> host =
        l.ok && !f.in_place ? reply.values<float4>("acc") : std::vector<float4>{};
    if (!l.ok || (!f.in_place && host.size() != count)) {
      f.failed = true;
      break;
    }
    if (f.in_place)  // the runner has finished writing them (it synchronises before replying)
      sim.step_with(out, static_cast<const float4*>(acc_->get()), p, b, ids);
    else
      sim.step_with(out, host, p, b, ids);
    f.kernel_ms += l.kernel_ms;
    f.round_trip_ms += l.round_trip_ms;
  }
  return f;
}

bool NBodyScene::run_user(VertexWrite& out, const BlockShape& b, int steps) {
  if (!user_ || !user_->feeds(name())) {
    user_active_ = false;
    return false;
  }
  const NBodyUserForces::Frame f =
      user_forces_.run(*user_, *sim_, out, count_, steps, params_, b, ids_out_, selected_device());
  if (f.steps == 0) {
    if (f.failed) user_active_ = false;
    return false;
  }
  last_steps_per_frame_ = f.steps;
  user_active_ = true;
  user_note_ = f.note;
  report_user_step(f.kernel_ms, f.round_trip_ms);  // interactions/s and the plots: yours
  return true;
}

}  // namespace cv

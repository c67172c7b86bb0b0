// The fountain's hook for the student's kernel (docs/kernels.md):
// each step goes to the runner process instead of the built-in kernel. On the
// external interop path the runner writes the scene's own vertex buffers
// (exported VMM memory, passed once as fds); elsewhere it steps its own
// buffers and the positions come back with the reply. Any fault: the source
// buffer still holds the last good frame, the built-in kernel steps it, and
// the user kernel's status says why.
#include <utility>

#include "common/cuda_check.h"
#include "gl/interop_buffer.h"
#include "scenes/fountain_scene.h"
#include "scenes/scene_user_kernel.h"
#include "usercode/client/runner_client.h"
#include "usercode/client/user_kernel.h"
#include "usercode/templates/fountain_args.h"

namespace cv {

bool FountainScene::wants_user() const {
  const bool yours = user_ && user_->feeds(name());
  if (!yours) {
    const_cast<FountainScene*>(this)->user_state_.active = false;
    return false;
  }
  if (variant_ != fountain::Variant::Lean) {
    const_cast<FountainScene*>(this)->user_state_.note =
        "your kernel writes the lean layout float4(x, y, z, age): choose the lean variant to run it";
    const_cast<FountainScene*>(this)->user_state_.active = false;
    return false;
  }
  return true;
}

std::optional<std::string> FountainScene::check_block(const BlockShape& b) const {
  return scene_user::block_limit(user_kernel_running(), b);
}

// One step of the student's kernel on this scene's particles: the template's
// workload with the scene's values (its buffers are added by run_user).
usercode::Workload FountainScene::user_workload(const fountain::Frame& f, const BlockShape& b) const {
  usercode::Workload w;
  w.n = count_;
  w.block = b;
  w.reset = !user_state_.active;
  w.seed = kSeed;
  usercode::put(w, usercode::fountain_args::params, params_);
  usercode::put(w, usercode::fountain_args::frame, f);
  return w;
}

// Where the particles live decides the transport, not the backend: device
// memory that the runner can share (exported external-interop allocations) is
// written in place; otherwise the runner steps its own buffers and the frame
// comes back in the reply, put() into the particles like any host frame.
bool FountainScene::run_user(VertexWrite& out, const BlockShape& b, const fountain::Frame& f) {
  usercode::RunnerClient* rc = user_->runner();
  if (!rc) return false;
  usercode::Workload w = user_workload(f, b);
  const scene_user::Launch l = scene_user::step_particles(
      *user_, *rc, std::move(w), out, {vertices_->interop(), ids_buffer(), &ids_out_, count_}, user_state_);
  if (!l.ok) return false;  // busy (a lab run holds the runner) or failed: the built-in steps
  report_user_step(l.kernel_ms, l.round_trip_ms);  // the plots and particles/s show yours
  return true;
}

}  // namespace cv

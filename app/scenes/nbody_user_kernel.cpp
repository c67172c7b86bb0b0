// The n-body scene's hook for the student's force kernel (template
// nbody_kernel, docs/kernels.md): each step the bodies go to the runner, the
// student's kernel computes every body's acceleration there, and the scene
// integrates them with the built-in's own leapfrog kernel, so the galaxies
// move by what the student wrote; the energy drift and interactions/s follow.
// Any fault: the built-in variant steps instead and the user kernel's status
// says why.
#include <algorithm>

#include "scenes/nbody_scene.h"
#include "scenes/scene_user_kernel.h"
#include "usercode/runner_client.h"
#include "usercode/templates/nbody_parts.h"
#include "usercode/user_kernel.h"

namespace cv {

bool NBodyScene::run_user(VertexWrite& out, const BlockShape& b, int steps) {
  if (!user_ || !user_->feeds(name())) {
    user_active_ = false;
    return false;
  }
  double kernel_ms = 0, round_trip_ms = 0;
  int done = 0;
  for (; done < steps; ++done) {
    usercode::Workload w;
    w.n = count_;
    w.block = b;
    w.reset = true;  // the bodies of this step, sent whole (nothing stays in the runner)
    w.scalars["eps2"] = usercode::bytes_of(params_.softening * params_.softening);
    w.init["bodies"] = scene_user::bytes(sim_->bodies(out, done == 0, usercode::nbody_template::kPad));
    usercode::LaunchOutcome reply;
    const scene_user::Launch l = scene_user::launch(*user_, w, reply);
    if (l.busy) break;  // a lab run holds the runner: the built-in steps (or this frame ends early)
    const std::vector<float4> acc = l.ok ? reply.values<float4>("acc") : std::vector<float4>{};
    if (!l.ok || acc.size() != count_) {
      user_active_ = false;
      break;
    }
    sim_->step_with(out, acc, params_, b, ids_out_);
    kernel_ms += l.kernel_ms;
    round_trip_ms += l.round_trip_ms;
  }
  if (done == 0) return false;
  last_steps_per_frame_ = done;
  user_active_ = true;
  user_note_.clear();
  report_user_step(kernel_ms, round_trip_ms);  // interactions/s and the plots: yours
  return true;
}

}  // namespace cv

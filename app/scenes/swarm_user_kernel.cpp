// The swarm's hook for the student's kernel (templates swarm_kernel and
// swarm_particle, docs/kernels.md): each step goes to the runner instead of
// the built-in kernel, with the scene's target, variant and parameters. On the
// external interop path the runner writes the scene's own vertex buffers
// (exported VMM memory, passed once as fds); elsewhere it steps its own
// buffers and the positions come back with the reply. The particles' velocities
// and ages stay in the runner from the reset of yours. Any fault: the
// built-in kernel steps and the user kernel's status says why.
#include "common/cuda_check.h"
#include "gl/interop_buffer.h"
#include "scenes/scene_user_kernel.h"
#include "scenes/swarm_scene.h"
#include "usercode/client/runner_client.h"
#include "usercode/client/user_kernel.h"
#include "usercode/templates/swarm_args.h"

namespace cv {

namespace {
constexpr uint64_t kUserSeed = 4004;  // the random keys of yours (respawns)
}  // namespace

std::optional<std::string> SwarmScene::check_block(const BlockShape& b) const {
  return scene_user::block_limit(user_kernel_running(), b);
}

bool SwarmScene::run_user(VertexWrite& out, const BlockShape& b, float3 target) {
  if (!user_ || !user_->feeds(name())) {
    user_state_.active = false;
    return false;
  }
  usercode::RunnerClient* rc = user_->runner();
  if (!rc) return false;
  if (!user_state_.active) user_steps_ = 0;
  usercode::Workload w;
  w.n = count_;
  w.block = b;
  w.seed = kUserSeed;
  w.step = static_cast<int>(user_steps_);
  w.reset = !user_state_.active;
  usercode::put(w, usercode::swarm_args::target, target);
  usercode::put(w, usercode::swarm_args::key, static_cast<unsigned>(swarm::step_key(kUserSeed, user_steps_)));
  usercode::put(w, usercode::swarm_args::variant, variant_);
  usercode::put(w, usercode::swarm_args::params, params_);
  if (w.reset) {  // yours starts from the initial state around where the target is now
    const swarm::InitialState s = swarm::initial_state(count_, variant_, params_, kUserSeed, target);
    w.init["in"] = usercode::bytes_of_all(s.vbo);
    w.init["state"] = usercode::bytes_of_all(s.state);
  }
  const scene_user::Launch l = scene_user::step_particles(
      *user_, *rc, std::move(w), out, {vertices_->interop(), ids_buffer(), &ids_out_, count_}, user_state_);
  if (!l.ok) return false;  // busy (a lab run holds the runner) or failed: the built-in steps
  ++user_steps_;
  report_user_step(l.kernel_ms, l.round_trip_ms);  // the plots and particles/s show yours
  return true;
}

}  // namespace cv

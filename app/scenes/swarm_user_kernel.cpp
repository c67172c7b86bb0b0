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
#include "usercode/runner_client.h"
#include "usercode/user_kernel.h"

namespace cv {

namespace {
constexpr uint64_t kUserSeed = 4004;  // the random keys of yours (respawns)
}  // namespace

std::optional<std::string> SwarmScene::check_block(const BlockShape& b) const {
  return scene_user::block_limit(user_kernel_running(), b);
}

bool SwarmScene::run_user(VertexWrite& out, const BlockShape& b, float3 target) {
  if (!user_ || !user_->feeds(name())) {
    user_active_ = false;
    return false;
  }
  usercode::RunnerClient* rc = user_->runner();
  if (!rc) return false;
  if (!user_active_) user_steps_ = 0;
  usercode::Workload w;
  w.n = count_;
  w.block = b;
  w.seed = kUserSeed;
  w.step = static_cast<int>(user_steps_);
  w.reset = !user_active_;
  w.scalars["target"] = usercode::bytes_of(target);
  w.scalars["key"] = usercode::bytes_of(static_cast<unsigned>(swarm::step_key(kUserSeed, user_steps_)));
  w.scalars["v"] = usercode::bytes_of(variant_);
  w.scalars["p"] = usercode::bytes_of(params_);
  if (w.reset) {  // yours starts from the initial state around where the target is now
    const swarm::InitialState s = swarm::initial_state(count_, variant_, params_, kUserSeed, target);
    w.init["in"] = scene_user::bytes(s.vbo);
    w.init["state"] = scene_user::bytes(s.state);
  }
  std::optional<usercode::SharedBuffer> in, to, ids;
  if (const InteropBuffer* buffer = vertices_->interop()) {
    in = scene_user::share(*buffer, out.source(), buffer_generation_, *rc);
    to = scene_user::share(*buffer, out.device(), buffer_generation_, *rc);
  }
  const bool in_place = in && to;
  if (in_place) {
    w.shared["in"] = *in;
    w.shared["out"] = *to;
    // Colour by launch: your kernel's record_launch_id() writes the scene's ids buffer.
    if (ids_out_.ids && ids_buffer()) {
      ids = scene_user::share(*ids_buffer(), ids_out_.ids, buffer_generation_, *rc, 1);
      if (ids) w.shared["ids"] = *ids, w.values["colour_by"] = ids_out_.mode;
    }
  }
  w.read_back = !in_place;
  // The built-in's last writes (this stream) land before the runner reads.
  if (out.on_device()) CV_CUDA(cudaStreamSynchronize(out.stream()));
  usercode::LaunchOutcome reply;
  const scene_user::Launch l = scene_user::launch(*user_, w, reply);
  scene_user::close_fds({&in, &to, &ids});
  if (l.busy) return false;  // a lab run holds the runner: the built-in steps this frame
  std::vector<float> positions = l.ok && !in_place ? reply.values<float>("out") : std::vector<float>{};
  if (!l.ok || (!in_place && positions.size() != 4ull * count_)) {
    user_active_ = false;
    return false;
  }
  if (!in_place) {
    user_positions_ = std::move(positions);  // kept: the host target uploads it at close
    out.put(user_positions_.data(), user_positions_.size() * sizeof(float));
  }
  user_active_ = true;
  ++user_steps_;
  user_note_ = in_place || !out.on_device()
                   ? ""
                   : scene_user::reply_note("frames");
  report_user_step(l.kernel_ms, l.round_trip_ms);  // the plots and particles/s show yours
  return true;
}

}  // namespace cv

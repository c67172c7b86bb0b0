// The dots scene's hook for the student's kernel: the test-only example of a
// scene feeding a template (docs/architecture.md "Add a template"). While a
// dots_turn kernel is loaded each step goes to the runner instead of the
// built-in kernel, with the scene's turn and variant through their
// ScalarKeys; on a fault the built-in steps and user_note() says why.
#include <utility>

#include "dots_args.h"
#include "dots_scene.h"
#include "gl/interop_buffer.h"
#include "usercode/client/runner_client.h"
#include "usercode/client/user_kernel.h"

namespace cv {

bool DotsScene::run_user(VertexWrite& out, const BlockShape& b, float turn) {
  if (!user_ || !user_->feeds(name())) {
    user_state_.active = false;
    return false;
  }
  usercode::RunnerClient* rc = user_->runner();
  if (!rc) return false;
  usercode::Workload w;
  w.n = count_;
  w.block = b;
  w.reset = !user_state_.active;
  usercode::put(w, usercode::dots_args::turn, turn);
  usercode::put(w, usercode::dots_args::spiral, spiral_ ? 1u : 0u);
  const scene_user::Launch l = scene_user::step_particles(
      *user_, *rc, std::move(w), out, {vertices_->interop(), ids_buffer(), &ids_out_, count_}, user_state_);
  if (!l.ok) return false;  // busy or failed: the built-in steps
  report_user_step(l.kernel_ms, l.round_trip_ms);
  return true;
}

}  // namespace cv

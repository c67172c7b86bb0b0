#pragma once
// What the scenes' hooks for the student's kernel share (fountain, swarm,
// n-body: scenes/*_user_kernel.cpp): the scene's device buffers shared with
// the runner, the block a loaded kernel can take, host data as a span's bytes,
// and one timed launch.
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "scenes/particle_scene.h"
#include "usercode/wire/launch_request.h"
#include "usercode/templates/template_spec.h"

namespace cv {

class CudaExportableMemory;
class InteropBuffer;
namespace usercode {
class RunnerClient;
class UserKernel;
struct LaunchOutcome;
}  // namespace usercode

namespace scene_user {

// The fd-passing descriptor of the allocation holding `ptr` in `buffer`,
// exported the first time this runner sees it (fd >= 0 then; the caller
// closes it); nullopt when the buffer cannot be shared (no external memory).
// `generation` changes whenever the scene's buffers are rebuilt; `tag` keeps
// a second buffer set (the ids) apart.
std::optional<usercode::SharedBuffer> share(const InteropBuffer& buffer, const void* ptr,
                                            uint64_t generation, usercode::RunnerClient& rc,
                                            uint64_t tag = 0);

// The same for exportable memory a scene owns outright (n-body's force
// buffers), under `id`: unique among every buffer the runner may have mapped
// (a new allocation, a new id), never one share() above makes.
usercode::SharedBuffer share(const CudaExportableMemory& memory, uint64_t id, usercode::RunnerClient& rc);
// The ids share() gives an allocation the scene owns: `tag` (2 and up: 0 and 1
// are the vertex and colour-by buffers above), a number new for every
// allocation in this process (next_generation()), and which of its buffers.
uint64_t owned_id(uint64_t tag, uint64_t generation, unsigned index);
uint64_t next_generation();
// Closes the fds share() exported (they have travelled with the launch).
void close_fds(std::initializer_list<std::optional<usercode::SharedBuffer>*> buffers);
// The panel's note when the runner's results travel back in its reply instead
// of being written in place: "your kernel's <what> come back through ...".
std::string reply_note(const std::string& what, const std::string& why = "");

// Why `b` is refused while the loaded kernel `running` steps the scene (more
// threads than its registers or __launch_bounds__ allow); nullopt when it fits.
std::optional<std::string> block_limit(const usercode::UserKernel* running, const BlockShape& b);

// The loaded kernel as the occupancy panel shows it while it steps `scene`
// (cuFuncGetAttribute's values from the runner: no host stub here).
SceneKernel kernel_of(const usercode::UserKernel& uk, const std::string& scene);

// One launch of the loaded kernel on `w` from the UI thread (never waits for
// a lab run holding the runner: busy), and its request -> reply time.
struct Launch {
  bool ok = false, busy = false;
  double kernel_ms = 0;      // in the runner
  double round_trip_ms = 0;  // request -> reply, here
};
Launch launch(usercode::UserKernel& uk, const usercode::Workload& w, usercode::LaunchOutcome& reply);

// A particle scene's buffers for one step of the student's kernel (fountain,
// swarm): its vertex buffer and colour-by ids when the runner can share them.
struct ParticleBuffers {
  const InteropBuffer* vertices = nullptr;  // null: no external interop here
  const InteropBuffer* ids = nullptr;       // null: colour by launch is off
  const insight::IdsOut* ids_out = nullptr;
  unsigned count = 0;  // particles: 4 floats each
};
// What a particle scene keeps of the student's kernel from step to step.
struct ParticleUser {
  bool active = false;           // the last step was yours (else the runner starts from reset)
  uint64_t generation = 0;       // new vertex buffers: new shared-buffer ids (share() above)
  std::vector<float> positions;  // your last frame, when it came back in the reply
  std::string note;              // why yours runs slower than in place, "" when it does not
};
// One step of the student's kernel on a particle scene: written in place
// where the buffers can be shared (`in`, `out`, `ids` of the template), else
// the runner steps its own and the frame comes back in the reply into
// u.positions (kept: a host target uploads it at close), then out.put().
// Not ok when a lab run held the runner (busy: `u` unchanged, the built-in
// steps this frame), on a fault or a frame of the wrong size (u.active false).
Launch step_particles(usercode::UserKernel& uk, usercode::RunnerClient& rc, usercode::Workload w,
                      VertexWrite& out, const ParticleBuffers& b, ParticleUser& u);

}  // namespace scene_user
}  // namespace cv

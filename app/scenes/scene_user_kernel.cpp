#include "scenes/scene_user_kernel.h"

#include <unistd.h>

#include <atomic>

#include "common/cuda_check.h"
#include "gl/external_memory.h"
#include "gl/interop_buffer.h"
#include "timing/frame_timers.h"
#include "usercode/client/runner_client.h"
#include "usercode/client/user_kernel.h"

namespace cv::scene_user {

std::optional<usercode::SharedBuffer> share(const InteropBuffer& buffer, const void* ptr,
                                            uint64_t generation, usercode::RunnerClient& rc,
                                            uint64_t tag) {
  auto e = buffer.export_allocation(ptr, false);
  if (!e) return std::nullopt;
  usercode::SharedBuffer b;
  b.kind = usercode::SharedBuffer::Kind::CudaVmm;
  b.id = owned_id(tag, generation, static_cast<unsigned>(e->index));
  b.bytes = e->bytes;
  if (!rc.has_shared(b.id)) b.fd = buffer.export_allocation(ptr, true)->fd;
  return b;
}

usercode::SharedBuffer share(const CudaExportableMemory& memory, uint64_t id, usercode::RunnerClient& rc) {
  usercode::SharedBuffer b;
  b.kind = usercode::SharedBuffer::Kind::CudaVmm;
  b.id = id;
  b.bytes = memory.size();
  if (!rc.has_shared(b.id)) b.fd = memory.export_fd();
  return b;
}

uint64_t owned_id(uint64_t tag, uint64_t generation, unsigned index) {
  return (tag << 48) + generation * 2 + index + 1;
}

uint64_t next_generation() {
  static std::atomic<uint64_t> next{1};
  return next++;
}

void close_fds(std::initializer_list<std::optional<usercode::SharedBuffer>*> buffers) {
  for (auto* sb : buffers)
    if (*sb && (*sb)->fd >= 0) close((*sb)->fd), (*sb)->fd = -1;
}

std::string reply_note(const std::string& what, const std::string& why) {
  return "your kernel's " + what + " come back through the runner's reply (no external interop here" +
         (why.empty() ? "" : ": " + why) + "): slower than in place";
}

std::optional<std::string> block_limit(const usercode::UserKernel* running, const BlockShape& b) {
  if (!running || !running->status().resources.known || running->status().resources.max_threads <= 0)
    return std::nullopt;
  const int max = running->status().resources.max_threads;
  if (b.threads() <= max) return std::nullopt;
  return "your kernel can launch at most " + std::to_string(max) + " threads a block (its registers "
         "or __launch_bounds__), not " + std::to_string(b.threads());
}

SceneKernel kernel_of(const usercode::UserKernel& uk, const std::string& scene) {
  SceneKernel k;
  const usercode::UserKernelStatus& st = uk.status();
  KernelAttributes& a = k.attributes;
  a.name = "your " + (st.compile && !st.compile->entry_points.empty() ? st.compile->entry_points[0]
                                                                      : std::string("kernel"));
  a.ok = st.resources.known;
  a.error = a.ok ? "" : "your kernel's resources are not known yet";
  a.regs_per_thread = st.resources.registers;
  a.static_shared_bytes = st.resources.shared_bytes;
  a.local_bytes = st.resources.local_bytes;
  a.max_threads_per_block = st.resources.max_threads;
  k.context = scene + ", your kernel (" + st.template_name + ")";
  return k;
}

Launch launch(usercode::UserKernel& uk, const usercode::Workload& w, usercode::LaunchOutcome& reply) {
  const CpuStopwatch trip;
  reply = uk.launch(w, /*wait=*/false);
  Launch l;
  l.round_trip_ms = trip.ms();
  l.busy = reply.busy;
  l.ok = reply.ok && !reply.busy;
  l.kernel_ms = reply.kernel_ms.empty() ? 0 : reply.kernel_ms.back();
  return l;
}

Launch step_particles(usercode::UserKernel& uk, usercode::RunnerClient& rc, usercode::Workload w,
                      VertexWrite& out, const ParticleBuffers& b, ParticleUser& u) {
  std::optional<usercode::SharedBuffer> in, to, ids;
  if (b.vertices) {
    in = share(*b.vertices, out.source(), u.generation, rc);
    to = share(*b.vertices, out.device(), u.generation, rc);
  }
  const bool in_place = in && to;
  if (in_place) {
    w.shared["in"] = *in;
    w.shared["out"] = *to;
    // Colour by launch: your kernel's record_launch_id() writes the scene's ids buffer.
    if (b.ids && b.ids_out && b.ids_out->ids) {
      ids = share(*b.ids, b.ids_out->ids, u.generation, rc, 1);
      if (ids) w.shared["ids"] = *ids, w.values["colour_by"] = b.ids_out->mode;
    }
  }
  w.read_back = !in_place;
  // The built-in's last writes (this stream) land before the runner reads.
  if (out.on_device()) CV_CUDA(cudaStreamSynchronize(out.stream()));
  usercode::LaunchOutcome reply;
  Launch l = launch(uk, w, reply);
  close_fds({&in, &to, &ids});
  if (l.busy) return l;
  if (l.ok && !in_place) {
    std::vector<float> frame = reply.values<float>("out");
    if (frame.size() == 4ull * b.count) {
      u.positions = std::move(frame);
      out.put(u.positions.data(), u.positions.size() * sizeof(float));
    } else {
      l.ok = false;
    }
  }
  u.active = l.ok;
  if (l.ok) u.note = in_place || !out.on_device() ? "" : reply_note("frames");
  return l;
}

}  // namespace cv::scene_user

#pragma once
// What every simulated scene shares: "the particles" (a VertexTarget, made
// once from the backend: CUDA interop or the CPU upload), a stream, the block
// shape the user chose, and the timers for the plots. Subclasses hold their
// demo's simulation interface (scenes/<demo>_sim.h: a CUDA and a CPU
// implementation, made once from the backend) and step it through simulate();
// reconfigure() goes through the shared rebuild (scenes/rebuild.h).
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "common/block_shape.h"
#include "common/cuda_resources.h"
#include "common/device_info.h"
#include "common/kernel_attributes.h"
#include "gl/vertex_target.h"
#include "insight/access_model.h"
#include "insight/launch_model.h"
#include "registry/scene_registry.h"
#include "render/camera.h"
#include "render/particle_renderer.h"
#include "scenes/rebuild.h"
#include "scenes/scene_capabilities.h"
#include "timing/frame_timers.h"

namespace cv {
namespace usercode {
class UserKernel;
}

struct SceneUi;
struct SceneControls;

// A scene's param (registry/scene_registry.h: SceneParam) bound to its field.
using ParamPtr = std::variant<float*, int*, bool*>;
struct ParamBinding {
  const char* key;  // the descriptor's SceneParam::key
  ParamPtr ptr;
};

// What the app asks a scene to rebuild to (presets, lessons, the soak): the
// count, and the variant and choices (SceneChoice keys) when given.
struct RebuildRequest {
  unsigned count = 0;
  std::optional<std::string> variant;
  std::map<std::string, std::string> choices;
};

// The scene's step kernel for the occupancy panel and the kernel catalogue.
struct SceneKernel {
  KernelAttributes attributes;
  std::string context;  // e.g. "nbody, variant tiled"
};

class ParticleScene {
 public:
  // transfer: how its vertex buffers reach GL (the configuration's; defaults: no override).
  explicit ParticleScene(Backend backend, const TransferConfig& transfer = {});
  virtual ~ParticleScene() = default;

  virtual const char* name() const = 0;
  virtual ParticleStyle style() const = 0;
  virtual unsigned count() const = 0;

  // The capability C this scene has (scenes/scene_capabilities.h: the
  // student's kernel, the pointer, a floor and overlay, choices), else null.
  template <class C>
  C* as() {
    return dynamic_cast<C*>(this);
  }
  template <class C>
  const C* as() const {
    return dynamic_cast<const C*>(this);
  }

  // Hooks the app calls instead of asking for the scene's type; each scene's
  // overrides live in scenes/<scene>_scene_entry.cpp beside its registry
  // entry. The variant as --variant spells it ("" without variants).
  virtual std::string variant_name() const { return ""; }
  // The descriptor's params bound to this scene's fields (presets, lessons).
  virtual std::vector<ParamBinding> param_bindings() { return {}; }
  // Rebuilds for a new count, variant or choice through the scene's own
  // reconfigure(); *rebuilt says whether buffers were rebuilt (then the scene
  // starts from its reset). On failure returns why and keeps the current state.
  virtual std::optional<std::string> rebuild_for(const RebuildRequest& r, bool* rebuilt);
  // The step kernel of the current variant and block (the occupancy panel);
  // nullopt for a scene without one of ours.
  virtual std::optional<SceneKernel> kernel() const { return std::nullopt; }
  // The kernel's memory accesses for the memory view (insight/memory_view.h),
  // from its registry entry's model (SceneDescriptor::access_model); nullopt
  // where the scene's kernel is not modelled.
  std::optional<insight::AccessKernel> access_kernel(const BlockShape& b) const;
  // The student's kernel (usercode): whether this scene runs a loaded one
  // (its descriptor's runs_user_kernels; the scene is then a
  // StudentKernelHost) and its times.
  bool runs_user_kernels() const;
  // Yours: the student's kernel time per step as the runner measured it;
  // null for a scene that never runs one.
  const History* user_kernel_times() const { return runs_user_kernels() ? &user_ms_ : nullptr; }
  // Whether the last step was the student's kernel. Then kernel_ms holds ITS
  // times (the runner's CUDA events or host clock), so the plots, particles/s
  // and GB/s describe yours, and round_trip_ms what a step of yours costs the
  // app besides: request -> reply (the pipe, the launch, the wait, copies).
  bool kernel_is_yours() const { return yours_; }
  History round_trip_ms{240};
  // The built-in kernel's median over its last steps before yours took over (0: none).
  float builtin_kernel_ms() const { return yours_ ? builtin_median_ : kernel_ms.median(); }

  // Where the camera starts (and returns to on C) for this scene.
  struct CameraHome {
    glm::vec3 target{0.f, 0.8f, 0.f};
    float distance = 9.f, yaw = 0.6f, pitch = 0.3f;
  };
  virtual CameraHome camera_home() const { return {}; }
  // What the camera frames into the free part of the window (render/view_fit.h),
  // from the home's yaw and pitch; nullopt keeps the home's distance and target.
  virtual std::optional<ContentBounds> content_bounds() const { return std::nullopt; }
  // The scene's own throughput for the title bar and the --frames summary,
  // e.g. {"particles_per_s": ...}; from the latest kernel time.
  virtual nlohmann::ordered_json throughput() const;
  // False while there is nothing new to compute (the pi points are static
  // until resampled): step() then returns at once.
  virtual bool needs_step() const { return true; }
  // Scene-specific fields for the --frames summary (variant, estimate, ...).
  virtual void describe(nlohmann::ordered_json& j) const { (void)j; }
  // The launch in words for the block panel, e.g. "grid 16x16 blocks".
  virtual std::string grid_note() const { return ""; }
  // True once after the scene's extent changed (n-body reset with new bodies):
  // the app then refits the camera to camera_home().
  bool take_camera_refit() {
    const bool r = camera_refit_;
    camera_refit_ = false;
    return r;
  }

  // Colour by launch: each particle coloured by the block, warp, lane or SM
  // that computed it this frame. On CUDA the scene's kernel writes the ids
  // into a second buffer; on the CPU backend a separate pass derives them from
  // the same index functions (SM ids need a GPU: the colours stay normal).
  insight::ColourBy colour_by() const { return colour_by_; }
  void set_colour_by(insight::ColourBy c) { colour_by_ = c; }
  // Why the current choice cannot be drawn here ("" when it can).
  std::string colour_by_note() const;
  // The scene kernel's launch for the launch map and the CPU ids pass;
  // nullopt for a scene without a per-particle kernel launch (pi points).
  virtual std::optional<insight::ElementLaunch> element_launch() const { return std::nullopt; }
  // style() plus what colour by launch adds (the ids buffer and the mode).
  ParticleStyle styled() const;

  // UI, polyscope style (scenes/scene_ui.cpp): build_ui draws what every scene
  // shares (name, pause/step/reset, block shape) and then the scene's own
  // section, build_custom_ui (scenes/<scene>_ui.cpp); build_timing_ui draws
  // the scene's kernel plots and throughput for the timing panel.
  void build_ui(SceneUi& sui, SceneControls& run);
  void build_timing_ui(float plot_height);
  virtual void build_custom_ui(SceneUi& sui) { (void)sui; }

  // One simulation step into the vertex target, timed. Throws CudaError /
  // std::runtime_error on failure; the caller reports it and stops stepping.
  void step();
  // The frame calls this before GL draws the particles (core/scene_view.cpp):
  // the CPU waits for the GPU's last write of the vertices and of the colour-by
  // ids (external interop path; a no-op elsewhere). vbo() and styled() never wait.
  void wait_for_gpu();
  // Restores the initial state (same seed, same frames after it).
  virtual void reset() = 0;

  // Applies on the next step; returns the reason and keeps the current shape
  // when the shape is invalid for this backend's limits.
  std::optional<std::string> set_block(const BlockShape& b);
  const BlockShape& block() const { return block_; }
  // Whether the kernel uses block.y (fountain, swarm) or is 1D (n-body, pi).
  bool two_dimensional_block() const { return block_2d_; }

  Backend backend() const { return backend_; }
  TransferMode transfer_mode() const {
    return vertices_ ? vertices_->mode() : TransferMode::HostUpload;
  }
  std::string transfer_note() const;
  // Why better transfer paths were skipped ("" when none was).
  std::string transfer_reason() const { return vertices_ ? vertices_->fallback_reason() : ""; }
  // The front vertex buffer for GL (never waits: see wait_for_gpu()).
  GLuint vbo() const { return vertices_ ? vertices_->vbo() : 0; }
  // For renderers that read the vertex buffer through CUDA (the splatter);
  // nullptr on the CPU backend.
  InteropBuffer* vertex_buffer() { return vertices_ ? vertices_->interop() : nullptr; }
  cudaStream_t cuda_stream() const { return stream_ ? stream_->get() : nullptr; }

  History kernel_ms{240};  // the simulation kernel alone (CUDA events) or the CPU step
  History step_ms{240};    // map + kernel + unmap (or copy fallback), or CPU step + upload
  // CUDA only: the map (including any wait the driver inserts for GL's use of
  // the buffer) plus the unmap (or the copy fallback's copy), per frame.
  History interop_ms{240};
  History map_ms{240}, unmap_ms{240};
  // External path: CPU ms per frame waiting for CUDA (before GL reads) or for
  // GL (before CUDA writes); not GPU time, reported on its own.
  History sync_wait_ms{240};
  // Whether this scene's vertex buffer is double-buffered (CUDAVIZ_INTEROP).
  bool double_buffered() const { return vertices_ && vertices_->double_buffered(); }
  // How many ids buffers colour by launch uses (2: ping-pong), 0 when none.
  int id_buffers() const { return ids_ ? (ids_->double_buffered() ? 2 : 1) : 0; }
  long long steps() const { return steps_; }

 protected:
  void poll_timers();
  // One step of the scene's simulation into `out` ("the particles", wherever
  // they live: out.source() the previous frame, out.device() the next, or
  // out.put() of host memory), with the panel's block shape.
  virtual void simulate(VertexWrite& out, const BlockShape& b) = 0;
  // Scenes whose kernel can read one buffer and write another (every byte of
  // it) return true: their vertex buffer is then double-buffered unless
  // CUDAVIZ_INTEROP contains single.
  virtual bool ping_pong() const { return false; }
  // Ids the kernel should write this step (ids == nullptr: none).
  insight::IdsOut ids_out_;
  // The buffer ids_out_ points into (another process may write it: usercode);
  // nullptr on the CPU backend or while colour by launch is off.
  const InteropBuffer* ids_buffer() const { return ids_ ? ids_->interop() : nullptr; }
  // Called at the end of step(), outside the timed region (n-body energy, pi count).
  virtual void after_step() {}
  // simulate() calls this when the student's kernel made the step: its time in
  // the runner and the request -> reply time (ms); step() files them in place
  // of its own clock's, which spanned the round trip.
  void report_user_step(double kernel_ms, double round_trip_ms);
  // Extra rules on the block shape beyond the device limits (1D kernels).
  virtual std::optional<std::string> check_block(const BlockShape& b) const {
    (void)b;
    return std::nullopt;
  }

  void build_block_ui(SceneUi& sui);

  // For subclasses' reset(): the next frame of the particles, written in full.
  VertexWrite write_vertices() { return vertices_->write(cuda_stream()); }

  // The shared rebuild of every reconfigure() (scenes/rebuild.h): a vertex
  // target of `bytes` and a simulation from `make_sim` are built aside, swapped
  // in with `apply` (the new settings), then reset(); when any of it fails the
  // previous target, simulation, step count and the values `kept` held come
  // back, and the reason names `what` ("65536 particles").
  template <typename Sim, typename MakeSim>
  std::optional<std::string> rebuild(const std::string& what, size_t bytes,
                                     std::unique_ptr<Sim>& sim, MakeSim&& make_sim,
                                     const std::function<void()>& apply,
                                     const std::function<void()>& kept) {
    std::unique_ptr<VertexTarget> vertices;
    std::unique_ptr<Sim> next;
    const std::function<void()> steps = keep(steps_);
    return run_rebuild(what, {[&] {
                                vertices = make_vertices(bytes);
                                next = make_sim();
                              },
                              [&] {
                                std::swap(vertices_, vertices);
                                std::swap(sim, next);
                              },
                              apply, [this] { reset(); },
                              [&] {
                                steps();
                                if (kept) kept();
                              }});
  }
  // A vertex target of `bytes` for this backend (may throw).
  std::unique_ptr<VertexTarget> make_vertices(size_t bytes) const;

  Backend backend_;
  BlockShape block_{16, 16, 1};
  std::unique_ptr<VertexTarget> vertices_;  // "the particles"
  std::optional<CudaStream> stream_;
  std::optional<CudaTimerRing> kernel_timer_, step_timer_, map_timer_, unmap_timer_;
  std::vector<float> map_pending_;  // map times whose unmap has not completed yet
  long long steps_ = 0;
  InteropConfig interop_;   // CUDAVIZ_INTEROP / CUDAVIZ_FORCE_COPY (config/config.h)
  bool gl_finish_ = false;  // CUDAVIZ_GL_FINISH=1
  bool camera_refit_ = false;
  bool block_2d_ = true;  // the kernel reads block.y (fountain, swarm); 1D kernels (n-body) do not

 private:
  // Allocates the ids buffer for count() particles; false when colour by is
  // off or cannot apply (then the ids are marked stale).
  bool prepare_ids();
  void cpu_ids();
  // Whether styled() draws the ids buffer (written for this mode and count).
  bool ids_drawn() const;
  // kernel_ms changes hands (built-in <-> yours): it restarts, so no plot or
  // median mixes the two; timings of the other still in flight are dropped.
  void switch_kernel_source(bool yours);

  History user_ms_{240};
  bool yours_ = false;                 // the last step was the student's kernel
  std::optional<float> user_step_ms_;  // this step's, set by report_user_step()
  float user_round_trip_ms_ = 0;
  float builtin_median_ = 0;

  insight::ColourBy colour_by_ = insight::ColourBy::Normal;
  std::unique_ptr<VertexTarget> ids_;  // uint32 per particle, a GL vertex attribute
  std::vector<uint32_t> host_ids_;      // CPU backend
  insight::ColourBy ids_mode_ = insight::ColourBy::Normal;  // what ids_ holds now
};

// What the optional capabilities say of any scene (the defaults where it has none).
inline usercode::UserKernel* user_kernel_running(const ParticleScene& s) {
  const auto* h = s.as<StudentKernelHost>();
  return h ? h->user_kernel_running() : nullptr;
}
inline std::string user_note(const ParticleScene& s) {
  const auto* h = s.as<StudentKernelHost>();
  return h ? h->user_note() : std::string();
}
inline SceneDecor::Floor floor_of(const ParticleScene& s) {
  const auto* d = s.as<SceneDecor>();
  return d ? d->floor() : SceneDecor::Floor{};
}
inline std::vector<SceneDecor::Polyline> overlay_of(const ParticleScene& s) {
  const auto* d = s.as<SceneDecor>();
  return d ? d->overlay() : std::vector<SceneDecor::Polyline>{};
}
inline std::map<std::string, std::string> choices_of(const ParticleScene& s) {
  const auto* c = s.as<SceneChoices>();
  return c ? c->choices() : std::map<std::string, std::string>{};
}

}  // namespace cv

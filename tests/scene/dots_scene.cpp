#include "dots_scene.h"

#include <imgui.h>

#include <stdexcept>

#include "dots_math.h"
#include "scenes/scene_ui.h"
#include "widgets/widgets.h"

namespace cv {
namespace {

SceneDescriptor descriptor() {
  SceneDescriptor d;
  d.name = "dots";
  d.label = "dots (test)";
  d.hotkey = 5;
  d.variants = {"ring", "spiral"};
  d.default_variant = "ring";
  d.count_noun = "dots";
  d.max_count = [](Backend) { return static_cast<long long>(DotsScene::kMaxCount); };
  d.default_count = [](Backend) { return 4096ll; };
  d.bytes_per_element = [](const std::optional<std::string>&) { return 16ll; };
  d.params = {{"speed", ParamType::Number, -1, 1, -0.1, 0.1, "%.3f", nullptr,
               "Radians the dots turn a step."},
              {"point_size", ParamType::Number, 0.5, 100, 1, 40, "%.0f", "point size"},
              {"frozen", ParamType::Boolean, 0, 0, 0, 1, "", nullptr, "Stop turning."}};
  d.notice = "A test-only scene: dots on a ring, one thread a dot.";
  d.runs_user_kernels = true;  // the test-only template dots_turn feeds it
  d.soak_gpu[0] = d.soak_cpu[0] = 1000;
  d.soak_gpu[1] = d.soak_cpu[1] = 3000;
  d.make = [](Backend b, unsigned n, const std::string& v,
               const TransferConfig& t) -> std::unique_ptr<ParticleScene> {
    return std::make_unique<DotsScene>(b, n, v == "spiral", t);
  };
  return d;
}

const SceneRegistrar reg(descriptor());  // the one registration line

}  // namespace

DotsScene::DotsScene(Backend backend, unsigned count, bool spiral, const TransferConfig& transfer)
    : ParticleScene(backend, transfer) {
  block_ = BlockShape{128, 1, 1};
  block_2d_ = false;
  if (auto err = reconfigure(count, spiral)) throw std::invalid_argument(*err);
}

std::optional<std::string> DotsScene::reconfigure(unsigned count, bool spiral) {
  if (count < 1 || count > kMaxCount)
    return "dot count " + std::to_string(count) + " is outside [1, " + std::to_string(kMaxCount) +
           "]";
  // The shared rebuild (scenes/rebuild.h): built aside, kept as it was on failure.
  return rebuild(
      std::to_string(count) + " dots", static_cast<size_t>(count) * sizeof(float4), host_,
      [&] { return std::make_unique<std::vector<float4>>(count); },
      [&] {
        count_ = count;
        spiral_ = spiral;
      },
      keep(count_, spiral_, turn_));
}

std::optional<std::string> DotsScene::rebuild_for(const RebuildRequest& r, bool* rebuilt) {
  if (rebuilt) *rebuilt = false;
  bool spiral = spiral_;
  if (r.variant) {
    if (*r.variant != "ring" && *r.variant != "spiral")
      return "'" + *r.variant + "' is not a dots variant";
    spiral = *r.variant == "spiral";
  }
  if (r.count == count_ && spiral == spiral_) return std::nullopt;
  auto err = reconfigure(r.count, spiral);
  if (rebuilt) *rebuilt = !err;
  return err;
}

std::optional<SceneKernel> DotsScene::kernel() const {
  return SceneKernel{dots::dots_kernel_attributes(), "dots, variant " + variant_name()};
}

std::optional<std::string> DotsScene::check_block(const BlockShape& b) const {
  if (b.y != 1 || b.z != 1) return "the dots kernel uses 1D blocks (" + to_string(b) + ")";
  return scene_user::block_limit(user_kernel_running(), b);
}

float DotsScene::next_turn() {
  if (!frozen) turn_ += speed;
  return turn_;
}

void DotsScene::simulate(VertexWrite& out, const BlockShape& b) {
  const float turn = next_turn();
  if (run_user(out, b, turn)) return;  // the student's kernel made this step
  if (out.on_device()) {
    dots::write_dots_gpu(static_cast<float4*>(out.device()), count_, turn, spiral_,
                         static_cast<unsigned>(b.x), out.stream());
    return;
  }
  std::vector<float4>& host = *host_;
  for (unsigned i = 0; i < count_; ++i) host[i] = dots::dot(i, count_, turn, spiral_);
  out.put(host.data(), host.size() * sizeof(float4));
}

ParticleScene::CameraHome DotsScene::camera_home() const {
  CameraHome h;
  h.target = {0.5f, 0.5f, 0.f};
  h.distance = 2.3f;
  h.yaw = 0.f;
  h.pitch = 0.f;
  return h;
}

ParticleStyle DotsScene::style() const {
  ParticleStyle st;
  st.palette = ParticleStyle::Palette::InsideOutside;
  st.point_size = point_size;
  st.opacity = 0.9f;
  return st;
}

void DotsScene::build_custom_ui(SceneUi& sui) {
  ui::section("Dots");
  scene_ui::count_row(*this, sui, "dots", [&](unsigned n) { return reconfigure(n, spiral_); });
  for (const char* key : {"speed", "point_size", "frozen"}) scene_ui::param_slider(*this, key);
}

}  // namespace cv

#include "ui/frame_breakdown_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace cv {
namespace {

struct Series {
  const History* h;
  const char* name;
  ImU32 colour;
};

// Stacked columns, oldest left, one per frame of the histories.
void stacked_plot(const Series* s, int count, ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 p1(p0.x + size.x, p0.y + size.y);
  dl->AddRectFilled(p0, p1, ImGui::GetColorU32(ImGuiCol_FrameBg));
  const int n = s[0].h->size();
  float top = 1e-6f;
  for (int i = 0; i < n; ++i) {
    float sum = 0;
    for (int k = 0; k < count; ++k) sum += s[k].h->data()[i];
    top = std::max(top, sum);
  }
  top *= 1.1f;
  const float w = size.x / static_cast<float>(n);
  for (int i = 0; i < n; ++i) {
    const float x = p0.x + w * static_cast<float>(i);
    float y = p1.y;
    for (int k = 0; k < count; ++k) {
      const History& h = *s[k].h;
      const float v = h.data()[(h.offset() + i) % h.size()];
      const float dy = v / top * size.y;
      if (dy > 0.f)
        dl->AddRectFilled(ImVec2(x, y - dy), ImVec2(x + std::max(w, 1.f), y), s[k].colour);
      y -= dy;
    }
  }
  char label[32];
  std::snprintf(label, sizeof label, "%.3g ms", top);
  dl->AddText(ImVec2(p0.x + 4, p0.y + 2), ImGui::GetColorU32(ImGuiCol_Text), label);
  ImGui::Dummy(size);
}

const char* transfer_label(TransferMode m) {
  switch (m) {
    case TransferMode::External:
      return "interop: external, no map";
    case TransferMode::Interop:
      return "interop: map/unmap (GPU)";
    default:
      return "interop: copy (GPU)";
  }
}

}  // namespace

void FrameBreakdownPanel::draw(const ParticleScene& scene, const UiState& ui, ui::Layout& layout) {
  // A frame without a step (paused, or the static pi points) simulated nothing.
  const bool stepped = scene.steps() != last_steps_;
  last_steps_ = scene.steps();
  const float k = stepped ? scene.kernel_ms.latest() : 0.f;
  sim_.push(k);
  // A step of the student's kernel: kernel_ms is its time in the runner; the
  // rest of the request -> reply is the app waiting for the runner.
  const bool yours = scene.kernel_is_yours();
  const float wait = stepped && yours ? std::max(0.f, scene.round_trip_ms.latest() - k) : 0.f;
  runner_.push(wait);
  const float xfer = scene.backend() == Backend::Cuda
                         ? scene.interop_ms.latest()
                         : std::max(0.f, scene.step_ms.latest() - k - wait);
  xfer_.push(stepped ? xfer : 0.f);
  draw_.push(ui.stats.draw_ms.latest());
  ui_.push(ui_ms_);

  if (!window_.begin(layout, "frame breakdown")) return;  // its tab in the tool area
  const bool cuda = scene.backend() == Backend::Cuda;
  ImGui::Text("%.0f fps  (frame %.2f ms)", ui.stats.fps.latest(), ui.stats.frame_ms.latest());
  const Series series[] = {
      {&sim_,
       yours ? "simulate (your kernel)" : cuda ? "simulate (kernel, GPU)" : "simulate (CPU step)",
       IM_COL32(90, 170, 250, 255)},
      {&runner_, "runner round trip (wait)", IM_COL32(240, 90, 90, 255)},
      {&xfer_, cuda ? transfer_label(scene.transfer_mode()) : "upload (CPU)",
       IM_COL32(250, 180, 60, 255)},
      {&draw_, "draw (GL timer)", IM_COL32(120, 220, 120, 255)},
      {&ui_, "UI (CPU)", IM_COL32(220, 110, 220, 255)},
  };
  stacked_plot(series, 5, ImVec2(ImGui::GetContentRegionAvail().x, 90.f));
  for (const Series& s : series) {
    if (s.h == &runner_ && !yours) continue;  // only while the student's kernel steps
    ImGui::ColorButton(s.name, ImGui::ColorConvertU32ToFloat4(s.colour),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(10, 10));
    ImGui::SameLine();
    ImGui::Text("%-24s %.3f ms (median %.3f)", s.name, s.h->latest(), s.h->median());
  }
  if (scene.transfer_mode() == TransferMode::External)
    ImGui::Text("%-24s %.3f ms (median %.3f)", "sync wait (CPU, not stacked)",
                scene.sync_wait_ms.latest(), scene.sync_wait_ms.median());
  ImGui::PushStyleColor(ImGuiCol_Text, ui::kDim);
  ImGui::TextWrapped(
      "Stacked per frame. GPU parts are CUDA events and GL timer queries read "
      "without stalling, so they lag a frame or two; GPU work may overlap the CPU.");
  ImGui::PopStyleColor();
  layout.end_tool();
}

}  // namespace cv

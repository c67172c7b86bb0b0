#include "ui/record_controls.h"

#include <imgui.h>

#include <cstdio>

#include "widgets/widgets.h"

namespace cv {
namespace {

using record::RecordState;

void status_lines(const RecordControls& rc) {
  const record::RecordStatus& s = rc.status;
  char line[512];
  switch (s.state) {
    case RecordState::Idle:
      break;
    case RecordState::Recording:
      std::snprintf(line, sizeof line, "recording %s: %lld frames (%.1f s of video)",
                    s.path.c_str(), s.captured,
                    static_cast<double>(s.captured) / record::clip_fps(s.format));
      ui::wrapped(ui::kWarn, line);
      break;
    case RecordState::Finishing:
      ui::wrapped(ui::kDim, "ffmpeg is finishing " + s.path + " ...");
      break;
    case RecordState::Saved:
      std::snprintf(line, sizeof line, "saved %s (%lld frames, %dx%d)", s.path.c_str(), s.written,
                    s.size.width, s.size.height);
      ui::wrapped(ui::kGood, line);
      break;
    case RecordState::Failed:
      ui::wrapped(ui::kWarn, "recording failed: " + s.error);
      break;
  }
  if (!s.note.empty()) ui::wrapped(ui::kDim, s.note);
  if (!rc.message.empty()) ui::wrapped(ui::kWarn, rc.message);
  if (!rc.ffmpeg_found && rc.message.empty() && s.state != RecordState::Recording)
    ui::wrapped(ui::kWarn, record::kNeedsFfmpeg);
}

}  // namespace

void draw_record_controls(RecordControls& rc) {
  const RecordState st = rc.status.state;
  const bool busy = st == RecordState::Recording || st == RecordState::Finishing;
  ui::same_line_if_fits("stop recording");
  if (st == RecordState::Finishing) ImGui::BeginDisabled();
  if (ImGui::Button(st == RecordState::Recording ? "stop recording" : "record"))
    rc.toggle_requested = true;
  if (st == RecordState::Finishing) ImGui::EndDisabled();
  ui::tooltip(
      "Writes cudaviz-<time>.mp4 (or .gif) in the current directory through ffmpeg.\n"
      "Every frame is one 1/60 s simulation step, however long it takes to draw,\n"
      "so the clip plays smoothly even when the app runs slower while recording.");
  if (busy) ImGui::BeginDisabled();
  const char* formats[] = {"mp4", "gif"};
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("mp4").x * 2.5f + ImGui::GetFrameHeight());
  ImGui::Combo("##clip format", &rc.format, formats, 2);
  ui::tooltip("mp4: H.264, 60 fps, for video players. gif: every frame at 50 fps, for slides.");
  // Beside the combo when the whole checkbox (box, gap, label) fits.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float box = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x +
                    ImGui::CalcTextSize("with panels").x;
  if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + box <=
      ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
    ImGui::SameLine();
  ImGui::Checkbox("with panels", &rc.include_ui);
  ui::tooltip("Record the whole window; off: the scene alone, as if the panels were hidden.");
  if (busy) ImGui::EndDisabled();
  status_lines(rc);
}

}  // namespace cv

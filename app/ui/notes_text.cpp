#include "ui/notes_text.h"

#include <imgui.h>

namespace cv::notes {

const char* scene_notice(SceneKind kind) { return scene_info(kind).notice; }

void draw_notice(const char* text, const char* id) {
  if (!text || !*text) return;
  ImGui::PushID(id);
  if (ImGui::CollapsingHeader("what to notice")) {
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
  }
  ImGui::PopID();
}

}  // namespace cv::notes

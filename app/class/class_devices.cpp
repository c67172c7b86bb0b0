// The teacher's view of who joined: the class size cap, the joins allowed per
// address per minute, and every device (number, address, name, last seen),
// each with a button that removes it (its token ends; optionally its address
// may not join again). Student names are drawn by ImGui as plain text.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "class/class_room.h"
#include "widgets/widgets.h"

namespace cv::classvote {

namespace {

// An integer field with its label beside it where the column is wide enough
// (a projector's narrow column is not), else the label on the line above.
bool int_field(const char* label, int* v, int step, int fast) {
  const float field = 7 * ImGui::GetFontSize();
  const float beside = field + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
  const bool above = beside > ImGui::GetContentRegionAvail().x;
  ImGui::PushID(label);
  if (above) ImGui::TextUnformatted(label);
  ImGui::SetNextItemWidth(field);
  const bool changed = ImGui::InputInt(above ? "##v" : label, v, step, fast);
  ImGui::PopID();
  return changed;
}

}  // namespace

void ClassRoom::draw_devices() {
  if (!running() || !store_) return;
  if (int_field("class size at most", &class_cap_, 10, 100)) {
    class_cap_ = std::clamp(class_cap_, 1, 5000);
    store_->set_max_devices(class_cap_);
  }
  ui::tooltip("Joins beyond this are refused (\"the class is full\"); 1 to 5000.");
  if (int_field("joins per address per minute", &joins_per_minute_, 5, 50)) {
    joins_per_minute_ = std::clamp(joins_per_minute_, 1, 10000);
    if (server_) server_->set_joins_per_minute(joins_per_minute_);
  }
  ui::tooltip(
      "One address may join this often (each reload of a page is a join). Raise it where many "
      "phones share one address (a network that translates addresses); 1 to 10000.");
  const std::vector<Device> devices = store_->devices();
  char head[96];
  std::snprintf(head, sizeof head, "devices (%zu joined)###devices", devices.size());
  if (!ImGui::TreeNode(head)) return;
  ImGui::Checkbox("block removed addresses", &block_removed_);
  ui::tooltip("A removed device's address may not join again while the server runs.");
  const double now = devices.empty() ? 0 : std::max_element(devices.begin(), devices.end(),
                                                            [](const Device& a, const Device& b) {
                                                              return a.seen_s < b.seen_s;
                                                            })->seen_s;
  if (ImGui::BeginTable("devices", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY,
                        ImVec2(0, std::min(12.f, 1.f + devices.size()) * ImGui::GetFrameHeightWithSpacing()))) {
    ImGui::TableSetupColumn("#");
    ImGui::TableSetupColumn("address");
    ImGui::TableSetupColumn("name, last seen");
    ImGui::TableSetupColumn("");
    ImGui::TableHeadersRow();
    for (const Device& d : devices) {
      ImGui::PushID(d.number);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%d", d.number);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(d.address.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%s%s  %.0f s ago", d.name.empty() ? "-" : d.name.c_str(), d.name_hidden ? " (hidden)" : "",
                  std::max(0.0, now - d.seen_s));
      ImGui::TableNextColumn();
      if (ImGui::SmallButton("remove")) store_->remove_device(d.number, block_removed_);
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  ImGui::TreePop();
}

}  // namespace cv::classvote

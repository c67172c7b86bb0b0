// The class server's two faces in the window: the panel beside the scene
// (address, QR code and join code, large enough for the back of a room, and
// how many joined and voted), and the start/stop controls in the lesson tab.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "class/class_room.h"
#include "ui/layout.h"
#include "widgets/widgets.h"

namespace cv::classvote {

namespace {

const ImVec4 kCode{1.00f, 0.85f, 0.35f, 1.f};

// Black modules on white with the 4-module quiet zone phones' readers need;
// whole pixels per module so the code stays sharp.
void draw_qr(const QrCode& q, float side) {
  const int n = q.size + 8;
  const float px = std::max(1.f, std::floor(side / n));
  const float s = px * n;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  dl->AddRectFilled(p0, ImVec2(p0.x + s, p0.y + s), IM_COL32(255, 255, 255, 255));
  for (int y = 0; y < q.size; ++y)
    for (int x = 0; x < q.size; ++x)
      if (q.at(x, y)) {
        const ImVec2 a(p0.x + (x + 4) * px, p0.y + (y + 4) * px);
        dl->AddRectFilled(a, ImVec2(a.x + px, a.y + px), IM_COL32(0, 0, 0, 255));
      }
  ImGui::Dummy(ImVec2(s, s));
}

void big(float scale, const ImVec4& colour, const std::string& text) {
  ImGui::SetWindowFontScale(scale);
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopStyleColor();
  ImGui::SetWindowFontScale(1.f);
}

}  // namespace

void ClassRoom::draw(ui::Layout& layout) {
  if (!running()) return;
  if (!layout.begin_class_panel("vote from your phone###class")) return;
  const Tally& t = *tally_;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float font = ImGui::GetFontSize();
  const std::string address = url_.substr(0, url_.size() - 1);  // without the last '/'
  const std::string joined = std::to_string(t.joined) + " joined";
  const std::string voted = std::to_string(t.voted) + " voted";
  const std::string counts = joined + ", " + voted;
  if (show_qr && qr_) {
    // The code beside the QR code where the panel is wide enough, else below it.
    const float display_h = ImGui::GetIO().DisplaySize.y;
    const bool beside = avail > 20 * font;
    const float side = std::min(beside ? avail * 0.45f : avail, 0.22f * display_h);
    draw_qr(*qr_, side);
    if (beside) ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::TextUnformatted("code");
    big(2.6f, kCode, code_);
    big(1.2f, ui::kGood, joined);
    big(1.2f, ui::kGood, voted);
    ImGui::EndGroup();
    // The address under both, as large as the panel's width allows.
    ImGui::TextUnformatted("or open");
    big(std::clamp(0.98f * avail / std::max(1.f, ImGui::CalcTextSize(address.c_str()).x), 0.6f, 1.5f),
        ImGui::GetStyleColorVec4(ImGuiCol_Text), address);
  } else {
    const std::string line = address + "  code " + code_;
    const float scale = std::clamp(avail / std::max(1.f, ImGui::CalcTextSize(line.c_str()).x), 0.6f, 1.4f);
    ImGui::SetWindowFontScale(scale);
    ImGui::TextUnformatted(address.c_str());
    ImGui::SameLine();
    ImGui::TextColored(kCode, "code %s", code_.c_str());
    ImGui::SetWindowFontScale(1.f);
    big(1.2f, ui::kGood, counts);
  }
  if (ImGui::SmallButton(show_qr ? "fold the QR code" : "show the QR code")) show_qr = !show_qr;
  ui::same_line_if_fits("stop");
  if (ImGui::SmallButton("stop")) stop_request_ = true;
  layout.end_class_panel();
}

void ClassRoom::draw_controls() {
  ui::section("The class votes from phones");
  if (running()) {
    ui::wrapped(ImGui::GetStyleColorVec4(ImGuiCol_Text),
                "Phones open " + url_ + " and enter the code " + code_ + ".");
    ImGui::Checkbox("hide the counts until the reveal", &hide_counts);
    ui::tooltip(
        "Peer instruction: the projector shows how many voted, not how, until the run "
        "reveals the answer.");
    ui::same_line_if_fits("stop the class server");
    if (ImGui::Button("stop the class server")) stop_request_ = true;
    draw_devices();
    return;
  }
  if (interfaces_.empty()) interfaces_ = list_interfaces();  // once; "refresh" reads them again
  std::string items;
  for (const auto& n : interfaces_) items += n.label() + '\0';
  chosen_ = std::clamp(chosen_, 0, static_cast<int>(interfaces_.size()) - 1);
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x * 0.6f, 18 * ImGui::GetFontSize()));
  ImGui::Combo("listen on", &chosen_, items.c_str());
  ui::tooltip(
      "The phones reach the app at this address: the classroom's network (Wi-Fi), not "
      "every interface. 127.0.0.1 is this machine only.");
  ui::same_line_if_fits("refresh");
  if (ImGui::SmallButton("refresh")) interfaces_ = list_interfaces();
  ImGui::SetNextItemWidth(6 * ImGui::GetFontSize());
  ImGui::InputInt("port", &port_field_, 0);
  port_field_ = std::clamp(port_field_, 1, 65535);
  ui::same_line_if_fits("let the class vote");
  if (ImGui::Button("let the class vote")) start_request_ = true;
  ui::tooltip("Starts the class server: the address, a QR code and a join code appear beside the scene.");
  if (!message_.empty()) ui::wrapped(ui::kWarn, message_);
}

}  // namespace cv::classvote

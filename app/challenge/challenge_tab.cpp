// The challenge tab: the teacher's settings (template, goal, deadline), the
// queue, the leaderboard with the built-ins as reference lines, and per
// submission "show the source" and "run it in the scene". Student text (names,
// sources) is drawn by ImGui as plain text, never interpreted.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "challenge/challenge.h"
#include "challenge/challenge_api.h"
#include "usercode/templates/template_registry.h"
#include "widgets/widgets.h"

namespace cv::challenge {

namespace {
std::string ms_text(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ms < 1 ? "%.4f ms" : "%.3f ms", ms);
  return buf;
}
}  // namespace

void Challenge::draw(ui::Layout& layout) {
  if (!tab_.begin(layout, "challenge###challenge")) return;
  draw_settings();
  if (store_->total() > 0 || store_->is_open()) {
    draw_board();
    draw_queue();
    draw_source();
  }
  layout.end_tool();
}

void Challenge::draw_settings() {
  ui::section("Challenge: the class writes a kernel");
  if (!room_ || !room_->running()) {
    ui::wrapped(ui::kDim, "Start the class server first (the lesson tab's \"let the class vote\", or "
                          "--class-server): the students open its address and join with the code.");
  } else {
    ui::wrapped(ImGui::GetStyleColorVec4(ImGuiCol_Text),
                "Students open " + room_->url() + "challenge.html and join with the code " + room_->code() + ".");
  }
  const auto& specs = usercode::template_specs();
  if (specs.empty()) return;
  template_index_ = std::clamp(template_index_, 0, static_cast<int>(specs.size()) - 1);
  const bool open = store_->is_open();
  ImGui::BeginDisabled(open);
  ImGui::SetNextItemWidth(14 * ImGui::GetFontSize());
  if (ImGui::BeginCombo("template", specs[template_index_]->name.c_str())) {
    for (int i = 0; i < static_cast<int>(specs.size()); ++i)
      if (ImGui::Selectable(specs[i]->name.c_str(), i == template_index_)) template_index_ = i;
    ImGui::EndCombo();
  }
  ui::tooltip(specs[template_index_]->description.c_str());
  ImGui::RadioButton("correct, then fastest", &goal_kind_, 0);
  ImGui::SameLine();
  ImGui::RadioButton("correct within a target time", &goal_kind_, 1);
  if (goal_kind_ == 1) {
    ImGui::SetNextItemWidth(7 * ImGui::GetFontSize());
    ImGui::InputFloat("target (ms)", &target_ms_, 0, 0, "%.4f");
  }
  ImGui::SetNextItemWidth(7 * ImGui::GetFontSize());
  ImGui::InputInt("deadline (minutes, 0: none)", &deadline_min_);
  ImGui::EndDisabled();
  if (!open && ImGui::Button("open the challenge")) {
    ChallengeSettings s;
    s.template_name = specs[template_index_]->name;
    s.goal.kind = goal_kind_ ? Goal::Kind::Target : Goal::Kind::Fastest;
    s.goal.target_ms = target_ms_;
    if (deadline_min_ < 0 || deadline_min_ > 24 * 60)
      message_ = "the deadline is 0 (none) to 1440 minutes (got " + std::to_string(deadline_min_) + ")";
    else if (goal_kind_ == 1 && !(target_ms_ > 0))
      message_ = "the target time must be above 0 ms";
    else {
      s.deadline_s = deadline_min_ * 60.0;
      if (auto err = this->open(s)) message_ = *err;
    }
  }
  if (open) {
    const double left = store_->seconds_left();
    if (std::isfinite(left))
      ImGui::TextColored(left > 0 ? ui::kGood : ui::kWarn, "%s", left > 0 ? ("deadline in " + std::to_string(static_cast<int>(left / 60)) + " min " + std::to_string(static_cast<int>(left) % 60) + " s").c_str() : "the deadline has passed");
    if (ImGui::Button("close the challenge")) close();
  }
  if (!message_.empty()) ui::wrapped(ui::kWarn, message_);
}

void Challenge::draw_queue() {
  const auto q = store_->queue();
  char head[64];
  std::snprintf(head, sizeof head, "queue (%zu)###queue", q.size());
  if (!ImGui::CollapsingHeader(head, ImGuiTreeNodeFlags_DefaultOpen)) return;
  const auto lat = store_->latencies();
  if (!lat.empty()) {
    std::vector<double> v = lat;
    std::sort(v.begin(), v.end());
    ImGui::TextColored(ui::kDim, "submit to verdict: median %.2f s, p99 %.2f s over %zu", v[v.size() / 2],
                       v[std::min(v.size() - 1, v.size() * 99 / 100)], v.size());
  }
  int shown = 0;
  for (const Submission& s : q) {
    if (++shown > 12) {
      ImGui::TextColored(ui::kDim, "... and %zu more", q.size() - 12);
      break;
    }
    ImGui::Text("#%llu  student %d  %s", static_cast<unsigned long long>(s.id), s.device, to_string(s.stage));
  }
}

void Challenge::draw_board() {
  ImGui::SetWindowFontScale(1.2f);
  ImGui::TextUnformatted("Leaderboard: best correct time");
  ImGui::SetWindowFontScale(1.f);
  const auto builtins = store_->builtins();
  for (const auto& [variant, ms] : builtins)
    ImGui::TextColored(ui::kDim, "  built-in %s: %s", variant.c_str(), ms_text(ms).c_str());
  if (builtins.empty() && store_->is_open()) ImGui::TextColored(ui::kDim, "  (measuring the built-ins...)");
  const classvote::VoteStore* votes = room_ ? room_->store() : nullptr;
  if (!votes) return;
  const nlohmann::json board = leaderboard_json(*store_, *votes, 0);
  const std::string scene = [&] {
    const usercode::TemplateSpec* t = usercode::find_template(store_->settings().template_name);
    return t && t->feeds == usercode::Feeds::Scene ? t->feeds_name : std::string();
  }();
  if (!ImGui::BeginTable("board", 4, ImGuiTableFlags_RowBg)) return;
  for (const auto& row : board["rows"]) {
    const int device = row["device"].get<int>();
    const uint64_t id = row["submission"].get<uint64_t>();
    ImGui::PushID(device);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%d", row["rank"].get<int>());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row["name"].get<std::string>().c_str());
    ImGui::TableNextColumn();
    ImGui::TextColored(row["meets_goal"].get<bool>() ? ui::kGood : ui::kWarn, "%s",
                       ms_text(row["ms"].get<double>()).c_str());
    ImGui::TableNextColumn();
    if (ImGui::SmallButton("source")) shown_source_ = id;
    ImGui::SameLine();
    const bool hidden = row["name"] == "(hidden)";
    if (ImGui::SmallButton(hidden ? "show name" : "hide name")) room_->store()->hide_name(device, !hidden);
    if (!scene.empty()) {
      ImGui::SameLine();
      if (ImGui::SmallButton("run in the scene"))
        if (auto s = store_->submission(id)) {
          live_ = LiveRequest{false, store_->settings().template_name, s->source,
                              "challenge #" + std::to_string(id) + " (" + row["name"].get<std::string>() + ")",
                              scene};
          live_submission_ = id;
        }
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
  if (live_submission_ && ImGui::Button("back to the built-in kernel")) {
    live_ = LiveRequest{true, "", "", "", scene};
    live_submission_ = 0;
  }
}

void Challenge::draw_source() {
  if (!shown_source_) return;
  const auto s = store_->submission(shown_source_);
  if (!s) return;
  ImGui::Separator();
  ImGui::Text("submission #%llu (student %d)", static_cast<unsigned long long>(s->id), s->device);
  ImGui::SameLine();
  if (ImGui::SmallButton("hide the source")) shown_source_ = 0;
  ImGui::SetWindowFontScale(1.15f);
  ImGui::InputTextMultiline("##source", const_cast<char*>(s->source.c_str()), s->source.size() + 1,
                            ImVec2(-1, 18 * ImGui::GetTextLineHeight()), ImGuiInputTextFlags_ReadOnly);
  ImGui::SetWindowFontScale(1.f);
}

}  // namespace cv::challenge

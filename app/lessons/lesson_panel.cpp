// The "lesson" tab: the step's text on the left; the prediction, the Run
// button and the measured result beside the prediction on the right.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "lessons/lesson_player.h"
#include "widgets/widgets.h"

namespace cv::lessons {

namespace {

const ImVec4 kAccent{1.00f, 0.85f, 0.35f, 1.f};

std::string file_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

void LessonPlayer::draw(ui::Layout& layout) {
  if (!tab_.begin(layout, lesson_ ? ("lesson: " + lesson_->title + "###lesson").c_str()
                                   : "lesson###lesson"))
    return;
  if (!lesson_ || !problems_.empty()) {
    draw_loader();
    layout.end_tool();
    return;
  }
  draw_navigation();
  const Step& step = lesson_->steps[current_];
  const StepPlan& p = plan();
  // Text | prediction and Run | the measurement, side by side where the
  // window is wide enough (the prediction beside what was measured).
  const float width = ImGui::GetContentRegionAvail().x / ImGui::GetFontSize();
  const bool has_box = p.predict.kind != Prediction::Kind::None || p.run.kind != RunSpec::Kind::None;
  const int columns = !has_box ? 1 : width > 66 ? 3 : width > 40 ? 2 : 1;
  if (columns > 1 && ImGui::BeginTable("step", columns, ImGuiTableFlags_BordersInnerV |
                                                            ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("text", ImGuiTableColumnFlags_WidthStretch, columns == 3 ? 0.4f : 0.52f);
    ImGui::TableSetupColumn("predict", ImGuiTableColumnFlags_WidthStretch, columns == 3 ? 0.28f : 0.48f);
    if (columns == 3) ImGui::TableSetupColumn("measured", ImGuiTableColumnFlags_WidthStretch, 0.32f);
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    draw_markdown(text_[current_]);
    if (run_done_) draw_markdown(explanation_[current_]);
    ImGui::TableSetColumnIndex(1);
    draw_prediction();
    draw_run_controls();
    if (columns == 3) ImGui::TableSetColumnIndex(2);
    draw_reveal();
    ImGui::EndTable();
  } else if (class_voting()) {
    // One narrow column (presentation mode's) while the class votes: the
    // question, the live counts and the reveal first, where the room sees them.
    draw_prediction();
    draw_run_controls();
    draw_reveal();
    ImGui::Separator();
    draw_markdown(text_[current_]);
    if (run_done_) draw_markdown(explanation_[current_]);
  } else {
    draw_markdown(text_[current_]);
    if (has_box) {
      ImGui::Separator();
      draw_prediction();
      draw_run_controls();
      draw_reveal();
    }
    if (run_done_ || !has_box) draw_markdown(explanation_[current_]);
  }
  if (run_done_ && p.table) draw_rows();
  draw_class_votes();
  (void)step;
  layout.end_tool();
}

void LessonPlayer::draw_loader() {
  if (!problems_.empty()) {
    ui::wrapped(ui::kBad, "'" + path_ + "' cannot be used (" + std::to_string(problems_.size()) +
                              " problem" + (problems_.size() == 1 ? "" : "s") + "):");
    for (const auto& p : problems_) ui::wrapped(ui::kWarn, p);
    ImGui::Separator();
  }
  const std::vector<std::string> files = shipped_lessons(paths_);
  if (!files.empty()) {
    shipped_ = std::clamp(shipped_, 0, static_cast<int>(files.size()) - 1);
    std::string items;
    for (const auto& f : files) items += file_name(f) + '\0';
    ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x * 0.6f,
                                     28 * ImGui::GetFontSize()));
    ImGui::Combo("##shipped", &shipped_, items.c_str());
    ui::same_line_if_fits("open");
    if (ImGui::Button("open")) load_request_ = files[shipped_];
  }
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x * 0.6f,
                                   28 * ImGui::GetFontSize()));
  ImGui::InputText("##path", path_field_, sizeof path_field_);
  ui::same_line_if_fits("open file");
  if (ImGui::Button("open file")) load_request_ = std::string(path_field_);
  ui::wrapped(ui::kDim,
              "A lesson is a Markdown file: '## Step: title' per step, a ```step block of "
              "key: value lines, the text, then '### Explanation' (docs/lessons.md).");
  if (!message_.empty()) ui::wrapped(ui::kWarn, message_);
}

void LessonPlayer::draw_navigation() {
  const int n = static_cast<int>(lesson_->steps.size());
  ImGui::BeginDisabled(current_ == 0 || script_busy());
  if (ImGui::Button("< back")) go_request_ = current_ - 1;
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(current_ + 1 >= n || script_busy());
  if (ImGui::Button("next >")) go_request_ = current_ + 1;
  ImGui::EndDisabled();
  // The step's Run where it is never scrolled away: the top row (on a
  // projector the QR code and the class's bars can push the Run section out
  // of view).
  run_button_visible_ = false;
  if (plan().run.kind != RunSpec::Kind::None) {
    ImGui::SameLine();
    ImGui::BeginDisabled(script_busy() || running());
    if (ImGui::Button(running() ? "running...###navrun" : run_done_ ? "Run again###navrun" : "Run###navrun"))
      run_request_ = true;
    ImGui::EndDisabled();
    note_run_button();
  }
  for (int i = 0; i < n; ++i) {
    char label[16];
    std::snprintf(label, sizeof label, "%d", i + 1);
    ui::same_line_if_fits(label);
    const bool on = i == current_;
    if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(label) && !script_busy()) go_request_ = i;
    if (on) ImGui::PopStyleColor();
    // Not in scripted runs: Xvfb's pointer rests mid-screen and would leave a tooltip in pictures.
    if (!script_ && ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", lesson_->steps[i].title.c_str());
  }
  char head[512];
  std::snprintf(head, sizeof head, "Step %d of %d: %s", current_ + 1, n,
                lesson_->steps[current_].title.c_str());
  ImGui::SetWindowFontScale(1.2f);
  ui::wrapped(kAccent, head);
  ImGui::SetWindowFontScale(1.f);
  if (!state_applied_ && !state_problems_.empty())
    for (const auto& s : state_problems_) ui::wrapped(ui::kBad, "state: " + s);
  if (lesson_->steps[current_].gpu_only && backend_ == Backend::Cpu)
    ui::wrapped(ui::kWarn,
                "CPU backend: this step is about the GPU. The numbers below come from the CPU "
                "twins; the GPU's need a CUDA device.");
  ImGui::Separator();
}

// Whether the Run button just drawn lies wholly inside the window's visible
// part (the --frames summary reports it per step: the window tests check it).
void LessonPlayer::note_run_button() {
  const ImRect item(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  if (ImGui::GetCurrentWindow()->ClipRect.Contains(item)) run_button_visible_ = true;
}

void LessonPlayer::draw_prediction() {
  const Prediction& p = plan().predict;
  if (p.kind == Prediction::Kind::None) return;
  ui::section("Predict first");
  if (!p.question.empty()) ui::wrapped(kAccent, p.question);
  if (class_voting()) {  // the phones' votes in place of the hands
    draw_votes();
    return;
  }
  const bool locked = running() || run_done_;
  ImGui::BeginDisabled(locked);
  const float field_w = 7 * ImGui::GetFontSize();
  if (p.kind == Prediction::Kind::Choice) {
    for (size_t i = 0; i < p.choices.size(); ++i) {
      ImGui::PushID(static_cast<int>(i));
      const bool answer = run_done_ && verdict_.correct_choice == static_cast<int>(i);
      ImGui::SetNextItemWidth(field_w);
      ImGui::InputInt("##hands", &hands_[i]);
      hands_[i] = std::max(0, hands_[i]);
      ImGui::SameLine();
      if (answer)
        ui::wrapped(ui::kGood, p.choices[i].label + "   <- measured");
      else
        ui::wrapped(ImGui::GetStyleColorVec4(ImGuiCol_Text), p.choices[i].label);
      ImGui::PopID();
    }
    ImGui::TextColored(ui::kDim, "hands per choice");
  } else {
    ImGui::SetNextItemWidth(field_w * 1.4f);
    if (ImGui::InputDouble("##guess", &guess_, 0, 0, "%.4g")) guess_given_ = true;
    ImGui::SameLine();
    ImGui::TextUnformatted(p.unit.empty() ? "(the class's number)" : p.unit.c_str());
  }
  ImGui::EndDisabled();
}

void LessonPlayer::draw_run_controls() {
  const RunSpec& r = plan().run;
  if (r.kind == RunSpec::Kind::None) return;
  ui::section("Run");
  ui::wrapped(ui::kDim, run_label());
  if (running()) {
    float progress = 0;
    if (run_kind_ == RunKind::Lab) progress = labs_.progress();
    if (run_kind_ == RunKind::Sweep) progress = sweep_.progress();
    if (run_kind_ == RunKind::Scene && r.kind == RunSpec::Kind::Frames && r.frames > 0)
      progress = 1.f - static_cast<float>(run_frames_left_) / static_cast<float>(r.frames);
    if (ImGui::Button("cancel")) {
      labs_.cancel();
      sweep_.cancel();
    }
    ImGui::SameLine();
    ImGui::ProgressBar(std::clamp(progress, 0.f, 1.f), ImVec2(-1, 0), "running");
  } else {
    ImGui::BeginDisabled(script_busy());
    if (ImGui::Button(run_done_ ? "Run again" : "Run")) run_request_ = true;
    ImGui::EndDisabled();
    note_run_button();
  }
}

void LessonPlayer::draw_reveal() {
  const StepPlan& p = plan();
  if (!run_done_) {
    if (p.run.kind != RunSpec::Kind::None) {
      ui::section("Measured");
      ui::wrapped(ui::kDim, running() ? "measuring..." : "press Run to measure");
    }
    return;
  }
  ui::section("Measured");
  if (!run_error_.empty()) ui::wrapped(ui::kBad, "the run failed: " + run_error_);
  const bool cpu_gpu_step = lesson_->steps[current_].gpu_only && backend_ == Backend::Cpu;
  if (p.predict.kind != Prediction::Kind::None && !verdict_.measured && cpu_gpu_step) {
    ui::wrapped(ui::kWarn, "the answer needs a GPU (CUDA backend)");
  } else if (p.predict.kind != Prediction::Kind::None && !verdict_.summary.empty()) {
    if (p.predict.kind == Prediction::Kind::Number) draw_class_histogram();
    const bool any = p.predict.kind == Prediction::Kind::Number ? guess_given_
                                                                 : [&] {
                                                                     int t = 0;
                                                                     for (int h : hands_) t += h;
                                                                     return t > 0;
                                                                   }();
    ui::wrapped(!verdict_.measured ? ui::kWarn
                : !any             ? ImGui::GetStyleColorVec4(ImGuiCol_Text)
                : verdict_.right   ? ui::kGood
                                   : ui::kBad,
                verdict_.summary);
  }
  // Numbers of one kind (the same field: ms_median, gb_per_s...) get bars on one scale.
  auto field = [](const std::string& key) { return key.substr(key.rfind('.') + 1); };
  std::map<std::string, double> top;
  std::map<std::string, int> kind_count;  // a bar alone compares with nothing
  for (const auto& s : p.show)
    if (auto x = lookup(values_, s.key); x && x->is_number()) {
      top[field(s.key)] = std::max(top[field(s.key)], std::fabs(x->get<double>()));
      ++kind_count[field(s.key)];
    }
  if (!p.show.empty() &&
      ImGui::BeginTable("values", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch, 0.4f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 0.3f);
    ImGui::TableSetupColumn("bar", ImGuiTableColumnFlags_WidthStretch, 0.3f);
    for (const auto& s : p.show) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ui::wrapped(ImGui::GetStyleColorVec4(ImGuiCol_Text), s.label);
      ImGui::TableSetColumnIndex(1);
      const auto x = lookup(values_, s.key);
      if (x)
        ui::wrapped(kAccent, format_value(s.key, *x));
      else
        ui::wrapped(ui::kDim, cpu_gpu_step ? "not run on the CPU" : "not measured");
      ImGui::TableSetColumnIndex(2);
      const double t = top[field(s.key)];
      if (x && x->is_number() && t > 0 && !x->is_number_integer() &&
          kind_count[field(s.key)] > 1) {
        ImGui::PushStyleColor(ImGuiCol_PlotHistogram, kAccent);
        ImGui::ProgressBar(static_cast<float>(std::fabs(x->get<double>()) / t), ImVec2(-1, 0), "");
        ImGui::PopStyleColor();
      }
    }
    ImGui::EndTable();
  }
}

// Every row the run measured: what, size, time, throughput, answer.
void LessonPlayer::draw_rows() {
  if (rows_.empty()) return;
  ui::section("Every measurement");
  // Narrow windows (large UI scales) drop the block and rate columns rather
  // than run past the panel's edge.
  const bool wide = ImGui::GetContentRegionAvail().x > 48 * ImGui::GetFontSize();
  const int cols = wide ? 6 : 4;
  if (!ImGui::BeginTable("rows", cols,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp |
                             ImGuiTableFlags_BordersInnerV))
    return;
  for (const char* h : {"variant", "n", "block", "time", "rate", "answer"}) {
    if (!wide && (std::string(h) == "block" || std::string(h) == "rate")) continue;
    ImGui::TableSetupColumn(h);
  }
  ImGui::TableHeadersRow();
  for (const auto& r : rows_) {
    ImGui::TableNextRow();
    // Columns by their wide-table number; the narrow table skips 2 and 4.
    auto cell = [&](int c, const std::string& text, const ImVec4& colour) {
      if (!wide && (c == 2 || c == 4)) return;
      ImGui::TableSetColumnIndex(wide ? c : c == 3 ? 2 : c == 5 ? 3 : c);
      ui::wrapped(colour, text);
    };
    const ImVec4 text = ImGui::GetStyleColorVec4(ImGuiCol_Text);
    cell(0, r.value("variant", r.value("shape", std::string("-"))), text);
    cell(1, r.contains("n") ? format_value("n", r["n"]) : "-", text);
    std::string block = r.contains("shape") ? r["shape"].get<std::string>() : "-";
    if (r.contains("block") && r["block"].is_array() && !r.contains("shape")) {
      block.clear();
      for (const auto& x : r["block"]) block += (block.empty() ? "" : "x") + x.dump();
    }
    cell(2, block, text);
    if (r.contains("refused")) {
      cell(3, "refused", ui::kWarn);
      cell(4, r["refused"].get<std::string>(), ui::kDim);
      continue;
    }
    cell(3, r.contains("ms_median") ? format_value("ms_median", r["ms_median"]) : "-", kAccent);
    std::string tp = "-";
    for (const char* k : {"gb_per_s", "samples_per_s", "triples_per_s", "interactions_per_s",
                          "particles_per_s", "pairs_per_s", "fps"})
      if (r.contains(k)) {
        tp = format_value(k, r[k]);
        break;
      }
    cell(4, tp, text);
    std::string answer = r.contains("result") ? format_value("result", r["result"]) : "-";
    const bool wrong = r.contains("correct") && r["correct"].is_boolean() && !r["correct"].get<bool>();
    if (wrong) answer += " (wrong)";
    cell(5, answer, wrong ? ui::kBad : text);
  }
  ImGui::EndTable();
}

}  // namespace cv::lessons

// The lesson and the class's phones: each step is published to the
// class server as it is shown, the votes fill the hands per choice (or the
// class's number), the run's end closes the votes, and the measurement is
// revealed to the phones beside how the class voted. Each step's votes are
// kept for the summary and the CSV/JSON export.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "io/atomic_file.h"
#include "lessons/lesson_player.h"
#include "widgets/widgets.h"

namespace cv::lessons {

namespace {

classvote::Question::Kind kind_of(Prediction::Kind k) {
  switch (k) {
    case Prediction::Kind::Choice:
      return classvote::Question::Kind::Choice;
    case Prediction::Kind::Number:
      return classvote::Question::Kind::Number;
    case Prediction::Kind::None:
      break;
  }
  return classvote::Question::Kind::None;
}

std::string with_unit(double x, const std::string& unit) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g%s%s", x, unit.empty() ? "" : " ", unit.c_str());
  return buf;
}

}  // namespace

bool LessonPlayer::class_voting() const {
  return class_ && lesson_ && class_->running() && published_to_ == class_->store() &&
         published_step_ == current_ && plan().predict.kind != Prediction::Kind::None;
}

void LessonPlayer::sync_class() {
  classvote::VoteStore* store = class_ ? class_->store() : nullptr;
  if (!store) {
    published_to_ = nullptr;
    return;
  }
  if (!lesson_) return;
  const StepPlan& p = plan();
  if (store != rounds_of_) {  // a new server: its rounds start afresh
    revealed_rounds_.clear();
    rounds_of_ = store;
  }
  if (store != published_to_ || current_ != published_step_) {
    // A step the class already saw revealed: its round again, votes and all.
    if (const auto it = revealed_rounds_.find(current_);
        it != revealed_rounds_.end() && run_done_ && store->revisit(it->second)) {
      round_ = it->second;
      published_to_ = store;
      published_step_ = current_;
      return;
    }
    classvote::Question q;
    q.kind = kind_of(p.predict.kind);
    q.step = current_ + 1;
    q.steps = static_cast<int>(lesson_->steps.size());
    q.lesson = lesson_->title;
    q.title = lesson_->steps[current_].title;
    q.question = p.predict.question.empty() ? q.title : p.predict.question;
    for (const auto& c : p.predict.choices) q.choices.push_back(c.label);
    q.unit = p.predict.unit;
    if (p.predict.range) q.range = classvote::Range{p.predict.range->first, p.predict.range->second};
    round_ = store->publish(q);
    published_to_ = store;
    published_step_ = current_;
    if (run_done_) reveal_to_class();  // started after the run: the phones see the answer
    return;
  }
  const classvote::Tally& t = class_->tally();
  if (t.round != round_ || t.closed || run_done_) return;
  // Until the run ends, the votes are the class's prediction.
  if (p.predict.kind == Prediction::Kind::Choice && t.counts.size() == hands_.size()) hands_ = t.counts;
  if (p.predict.kind == Prediction::Kind::Number)
    if (auto m = classvote::median(t.numbers)) {
      guess_ = *m;
      guess_given_ = true;
    }
}

// After the verdict: the phones see the measurement beside the votes, and the
// step's row is kept (the final tally: close() refused any vote after it).
void LessonPlayer::reveal_to_class() {
  classvote::VoteStore* store = class_ ? class_->store() : nullptr;
  if (!store || published_to_ != store || published_step_ != current_) return;
  const StepPlan& p = plan();
  classvote::Reveal r;
  r.correct_choice = verdict_.correct_choice;
  r.verdict = verdict_.summary;
  if (p.predict.kind == Prediction::Kind::Number && verdict_.measured) {
    r.value = verdict_.value;
    r.measured = with_unit(verdict_.value, p.predict.unit);
  } else if (verdict_.correct_choice >= 0 &&
             verdict_.correct_choice < static_cast<int>(p.predict.choices.size())) {
    r.measured = p.predict.choices[verdict_.correct_choice].label;
  } else if (!run_error_.empty()) {
    r.measured = "the run failed";
  }
  for (const auto& s : p.show) {
    const auto x = lookup(values_, s.key);
    r.shown.emplace_back(s.label, x ? format_value(s.key, *x) : "not measured");
  }
  store->reveal(r);
  revealed_rounds_[current_] = round_;
  if (p.predict.kind == Prediction::Kind::None) return;
  // The class has joined by now: the QR code folds to one line (address and
  // code stay), leaving the reveal room in the column.
  class_->show_qr = false;
  const auto t = store->tally();
  classvote::StepVotes v;
  v.step = current_ + 1;
  v.title = lesson_->steps[current_].title;
  v.question = p.predict.question;
  v.kind = p.predict.kind == Prediction::Kind::Choice ? "choice" : "number";
  v.unit = p.predict.unit;
  for (const auto& c : p.predict.choices) v.choices.push_back(c.label);
  if (t->round == round_) {
    v.counts = t->counts;
    v.numbers = t->numbers;
    v.voted = t->voted;
    v.joined = t->joined;
  }
  v.measured = r.measured;
  v.measured_value = r.value;
  v.correct_choice = r.correct_choice;
  v.verdict = r.verdict;
  class_votes_[current_] = v;
}

std::vector<classvote::StepVotes> LessonPlayer::class_votes() const {
  std::vector<classvote::StepVotes> out;
  for (const auto& [step, v] : class_votes_) out.push_back(v);
  return out;
}

void LessonPlayer::export_class_votes() {
  char stem[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(stem, sizeof stem, "cudaviz-class-votes-%Y%m%d-%H%M%S", std::localtime(&now));
  try {
    const auto rows = class_votes();
    write_file_atomically(std::string(stem) + ".csv", classvote::to_csv(rows));
    write_file_atomically(std::string(stem) + ".json", classvote::to_json(rows).dump(2) + "\n");
    export_message_ = std::string("wrote ") + stem + ".csv and .json";
  } catch (const std::exception& e) {
    export_message_ = e.what();
  }
}

// The lesson tab's class part: the server's controls, how many voted, and at
// the reveal the numbers as a histogram beside the measured value.
void LessonPlayer::draw_class_votes() {
  if (!class_) return;
  class_->draw_controls();
  if (!class_votes_.empty()) {
    if (ImGui::SmallButton("export the votes (CSV, JSON)")) export_class_votes();
    ui::tooltip("One row per step: question, choices, counts, the measured value, the verdict; "
                "written in the current folder.");
    if (!export_message_.empty()) ui::wrapped(ui::kDim, export_message_);
  }
}

}  // namespace cv::lessons

namespace cv::lessons {

// Live counts per choice as bars (or only how many voted, while the teacher
// hides them until the reveal); for a number, the class's median so far.
void LessonPlayer::draw_votes() {
  const Prediction& p = plan().predict;
  const classvote::Tally& t = class_->tally();
  const bool hidden = class_->hide_counts && !run_done_;
  const int total = std::max(1, t.voted);
  if (p.kind == Prediction::Kind::Choice) {
    for (size_t i = 0; i < p.choices.size() && i < hands_.size(); ++i) {
      const bool answer = run_done_ && verdict_.correct_choice == static_cast<int>(i);
      ui::wrapped(answer ? ui::kGood : ImGui::GetStyleColorVec4(ImGuiCol_Text),
                  p.choices[i].label + (answer ? "   <- measured" : ""));
      const std::string n = hidden ? "?" : std::to_string(hands_[i]);
      ImGui::PushStyleColor(ImGuiCol_PlotHistogram, answer ? ui::kGood : ImVec4(0.1f, 0.4f, 0.9f, 1.f));
      ImGui::ProgressBar(hidden ? 0.f : static_cast<float>(hands_[i]) / total,
                         ImVec2(-1, 0), n.c_str());
      ImGui::PopStyleColor();
    }
  } else if (!hidden && guess_given_) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "the class's median: %.4g %s", guess_, p.unit.c_str());
    ui::wrapped(ImGui::GetStyleColorVec4(ImGuiCol_Text), buf);
  }
  ImGui::SetWindowFontScale(1.25f);
  ImGui::TextColored(ui::kGood, "%d voted of %d joined", t.voted, t.joined);
  ImGui::SetWindowFontScale(1.f);
  if (hidden) ImGui::TextColored(ui::kDim, "counts hidden until the reveal");
}

// Bins of the class's numbers; the bin holding the measured value in green
// and a line at the value itself.
void LessonPlayer::draw_class_histogram() {
  const auto it = class_votes_.find(current_);
  if (it == class_votes_.end() || it->second.numbers.empty()) return;
  const classvote::StepVotes& v = it->second;
  const classvote::Histogram h = classvote::make_histogram(v.numbers, v.measured_value, 8);
  if (h.counts.empty()) return;
  const int top = std::max(1, *std::max_element(h.counts.begin(), h.counts.end()));
  const float font = ImGui::GetFontSize();
  const float w = ImGui::GetContentRegionAvail().x, height = 5 * font;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const int bins = static_cast<int>(h.counts.size());
  auto pos = [&](double x) {  // the value's place along the axis, 0..1
    const double lo = h.log ? std::log10(h.edges.front()) : h.edges.front();
    const double hi = h.log ? std::log10(h.edges.back()) : h.edges.back();
    const double t = ((h.log ? std::log10(std::max(x, 1e-300)) : x) - lo) / (hi - lo);
    return static_cast<float>(std::clamp(t, 0.0, 1.0));
  };
  const float mx = v.measured_value ? pos(*v.measured_value) : -1.f;
  for (int b = 0; b < bins; ++b) {
    const float x0 = p0.x + w * b / bins + 1, x1 = p0.x + w * (b + 1) / bins - 1;
    const float y1 = p0.y + height, y0 = y1 - height * h.counts[b] / top;
    const bool holds = mx >= static_cast<float>(b) / bins && mx <= static_cast<float>(b + 1) / bins;
    dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1),
                      ImGui::GetColorU32(holds ? ui::kGood : ImVec4(0.1f, 0.4f, 0.9f, 1.f)));
  }
  if (mx >= 0)
    dl->AddLine(ImVec2(p0.x + w * mx, p0.y), ImVec2(p0.x + w * mx, p0.y + height),
                ImGui::GetColorU32(ImVec4(1.f, 0.85f, 0.35f, 1.f)), std::max(2.f, font / 6));
  ImGui::Dummy(ImVec2(w, height));
  char buf[160];
  std::snprintf(buf, sizeof buf, "%.3g .. %.3g %s%s: %d numbers; the line is the measurement (%s)",
                h.edges.front(), h.edges.back(), v.unit.c_str(), h.log ? " (log scale)" : "",
                static_cast<int>(v.numbers.size()), v.measured.c_str());
  ui::wrapped(ui::kDim, buf);
}

}  // namespace cv::lessons

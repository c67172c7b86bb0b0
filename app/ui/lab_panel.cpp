#include "ui/lab_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "bench/bench.h"
#include "bench/comparison.h"
#include "bench/kernel_action.h"
#include "labs/lab_views.h"
#include "ui/kernel_source.h"
#include "ui/notes_text.h"
#include "ui/panels.h"
#include "ui/presentation.h"
#include "usercode/client/user_kernel.h"

namespace cv {

namespace {

// "samples (a), values (b, c)": what n counts, from every lab's target.
std::string what_n_counts() {
  std::vector<std::pair<std::string, std::string>> by;  // counts -> its labs
  for (const std::string& name : LabPanel::lab_names()) {
    const std::string& counts = bench::find_target(name)->lab.counts;
    if (counts.empty()) continue;
    auto it = std::find_if(by.begin(), by.end(), [&](const auto& p) { return p.first == counts; });
    if (it == by.end())
      by.push_back({counts, name});
    else
      it->second += ", " + name;
  }
  std::string text;
  for (const auto& [counts, labs] : by)
    text += (text.empty() ? "" : ", ") + counts + " (" + labs + ")";
  return text;
}

// The labs that read --input FILE, "a, b, c".
std::string labs_taking_input() {
  std::string list;
  for (const std::string& name : LabPanel::lab_names())
    if (bench::find_target(name)->lab.takes_input) list += (list.empty() ? "" : ", ") + name;
  return list;
}

// An action's name as its button says it: "a_b" -> "a b".
std::string button_label(std::string name) {
  std::replace(name.begin(), name.end(), '_', ' ');
  return name;
}

// The throughput field a row carries, as "name value".
std::string throughput_of(const nlohmann::ordered_json& r) {
  for (const char* k : {"samples_per_s", "triples_per_s", "gb_per_s", "interactions_per_s",
                        "pairs_per_s", "elements_per_s", "particles_per_s"})
    if (r.contains(k) && r[k].is_number()) {
      std::string name = k;
      if (name == "gb_per_s") return ui::si(r[k].get<double>()) + " GB/s";
      return ui::si(r[k].get<double>()) + " " + name.substr(0, name.find("_per_s")) + "/s";
    }
  return "";
}

// How many different n the rows ran with (a failed row has none).
size_t distinct_n(const std::vector<nlohmann::ordered_json>& rows) {
  std::vector<long long> ns;
  for (const auto& r : rows)
    if (r.contains("n") && r["n"].is_number_integer()) {
      const long long n = r["n"].get<long long>();
      if (std::find(ns.begin(), ns.end(), n) == ns.end()) ns.push_back(n);
    }
  return ns.size();
}

std::string number(const nlohmann::ordered_json& v) {
  if (v.is_null()) return "-";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number_unsigned()) return std::to_string(v.get<unsigned long long>());
  if (v.is_number_float()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.8g", v.get<double>());
    return buf;
  }
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return v.dump();
}

}  // namespace

std::vector<std::string> LabPanel::lab_names() {
  std::vector<std::string> names;
  for (const bench::Target& t : bench::targets())
    if (t.kind == bench::Target::Kind::Lab) names.push_back(t.name);
  std::sort(names.begin(), names.end());
  return names;
}

LabPanel::LabPanel(Backend backend) : backend_(backend) {}

void LabPanel::shutdown() {
  worker_.cancel();
  worker_.join();
}

std::optional<BenchOptions> LabPanel::options_from_fields() {
  const std::vector<std::string> names = lab_names();
  if (names.empty()) {
    message_ = "no labs in this build";
    return std::nullopt;
  }
  const bench::Target* t = bench::find_target(names[std::min<size_t>(lab_, names.size() - 1)]);
  BenchOptions o;
  o.target = t->name;
  o.variant =
      variant_ == 0 ? "all" : t->variants[std::min<size_t>(variant_ - 1, t->variants.size() - 1)];
  try {
    if (*n_text_) o.n = parse_integer(n_text_, "n", 1, (1ll << 31) - 1);
    if (!default_block_) {
      const BlockShape b{block_x_, block_y_, 1};
      if (auto e = validate(b, block_limits(use_cpu_ ? Backend::Cpu : backend_)))
        throw UsageError("block: " + *e);
      o.block = b;
    }
    if (*input_) {
      std::ifstream f(input_);
      if (!f) throw UsageError(std::string("input: cannot open '") + input_ + "'");
      o.input = std::string(input_);
    }
    if (reps_ < 0 || reps_ > 100000)
      throw UsageError("reps: " + std::to_string(reps_) + " is outside [0, 100000]");
    o.reps = reps_;
    add_kernel_source(o);  // for an action that runs the student's kernel
  } catch (const std::exception& e) {
    message_ = e.what();
    return std::nullopt;
  }
  return o;
}

void LabPanel::start(std::vector<BenchOptions> jobs, const std::string& action) {
  if (auto err = worker_.start(std::move(jobs), use_cpu_ ? Backend::Cpu : backend_)) {
    message_ = *err;
    return;
  }
  message_.clear();
  action_ = action;
}

std::optional<std::string> LabPanel::open_and_run(const std::string& lab) {
  const std::vector<std::string> names = lab_names();
  const auto it = std::find(names.begin(), names.end(), lab);
  if (it == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    return "'" + lab + "' is not a lab (" + list + ")";
  }
  lab_ = static_cast<int>(it - names.begin());
  variant_ = 0;
  expand_ = true;
  auto o = options_from_fields();
  if (!o) return message_;
  running_lab_ = lab;
  start({*o}, "");
  if (!message_.empty()) return message_;
  return std::nullopt;
}

void LabPanel::draw(ui::Layout& layout) {
  // A tab of the tool area (ui/layout.h): --lab and presets open or close it.
  const char* tool = ui::tool_name(ui::Tool::Labs);
  if (expand_) layout.open(tool);
  if (collapse_) layout.close(tool);
  expand_ = collapse_ = false;
  collapsed_ = !layout.begin_tool(tool, "labs");
  if (collapsed_) return;
  const std::vector<std::string> names = lab_names();
  if (names.empty()) {
    ImGui::TextColored(ui::kDim, "no labs in this build");
    layout.end_tool();
    return;
  }
  lab_ = std::min(lab_, static_cast<int>(names.size()) - 1);
  const bool busy = worker_.running();
  const bench::Target& t = draw_options(names, busy);
  draw_run_controls(t, busy);
  draw_results();
  draw_pictures(t);
  layout.end_tool();
}

// The lab, variant, n, block, input, reps (disabled while a run is going).
const bench::Target& LabPanel::draw_options(const std::vector<std::string>& names, bool busy) {
  if (busy) ImGui::BeginDisabled();
  std::string items;
  for (const auto& n : names) items += n + '\0';
  if (ImGui::Combo("lab", &lab_, items.c_str())) variant_ = 0;
  ui::tooltip(
      "The compute demos of the notes; each runs its variants and checks them against a CPU "
      "reference.");
  const bench::Target* t = bench::find_target(names[lab_]);
  std::string vitems = "all";
  vitems += '\0';
  for (const auto& v : t->variants) vitems += v + '\0';
  variant_ = std::min(variant_, static_cast<int>(t->variants.size()));
  ImGui::Combo("variant", &variant_, vitems.c_str());
  ui::tooltip("all: every variant in one run, so the 'vs' column compares them on the same data.");
  ImGui::InputTextWithHint("n", "the lab's default", n_text_, sizeof n_text_,
                           ImGuiInputTextFlags_CharsDecimal);
  ui::tooltip(("Problem size: " + what_n_counts() + ".").c_str());
  ImGui::Checkbox("default block", &default_block_);
  ui::tooltip("Each variant's own block shape; untick to launch every GPU variant with yours.");
  if (!default_block_) {
    ImGui::SetNextItemWidth(120);
    ImGui::InputInt("block x", &block_x_);
    ui::tooltip("Threads per block along x (1..1024; x*y at most 1024).");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(120);
    ImGui::InputInt("block y", &block_y_);
    ui::tooltip("Threads per block along y; 1D kernels use the block as one row of x*y threads.");
    block_x_ = std::clamp(block_x_, 1, 1024);
    block_y_ = std::clamp(block_y_, 1, 1024);
  }
  ImGui::InputTextWithHint("input", "path to whitespace-separated integers (optional)", input_,
                           sizeof input_);
  ui::tooltip(("For labs that take a data set (" + labs_taking_input() + ").").c_str());
  ImGui::SetNextItemWidth(120);
  ImGui::InputInt("reps (0 = default)", &reps_);
  ui::tooltip("Timed repetitions after warm-up; the table shows their median.");
  if (backend_ == Backend::Cuda) {
    ImGui::Checkbox("CPU backend", &use_cpu_);
    ui::tooltip("Run the CPU twins of the kernels (same per-element code) instead of the GPU.");
  }
  if (busy) ImGui::EndDisabled();
  notes::draw_notice(t->lab.notice.c_str(), "lab notice");

  return *t;
}

// Run (and the lab's actions) or cancel, the progress bar, what went wrong.
void LabPanel::draw_run_controls(const bench::Target& t, bool busy) {
  if (!busy) {
    if (ImGui::Button("run")) run_now();
    refused_.clear();
    static const std::string no_text;
    for (const bench::LabAction& a : t.lab.actions) {
      const std::string label = button_label(a.name);
      ui::same_line_if_fits(label.c_str());
      const std::optional<std::string> why = unavailable(a, t.name);
      if (why) ImGui::BeginDisabled();
      if (ImGui::Button(label.c_str())) run_action(a.name);
      if (why) ImGui::EndDisabled();
      ui::tooltip((why ? *why : a.tooltip).c_str());
      if (why) refused_ += label + ": " + *why + "\n";
      // It can run: start the runner now, not when the button is pressed.
      if (!why && a.name == bench::kYourKernelAction && user_kernel_)
        user_kernel_->prestart(kernel_source_ ? kernel_source_->text() : no_text);
    }
  } else {
    if (ImGui::Button("cancel")) worker_.cancel();
  }
  ImGui::SameLine();
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "%s %.1f s", labs::to_string(worker_.state()),
                worker_.seconds());
  ImGui::ProgressBar(worker_.progress(), ImVec2(-1, 0), overlay);
  if (!message_.empty()) ImGui::TextColored(ui::kBad, "%s", message_.c_str());
  if (!busy && !refused_.empty()) {  // why an action's button is disabled, in words
    ImGui::PushStyleColor(ImGuiCol_Text, ui::kDim);
    ImGui::TextWrapped("%s", refused_.substr(0, refused_.size() - 1).c_str());
    ImGui::PopStyleColor();
  }
  if (worker_.state() == labs::LabWorker::State::Failed) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::kBad);
    ImGui::TextWrapped("error: %s", worker_.error().c_str());
    ImGui::PopStyleColor();
  }
}

// Every variant's answer, correctness, time, throughput and ratios.
void LabPanel::draw_results() {
  const std::vector<nlohmann::ordered_json> rows = worker_.results();
  if (!rows.empty()) {
    ImGui::TextColored(ui::kDim, "%s on %s", running_lab_.c_str(),
                       rows.front().value("device", "").c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("copy JSON")) {
      std::string lines;
      for (const auto& r : rows) lines += r.dump() + "\n";
      ImGui::SetClipboardText(lines.c_str());
    }
    ui::tooltip("The rows as `cudaviz bench` prints them (JSON lines), to the clipboard.");
    const labs::Views* views = labs::find_views(running_lab_);
    if (!action_.empty() && views && views->action_results) views->action_results(action_, rows);
    draw_results_table(rows);
    // Why a wrong answer is wrong (a race, on purpose), next to it.
    for (const auto& r : rows) {
      const std::string v = r.value("variant", "");
      if (r.contains("error") && r["error"].is_string()) {  // your kernel: a compile error or fault
        ImGui::PushStyleColor(ImGuiCol_Text, ui::kBad);
        ImGui::TextWrapped("%s: %s", v.c_str(), r["error"].get<std::string>().c_str());
        ImGui::PopStyleColor();
      }
      if (r.contains("verdict") && r["verdict"].is_string()) {  // your kernel: its first failing case
        ImGui::PushStyleColor(ImGuiCol_Text, ui::kBad);
        ImGui::TextWrapped("%s: %s", v.c_str(), r["verdict"].get<std::string>().c_str());
        ImGui::PopStyleColor();
      }
      if (const std::string words = bench::compare_cell(r); !words.empty())  // the vs cell, in full
        ImGui::TextWrapped("%s: %s", v.c_str(), words.c_str());
      const std::string note = wrong_note(v);
      if (!note.empty() && r.contains("correct") && r["correct"].is_boolean() &&
          !r["correct"].get<bool>()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ui::kWarn);
        ImGui::TextWrapped("%s: %s", v.c_str(), note.c_str());
        ImGui::PopStyleColor();
      }
    }
  }
}

std::string LabPanel::wrong_note(const std::string& variant) const {
  const bench::Target* t = bench::find_target(running_lab_);
  return t && t->lab.wrong_note ? t->lab.wrong_note(variant) : "";
}

void LabPanel::draw_results_table(const std::vector<nlohmann::ordered_json>& rows) {
  const float s = ui::layout_scale();  // sizes grow with the UI scale (ui/presentation.h)
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_ScrollY;
  if (ImGui::BeginTable("results", 8, flags,
                        ImVec2(0, s * std::min(40.f + 22.f * rows.size(), 260.f)))) {
    ImGui::TableSetupScrollFreeze(1, 1);
    // Explicit widths: fixed-fit columns of a table first shown in a collapsed window stay at
    // zero.
    const char* heads[] = {"variant", "backend",   "result",     "reference",
                           "correct", "ms median [min-max]", "throughput", "vs"};
    // Rows that differ in n (an action's table of sizes): the variant column says which.
    const bool by_n = distinct_n(rows) > 1;
    const float widths[] = {by_n ? 105.f : 80.f, 45.f, 95.f, 95.f, 45.f, 150.f, 130.f, 260.f};
    for (int c = 0; c < 8; ++c)
      ImGui::TableSetupColumn(heads[c], ImGuiTableColumnFlags_WidthFixed, widths[c] * s);
    ImGui::TableHeadersRow();
    for (const auto& r : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const std::string variant = r.value("variant", "");
      ImGui::TextUnformatted(by_n ? (variant + " n=" + std::to_string(r.value("n", 0ll))).c_str()
                                  : variant.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.value("backend", "").c_str());
      ImGui::TableNextColumn();
      if (r.contains("error")) {
        ImGui::TextColored(ui::kBad, "error");
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%s", r["error"].is_string() ? r["error"].get<std::string>().c_str()
                                                         : r["error"].dump().c_str());
      } else {
        ImGui::TextUnformatted(r.contains("result") ? number(r["result"]).c_str() : "-");
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.contains("reference") ? number(r["reference"]).c_str() : "-");
      ImGui::TableNextColumn();
      if (r.contains("correct") && r["correct"].is_boolean()) {
        const bool ok = r["correct"].get<bool>();
        ImGui::TextColored(ok ? ui::kGood : ui::kBad, ok ? "yes" : "NO");
        const std::string note = ok ? "" : wrong_note(variant);
        if (!note.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", note.c_str());
      } else {
        ImGui::TextColored(ui::kDim, "-");
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(bench::spread_cell(r).c_str());  // the reps' spread
      ui::tooltip("The median of the timed reps, and the fastest and slowest of them (yours: both).");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(throughput_of(r).c_str());
      ImGui::TableNextColumn();
      // Your kernel's row says which way, against the same algorithm and the fastest.
      std::string vs = bench::compare_cell(r);
      if (vs.empty() && r.contains("vs") && !by_n)
        for (auto it = r["vs"].begin(); it != r["vs"].end(); ++it) {
          char buf[64];
          if (!it.value().is_number()) continue;  // a variant that refused the block
          std::snprintf(buf, sizeof buf, "%s%s %.3gx", vs.empty() ? "" : ", ", it.key().c_str(),
                        it.value().get<double>());
          vs += buf;
        }
      ImGui::TextUnformatted(vs.c_str());
    }
    ImGui::EndTable();
  }
}

// Pictures of a lab's launch (labs/lab_views.h), following the window's fields.
void LabPanel::draw_pictures(const bench::Target& t) {
  const labs::Views* views = labs::find_views(t.name);
  if (!views || !views->pictures) return;
  if (!ImGui::CollapsingHeader(views->pictures_title.c_str(), ImGuiTreeNodeFlags_DefaultOpen))
    return;
  labs::PictureFields f;
  if (*n_text_) {
    try {
      f.n = parse_integer(n_text_, "n", 1, 1ll << 31);
    } catch (const std::exception&) {
      // Half-typed text: the picture keeps the lab's default.
    }
  }
  if (!default_block_) f.block = BlockShape{block_x_, block_y_, 1};
  views->pictures(f);
}

}  // namespace cv

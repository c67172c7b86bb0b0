#include "ui/sweep_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "bench/bench.h"
#include "ui/panels.h"

namespace cv {
namespace {

// The targets in the order each carries (bench::Target::sweep_rank), then by name.
std::vector<std::string> target_names() {
  std::vector<const bench::Target*> listed;
  for (const bench::Target& t : bench::targets())
    if (t.in_sweep) listed.push_back(&t);
  std::sort(listed.begin(), listed.end(), [](const bench::Target* a, const bench::Target* b) {
    return a->sweep_rank != b->sweep_rank ? a->sweep_rank < b->sweep_rank : a->name < b->name;
  });
  std::vector<std::string> names;
  for (const bench::Target* t : listed) names.push_back(t->name);
  return names;
}

}  // namespace

SweepPanel::SweepPanel(Backend backend) : backend_(backend) {
  std::snprintf(shapes_, sizeof shapes_, "%s", tuning::kDefaultShapes);
}

void SweepPanel::shutdown() {
  worker_.cancel();
  worker_.join();
}

std::optional<std::string> SweepPanel::start_from_fields() {
  const std::vector<std::string> names = target_names();
  if (names.empty()) return std::string("no scenes or labs in this build");
  const bench::Target* t =
      bench::find_target(names[std::clamp<size_t>(target_, 0, names.size() - 1)]);
  SweepOptions o;
  o.target = t->name;
  o.variant =
      variant_ == 0 ? "" : t->variants[std::min<size_t>(variant_ - 1, t->variants.size() - 1)];
  o.backend = use_cpu_ || backend_ == Backend::Cpu ? "cpu" : "cuda";
  o.reps = reps_;
  try {
    if (*n_text_) o.n = parse_integer(n_text_, "n", 1, t->max_n);
    if (reps_ < 0 || reps_ > 100000)
      throw UsageError("reps: " + std::to_string(reps_) + " is outside [0, 100000]");
    o.shapes = tuning::parse_shape_list(shapes_, block_limits(use_cpu_ ? Backend::Cpu : backend_));
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  return worker_.start(o);
}

std::optional<std::string> SweepPanel::start(const std::string& target, const std::string& shapes) {
  const std::vector<std::string> names = target_names();
  const auto it = std::find(names.begin(), names.end(), target);
  if (it == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    return "'" + target + "' is not a scene or lab (" + list + ")";
  }
  target_ = static_cast<int>(it - names.begin());
  variant_ = 0;
  std::snprintf(shapes_, sizeof shapes_, "%s",
                shapes.empty() ? tuning::kDefaultShapes : shapes.c_str());
  window_.expand();
  auto err = start_from_fields();
  message_ = err.value_or("");
  return err;
}

void SweepPanel::draw(ui::Layout& layout) {
  if (!window_.begin(layout, "block-shape sweep")) return;  // its tab in the tool area
  const std::vector<std::string> names = target_names();
  if (names.empty()) {
    ImGui::TextColored(ui::kDim, "no scenes or labs in this build");
    layout.end_tool();
    return;
  }
  target_ = std::clamp(target_, 0, static_cast<int>(names.size()) - 1);
  const bool busy = worker_.running();
  if (busy) ImGui::BeginDisabled();
  std::string items;
  for (const auto& n : names) items += n + '\0';
  if (ImGui::Combo("scene or lab", &target_, items.c_str())) variant_ = 0;
  const bench::Target* t = bench::find_target(names[target_]);
  const Backend run_backend = use_cpu_ ? Backend::Cpu : backend_;
  std::string vitems = "default (" + tuning::default_sweep_variant(*t, run_backend) + ")";
  vitems += '\0';
  for (const auto& v : t->variants) vitems += v + '\0';
  variant_ = std::clamp(variant_, 0, static_cast<int>(t->variants.size()));
  ImGui::Combo("variant", &variant_, vitems.c_str());
  ImGui::InputText("shapes", shapes_, sizeof shapes_);
  ui::tooltip(
      "Block shapes separated by commas, XxY each (e.g. 8x8,16x16,256x1). The defaults "
      "reproduce the reference documents' tables.");
  ImGui::SameLine();
  if (ImGui::SmallButton("defaults"))
    std::snprintf(shapes_, sizeof shapes_, "%s", tuning::kDefaultShapes);
  ImGui::SetNextItemWidth(160);
  ImGui::InputTextWithHint("n", "default", n_text_, sizeof n_text_,
                           ImGuiInputTextFlags_CharsDecimal);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(100);
  ImGui::InputInt("reps (0 = default)", &reps_);
  if (backend_ == Backend::Cuda) ImGui::Checkbox("CPU backend", &use_cpu_);
  if (busy) ImGui::EndDisabled();

  if (!busy) {
    if (ImGui::Button("run sweep")) message_ = start_from_fields().value_or("");
  } else if (ImGui::Button("cancel")) {
    worker_.cancel();
  }
  ImGui::SameLine();
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "%s %d/%d", tuning::to_string(worker_.state()),
                worker_.shapes_done(), worker_.shapes_total());
  ImGui::ProgressBar(worker_.progress(), ImVec2(-1, 0), overlay);
  if (!message_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::kBad);
    ImGui::TextWrapped("%s", message_.c_str());
    ImGui::PopStyleColor();
  }
  if (worker_.state() == tuning::SweepWorker::State::Failed) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::kBad);
    ImGui::TextWrapped("error: %s", worker_.error().c_str());
    ImGui::PopStyleColor();
  }
  draw_results();
  layout.end_tool();
}

namespace {

void plan_header(const tuning::SweepPlan& plan) {
  ImGui::TextColored(ui::kDim, "%s %s on %s", plan.target ? plan.target->name.c_str() : "?",
                     plan.variant.c_str(), device_label(plan.backend).c_str());
  if (!plan.note.empty()) ImGui::TextColored(ui::kDim, "%s", plan.note.c_str());
  if (plan.backend == Backend::Cpu)
    ImGui::TextColored(ui::kDim, "CPU backend: the block shape does not change the CPU work");
}

// The slowest shape's ms (the chart's scale) and the fastest shape's index (-1: none ran).
struct RowExtremes {
  float worst = 0;
  int best = -1;
};

// The chart: kernel ms per shape in sweep order; a refused shape is an empty slot.
RowExtremes ms_chart(const std::vector<tuning::SweepRow>& rows) {
  std::vector<float> ms;
  RowExtremes x;
  for (size_t i = 0; i < rows.size(); ++i) {
    ms.push_back(rows[i].ok ? static_cast<float>(rows[i].ms_median) : 0.f);
    x.worst = std::max(x.worst, ms.back());
    if (rows[i].ok && (x.best < 0 || rows[i].ms_median < rows[x.best].ms_median))
      x.best = static_cast<int>(i);
  }
  char overlay[96] = "";
  if (x.best >= 0)
    std::snprintf(overlay, sizeof overlay, "ms per shape; best %s: %.4g ms",
                  to_string(rows[x.best].shape).c_str(), rows[x.best].ms_median);
  ImGui::PlotHistogram("##ms", ms.data(), static_cast<int>(ms.size()), 0, overlay, 0.f,
                       x.worst * 1.1f + 1e-6f, ImVec2(ImGui::GetContentRegionAvail().x, 110));
  return x;
}

void sweep_row(const tuning::SweepRow& r, bool is_best, float worst) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(to_string(r.shape).c_str());
  ImGui::TableNextColumn();
  ImGui::Text("%lld", r.shape.threads());
  if (!r.ok) {
    ImGui::TableNextColumn();
    ImGui::TextColored(ui::kBad, "refused");
    ImGui::TableNextColumn();
    ImGui::TableNextColumn();
    ImGui::TextColored(ui::kBad, "%s", r.error.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.error.c_str());
    return;
  }
  ImGui::TableNextColumn();
  ImGui::Text("%.4g", r.ms_median);
  ImGui::TableNextColumn();
  ImGui::Text("%.4g", r.ms_min);
  ImGui::TableNextColumn();
  char label[32];
  std::snprintf(label, sizeof label, "%.4g ms", r.ms_median);
  if (is_best) ImGui::PushStyleColor(ImGuiCol_PlotHistogram, ui::kGood);
  ImGui::ProgressBar(worst > 0 ? static_cast<float>(r.ms_median) / worst : 0.f, ImVec2(-1, 0),
                     label);
  if (is_best) ImGui::PopStyleColor();
}

void rows_table(const std::vector<tuning::SweepRow>& rows, const RowExtremes& x) {
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
  if (!ImGui::BeginTable("sweep rows", 5, flags,
                         ImVec2(0, std::min(34.f + 22.f * rows.size(), 300.f))))
    return;
  ImGui::TableSetupScrollFreeze(0, 1);
  const char* heads[] = {"shape", "threads", "ms median", "ms min",
                         "kernel ms (bar) / why refused"};
  const float widths[] = {70.f, 55.f, 75.f, 75.f, 300.f};
  for (int c = 0; c < 5; ++c)
    ImGui::TableSetupColumn(heads[c], ImGuiTableColumnFlags_WidthFixed, widths[c]);
  ImGui::TableHeadersRow();
  for (size_t i = 0; i < rows.size(); ++i)
    sweep_row(rows[i], static_cast<int>(i) == x.best, x.worst);
  ImGui::EndTable();
}

}  // namespace

void SweepPanel::csv_export(const std::vector<tuning::SweepRow>& rows) {
  ImGui::InputText("CSV path", csv_path_, sizeof csv_path_);
  ImGui::SameLine();
  const bool busy = worker_.running();
  if (busy) ImGui::BeginDisabled();
  if (ImGui::Button("export CSV")) {
    if (auto err = tuning::write_csv(csv_path_, rows)) {
      csv_ok_ = false;
      csv_message_ = *err;
    } else {
      csv_ok_ = true;
      csv_message_ = "wrote " + std::to_string(rows.size()) + " rows to " + csv_path_;
    }
  }
  if (busy) ImGui::EndDisabled();
  ui::tooltip(
      "The columns of `cudaviz sweep --csv` (docs/tuning.md); written to a temporary "
      "name and renamed, so the file is never half-written.");
  if (!csv_message_.empty())
    ImGui::TextColored(csv_ok_ ? ui::kGood : ui::kBad, "%s", csv_message_.c_str());
}

void SweepPanel::draw_results() {
  const std::vector<tuning::SweepRow> rows = worker_.rows();
  if (rows.empty()) return;
  plan_header(worker_.plan());
  const RowExtremes x = ms_chart(rows);
  rows_table(rows, x);
  csv_export(rows);
}

}  // namespace cv

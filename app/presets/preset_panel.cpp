#include "presets/preset_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "io/data_dir.h"
#include "ui/lab_panel.h"
#include "ui/panels.h"
#include "ui/presentation.h"

namespace cv::presets {

namespace fs = std::filesystem;

std::string preset_dir(const PathConfig& paths) {
  const io::DataDir d = io::find_data_dir(paths.assets);
  return d.path.empty() ? "" : (fs::path(d.path) / "presets").string();
}

std::vector<std::string> shipped_presets(const PathConfig& paths) {
  std::vector<std::string> files;
  const std::string dir = preset_dir(paths);
  if (dir.empty()) return files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file(ec) && e.path().extension() == ".json")
      files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> report_lines(const std::string& path, const Report& r) {
  std::vector<std::string> lines;
  for (const auto& n : r.notes) lines.push_back("preset '" + path + "': " + n);
  for (const auto& s : r.skipped()) lines.push_back("preset '" + path + "': skipped " + s);
  return lines;
}

void PresetPanel::loaded(const std::string& path, const Preset& p, const Report& r) {
  message_ = "loaded " + path;
  failed_ = false;
  skipped_ = r.skipped();
  notes_ = r.notes;
  sweep_ = p.sweep;
  std::snprintf(description_, sizeof description_, "%s", p.description.c_str());
  if (!r.clean()) expand_ = true;  // say what was left out where it can be seen
}

void PresetPanel::load(const std::string& path, AppState& app) {
  Report report;
  Preset p;
  try {
    p = load_preset_file(path, report);
  } catch (const std::exception& e) {
    // Nothing applied: the current state stays.
    message_ = e.what();
    failed_ = true;
    std::fprintf(stderr, "cudaviz: %s\n", e.what());
    return;
  }
  apply(p, app, report);
  for (const auto& line : report_lines(path, report))
    std::fprintf(stderr, "cudaviz: %s\n", line.c_str());
  loaded(path, p, report);
}

void PresetPanel::save(const std::string& path, AppState& app) {
  Preset p = capture(app);
  p.description = description_;
  p.sweep = sweep_;  // the table the loaded preset was about still belongs to this state
  try {
    save_preset_file(path, p);
    message_ = "saved " + path;
    failed_ = false;
  } catch (const std::exception& e) {
    message_ = e.what();
    failed_ = true;
    std::fprintf(stderr, "cudaviz: %s\n", e.what());
  }
}

bool PresetPanel::service(AppState& app) {
  bool lab_started = false;
  if (save_request_) save(*save_request_, app);
  if (load_request_) {
    load(*load_request_, app);
    lab_started = app.labs.running();
  }
  save_request_.reset();
  load_request_.reset();
  return lab_started;
}

std::optional<std::string> PresetPanel::take_sweep_request() {
  auto r = std::move(sweep_request_);
  sweep_request_.reset();
  return r;
}

void PresetPanel::sweep_failed(const std::string& why) {
  message_ = "sweep: " + why;
  failed_ = true;
}

// The shipped presets: a list and its load button.
void PresetPanel::draw_shipped() {
  const std::vector<std::string> files = shipped_presets(paths_);
  if (!files.empty()) {
    shipped_ = std::clamp(shipped_, 0, static_cast<int>(files.size()) - 1);
    std::string items;
    for (const auto& f : files) items += fs::path(f).stem().string() + '\0';
    // Fields take the width the buttons leave, so nothing is cut in a narrow window.
    const ImGuiStyle& st = ImGui::GetStyle();
    ImGui::SetNextItemWidth(
        -(ImGui::CalcTextSize("load").x + 2 * st.FramePadding.x + st.ItemSpacing.x));
    ImGui::Combo("##shipped", &shipped_, items.c_str());
    ui::tooltip(
        "The presets in assets/presets: each scene, each lab, and each table of the notes.");
    ImGui::SameLine();
    if (ImGui::Button("load##shipped")) load_request_ = files[shipped_];
  } else {  // a broken install or build tree: say where the presets were looked for
    ImGui::TextColored(ui::kWarn, "%s",
                       io::data_dir_error(io::find_data_dir(paths_.assets)).c_str());
  }
}

// A file of your own: its path, save and load, and the description saved with it.
void PresetPanel::draw_file_row() {
  const ImGuiStyle& st = ImGui::GetStyle();
  ImGui::SetNextItemWidth(
      -(ImGui::CalcTextSize("saveload").x + 4 * st.FramePadding.x + 2 * st.ItemSpacing.x));
  ImGui::InputText("##file", path_, sizeof path_);
  ui::tooltip("A preset file of your own: JSON with a \"version\" (see docs/classroom.md).");
  ImGui::SameLine();
  if (ImGui::Button("save")) save_request_ = std::string(path_);
  ui::tooltip(
      "Writes every scene you visited (variant, count, parameters, block, camera), the UI "
      "scale and theme, and the labs window's settings. Written to a temporary name and "
      "renamed, so a failed save leaves the old file whole.");
  ImGui::SameLine();
  if (ImGui::Button("load")) load_request_ = std::string(path_);
  ui::tooltip("Loads what this version understands and lists what it skipped.");
  if (*description_) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::kDim);
    ImGui::TextWrapped("%s", description_);
    ImGui::PopStyleColor();
  }
  ImGui::SetNextItemWidth(-1);
  ImGui::InputTextWithHint("##description", "description (saved with the preset)", description_,
                           sizeof description_);
  ui::tooltip("The preset's description: saved with it, shown when loaded.");
}

// What the last save or load said, and what it skipped.
void PresetPanel::draw_status() {
  if (!message_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, failed_ ? ui::kBad : ui::kGood);
    ImGui::TextWrapped("%s", message_.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PushTextWrapPos(0.f);
  for (const auto& n : notes_) ImGui::TextColored(ui::kDim, "%s", n.c_str());
  if (!skipped_.empty()) {
    ImGui::TextColored(ui::kWarn, "skipped %zu:", skipped_.size());
    ImGui::PushStyleColor(ImGuiCol_Text, ui::kWarn);
    for (const auto& k : skipped_) ImGui::BulletText("%s", k.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PopTextWrapPos();
}

// A preset with a sweep table offers to run it.
void PresetPanel::draw_sweep_table() {
  if (!sweep_ || sweep_->shapes.empty()) return;
  ui::section("The table of this preset");
  std::string shapes;
  for (const auto& b : sweep_->shapes) shapes += (shapes.empty() ? "" : " ") + to_string(b);
  ImGui::TextWrapped("block shapes: %s", shapes.c_str());
  if (ImGui::SmallButton("run in the sweep window")) {
    std::string spec = sweep_->target + ":";
    for (size_t i = 0; i < sweep_->shapes.size(); ++i)
      spec += (i ? "," : "") + to_string(sweep_->shapes[i]);
    sweep_request_ = spec;
  }
  ui::tooltip("Runs these shapes in the sweep window, with the target's default variant.");
  ImGui::SameLine();
  const std::string cmd = sweep_command(*sweep_);
  if (ImGui::SmallButton("copy sweep command")) ImGui::SetClipboardText(cmd.c_str());
  ui::tooltip(cmd.c_str());
}

void PresetPanel::draw(Presentation& presentation, ui::Layout& layout) {
  // A tab of the tool area (ui/layout.h); it opens to say what a load skipped.
  const char* tool = ui::tool_name(ui::Tool::Classroom);
  if (expand_) layout.open(tool);
  expand_ = false;
  if (!layout.begin_tool(tool, "classroom")) return;
  ui::section("Presets");
  draw_shipped();
  draw_file_row();
  draw_status();
  draw_sweep_table();
  ui::section("Presentation");
  presentation.draw_controls();
  layout.end_tool();
}

}  // namespace cv::presets

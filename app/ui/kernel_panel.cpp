#include "ui/kernel_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "io/atomic_file.h"
#include "scenes/particle_scene.h"
#include "usercode/compile/compile.h"
#include "usercode/client/explain_launch.h"
#include "usercode/templates/template_registry.h"
#include "widgets/widgets.h"

#ifndef CUDAVIZ_EXPLAIN_PATH
#define CUDAVIZ_EXPLAIN_PATH ""
#endif

namespace cv {

using usercode::UserKernel;
using usercode::UserKernelState;

namespace {

code::Severity severity_of(usercode::Severity s) {
  switch (s) {
    case usercode::Severity::Error:
      return code::Severity::Error;
    case usercode::Severity::Warning:
      return code::Severity::Warning;
    case usercode::Severity::Note:
      return code::Severity::Note;
  }
  return code::Severity::Error;
}

ImVec4 state_colour(UserKernelState s) {
  switch (s) {
    case UserKernelState::Ready:
      return ui::kGood;
    case UserKernelState::CompileFailed:
    case UserKernelState::Faulted:
      return ui::kBad;
    case UserKernelState::CannotRun:
      return ui::kWarn;
    case UserKernelState::Off:
    case UserKernelState::Compiling:
      return ui::kDim;
  }
  return ui::kDim;
}

bool same_marks(const std::vector<code::Mark>& a, const std::vector<code::Mark>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].line != b[i].line || a[i].severity != b[i].severity || a[i].message != b[i].message)
      return false;
  return true;
}

// Where a compiled kernel runs in the window, when that is not where the student is.
std::string where_it_runs(const usercode::UserKernelStatus& st, const ParticleScene& scene) {
  if (st.state != UserKernelState::Ready || !st.spec) return {};
  const usercode::TemplateSpec& t = *st.spec;
  if (t.feeds == usercode::Feeds::Scene) {
    if (t.feeds_name == scene.name()) return {};
    for (const SceneDescriptor& d : scene_infos())
      if (t.feeds_name == d.name)
        return "your kernel steps the " + std::string(d.label) + " scene: switch to it (key " +
               std::to_string(d.hotkey) + ") to see it run";
    return "your kernel feeds the " + t.feeds_name + " scene";
  }
  return "your " + t.name + " kernel runs in the labs tab: pick the " + t.feeds_name +
         " lab and press 'run your kernel' (it runs this tab's text on the lab's data, "
         "checks it and times it beside the built-in variants)";
}

bool runs_in_a_scene(const UserKernel& uk) {
  const usercode::UserKernelStatus& st = uk.status();
  return st.spec && st.spec->feeds == usercode::Feeds::Scene && uk.feeds(st.spec->feeds_name);
}

}  // namespace

KernelPanel::KernelPanel(PathConfig paths) : paths_(std::move(paths)) {
  // Start from the first template so the tab is never empty.
  const auto& ts = usercode::template_entries();
  if (!ts.empty()) {
    try {
      source_.start_from(usercode::read_template_source(ts.front(), paths_), "my_" + ts.front().file);
      source_.editor().reset_text(source_.text());  // nothing to undo yet
    } catch (const std::exception& e) {
      source_.start_from(std::string("// ") + e.what() + "\n", "my_kernel.cu");
    }
  }
}

void KernelPanel::show_file(const std::string& path, bool open) {
  if (!source_.open(path)) follow_template_line();
  if (open) tab_.expand();
}

void KernelPanel::restore(const std::string& text, const std::string& path, std::string notice) {
  notice_ = std::move(notice);
  // The file itself when the text is what it holds (saved), else the text as unsaved edits.
  std::string on_disk;
  try {
    if (!path.empty()) on_disk = read_file(path, usercode::kMaxSourceBytes + 1);
  } catch (const std::exception&) {
  }
  if (path.empty() || on_disk != text || source_.open(path))
    source_.start_from(text, path.empty() ? "kernel.cu" : path);
  follow_template_line();
  tab_.expand();
}

void KernelPanel::follow_template_line() {
  // The picker shows the template a file names, so its prelude and notes match.
  const auto& ts = usercode::template_entries();
  if (auto name = usercode::template_from_source(source_.text()))
    for (int i = 0; i < static_cast<int>(ts.size()); ++i)
      if (ts[i].name == *name) pick_ = i;
}

void KernelPanel::submit(UserKernel& uk) {
  notice_.clear();
  const std::string& text = source_.text();
  // A file without a `// template:` line is compiled as the template picked here.
  std::string name;
  const auto& ts = usercode::template_entries();
  if (!usercode::template_from_source(text) && pick_ < static_cast<int>(ts.size()))
    name = ts[pick_].name;
  uk.submit(text, name, source_.file_name());
}

const usercode::TemplateSpec* KernelPanel::template_in_editor(const UserKernel& uk) const {
  if (auto name = usercode::template_from_source(source_.text()))
    if (const auto* t = usercode::find_template(*name)) return t;
  if (uk.status().state != UserKernelState::Off && uk.status().spec) return uk.status().spec;
  const auto& ts = usercode::template_entries();
  return pick_ < static_cast<int>(ts.size()) ? ts[pick_].spec : nullptr;
}

void KernelPanel::update(UserKernel& uk, const ParticleScene& scene) {
  // Another scene (not the first frame's: a file opened with it keeps its
  // template): the picker moves to the scene's first template.
  if (scene_.empty()) scene_ = scene.name();
  if (scene_ != scene.name()) {
    scene_ = scene.name();
    const auto& ts = usercode::template_entries();
    for (int i = 0; i < static_cast<int>(ts.size()); ++i)
      if (ts[i].spec && ts[i].spec->feeds == usercode::Feeds::Scene && ts[i].spec->feeds_name == scene_) {
        pick_ = i;
        break;
      }
  }
  if (source_.watch(ImGui::GetTime())) {
    follow_template_line();
    if (run_on_reload_) submit(uk);
  }
  if (explain_pending_ && !source_.text().empty()) {
    explain_pending_ = false;
    start_explain(uk);
  }
  const usercode::TemplateSpec* shown = template_in_editor(uk);
  if (shown != prelude_for_) {
    prelude_for_ = shown;
    prelude_.reset_text(shown ? usercode::prelude_text(*shown) : std::string());
  }
  const usercode::UserKernelStatus& st = uk.status();
  if (st.version != seen_status_) {
    seen_status_ = st.version;
    refresh_marks(st);
  }
  time_steps(uk, scene);
}

// Yours against the built-ins, each timed while it stepped the scene its template feeds.
void KernelPanel::time_steps(const UserKernel& uk, const ParticleScene& scene) {
  const usercode::UserKernelStatus& st = uk.status();
  if (st.state != UserKernelState::Off) {  // what was submitted, from here or --kernel
    const usercode::TemplateSpec* t = st.spec ? st.spec : template_in_editor(uk);
    comparison_.follow(st.source, t ? t->feeds_name : "", uk.options().guard, uk.options().backend == Backend::Cuda);
  }
  scene_note_ = where_it_runs(st, scene);
  if (const History* yours = scene.user_kernel_times()) {
    if (scene_note_.empty()) scene_note_ = user_note(scene);
    if (runs_in_a_scene(uk) && scene_note_.empty()) {
      comparison_.yours_step(yours->latest());
    } else if (!scene.kernel_is_yours()) {
      const bool cpu = uk.options().backend == Backend::Cpu;  // there the scene's variants run its CPU twin
      comparison_.builtin_step(cpu ? "cpu" : scene.variant_name(), scene.kernel_ms.latest());
    }
  }
}

// The editor's marks and the list's unplaced messages from the last compile
// and verdict; the PTX view from the compile.
void KernelPanel::refresh_marks(const usercode::UserKernelStatus& st) {
  std::vector<code::Mark> marks;
  unplaced_.clear();
  if (st.compile)
    for (const usercode::Diagnostic& d : st.compile->diagnostics) {
      if (d.line >= 1)
        marks.push_back({d.line, severity_of(d.severity), code::ascii_quotes(d.message)});
      else
        unplaced_.push_back(d);
    }
  // A fault at a line (the guard's stop, an index out of range, the emulator's): marked there too.
  if (st.fault && st.fault->error_line() >= 1)
    marks.push_back({st.fault->error_line(), code::Severity::Error, code::ascii_quotes(st.fault->describe())});
  // A wrong verdict is a message too: at the line a fault names, else above the list.
  if (const usercode::CaseOutcome* f = st.verdict ? st.verdict->failed() : nullptr) {
    const int line = f->fault ? f->fault->error_line() : 0;
    const usercode::Diagnostic d{line, 0, usercode::Severity::Error, st.verdict->summary()};
    if (line >= 1)
      marks.push_back({line, severity_of(d.severity), code::ascii_quotes(d.message)});
    else
      unplaced_.push_back(d);
  }
  if (!same_marks(marks, source_.editor().marks())) source_.editor().set_marks(std::move(marks));
  // The guarded PTX when the guard rewrote it (what really runs), else NVRTC's.
  const std::string& ptx = !st.compile ? std::string()
                           : st.compile->guarded.ok ? st.compile->guarded.ptx : st.compile->ptx;
  if (ptx != ptx_.text()) ptx_.reset_text(ptx);
}

void KernelPanel::draw(ui::Layout& layout, UserKernel& uk) {
  if (!tab_.begin(layout, "Your kernel")) return;
  uk.prestart(source_.text());  // the runner starts (and compiles the tab's text once) while the student types
  const ImGuiStyle& st = ImGui::GetStyle();
  const float font = ImGui::GetFontSize();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // The editor gets most of the width and all the height the tool area may
  // have (the layout sizes a tool by its content, so ask for the room); the
  // rest scrolls in the column beside it. A floor keeps it usable when small.
  const float room = layout.tool_room() - ImGui::GetCursorPosY() - st.WindowPadding.y - 3;
  const float h = std::max(room, 8 * font);
  const float left_w = std::max(20 * font, std::floor(avail.x * 0.62f));
  ImGui::BeginChild("source", ImVec2(left_w, h), false, ImGuiWindowFlags_NoScrollbar);
  source_.editor().draw_find_bar();
  source_.editor().draw("editor", ImVec2(0, 0));
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("beside", ImVec2(0, h), false);
  controls(uk);
  status_section(uk);
  run_settings(uk);
  messages_section();
  costs_section(uk);
  ImGui::Spacing();
  ui::section("file");
  if (source_.draw_file_row()) {
    follow_template_line();
    if (run_on_reload_) submit(uk);
  }
  template_picker();
  prelude_section();
  ptx_section();
  ImGui::Dummy(ImVec2(0, st.ItemSpacing.y));
  ImGui::EndChild();
  if (source_.editor().take_run_request()) submit(uk);
  layout.end_tool();
}

void KernelPanel::controls(UserKernel& uk) {
  ui::CodeEditor& ed = source_.editor();
  if (ImGui::Button("Compile & run")) submit(uk);
  ui::tooltip("Ctrl+Enter in the editor. Compiles off the UI thread; the scene keeps running.");
  ui::same_line_if_fits("Built-in");
  ImGui::BeginDisabled(uk.status().state == UserKernelState::Off);
  if (ImGui::Button("Built-in")) uk.stop();
  ImGui::EndDisabled();
  ui::tooltip("Stop your kernel: the app's own kernel runs again (the messages stay).");
  ui::same_line_if_fits("Undo");
  ImGui::BeginDisabled(!ed.can_undo());
  if (ImGui::Button("Undo")) ed.undo();
  ImGui::EndDisabled();
  ui::tooltip("Ctrl+Z. Also brings back text that a load, reload or template replaced.");
  ui::same_line_if_fits("Redo");
  ImGui::BeginDisabled(!ed.can_redo());
  if (ImGui::Button("Redo")) ed.redo();
  ImGui::EndDisabled();
  ui::tooltip("Ctrl+Y or Ctrl+Shift+Z");
  explain_button(uk);
  ui::same_line_if_fits("Find");
  if (ImGui::Button("Find")) ed.open_find();
  ui::tooltip("Ctrl+F");
  char where[64];
  std::snprintf(where, sizeof where, "line %d of %d", ed.cursor_line(), ed.line_count());
  ui::same_line_if_fits(where);
  ImGui::TextColored(ui::kDim, "%s", where);
}

void KernelPanel::run_settings(UserKernel& uk) {
  bool checked = uk.options().checked;
  if (ImGui::Checkbox("checked mode", &checked)) {
    uk.set_checked(checked);
    if (uk.status().state != UserKernelState::Off) submit(uk);  // it takes a new compile
  }
  ui::tooltip("Bounds-checked accessors: a bad index is caught and reported with its thread, "
              "block and line instead of crashing. Slower; for finding the bug.");
  ui::same_line_if_fits("guard");
  bool guard = uk.options().guard;
  if (ImGui::Checkbox("guard", &guard)) {
    uk.set_guard(guard);
    if (uk.status().state != UserKernelState::Off) submit(uk);
  }
  ui::tooltip("Every read and write of your kernel is checked before it runs: one outside your "
              "buffers is skipped and named (line, thread, block) instead of faulting the GPU. "
              "Off: the raw kernel, for timing (docs/guard.md).");
  ui::same_line_if_fits("- + 2.00 s   time limit");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (!limit_editing_) time_limit_s_ = static_cast<float>(uk.options().time_limit_s);
  // Applied on Enter, a step button or leaving the field, not at every keystroke.
  const bool entered = ImGui::InputFloat("time limit", &time_limit_s_, 0.5f, 1.f, "%.2f s",
                                         ImGuiInputTextFlags_EnterReturnsTrue);
  limit_editing_ = ImGui::IsItemActive();
  if (entered || ImGui::IsItemDeactivatedAfterEdit()) {
    try {
      uk.set_time_limit(time_limit_s_);
      limit_error_.clear();
    } catch (const std::invalid_argument& e) {
      limit_error_ = e.what();  // said, not clamped; the last valid limit stays
    }
  }
  ui::tooltip("A launch running longer is stopped (the runner process is ended) and the "
              "built-in kernel takes over. 0.05 to 60 s.");
  if (!limit_error_.empty()) ui::wrapped(ui::kBad, limit_error_);
}

void KernelPanel::status_section(const UserKernel& uk) {
  const usercode::UserKernelStatus& st = uk.status();
  if (!notice_.empty()) ui::wrapped(ui::kWarn, notice_);
  ui::wrapped(state_colour(st.state),
              st.headline.empty() ? std::string("not compiled yet: press Ctrl+Enter") : st.headline);
  if (st.compile) {
    const usercode::CompileResult& c = *st.compile;
    char line[160];
    std::snprintf(line, sizeof line, "compiled in %.0f ms for %s (%s)%s", c.compile_ms, c.arch.c_str(),
                  c.template_name.c_str(), c.checked ? ", bounds checked" : "");
    ui::wrapped(ui::kDim, line);
    if (c.guarded.ok) {  // what the guard costs comes from these (docs/guard.md)
      std::snprintf(line, sizeof line, "guard: %zu memory accesses checked, %zu of them a group at a time",
                    c.guarded.guarded_instructions, c.guarded.grouped_instructions);
      ui::wrapped(ui::kDim, line);
    }
    if (st.edit_to_run_ms > 0 && st.headline.find("edit to running") == std::string::npos) {
      std::snprintf(line, sizeof line, "edit to running: %.0f ms (compile + load + first launch)",
                    st.edit_to_run_ms);
      ui::wrapped(ui::kDim, line);
    }
    if (!c.error.empty()) ui::wrapped(ui::kBad, c.error);
  }
  if (st.fault) ui::wrapped(ui::kBad, st.fault->describe());
  verdict_lines(st);
  if (!st.fallback.empty()) ui::wrapped(ui::kWarn, st.fallback);
  if (!scene_note_.empty()) ui::wrapped(ui::kWarn, scene_note_);
}

// The test set's verdict (usercode/client/verdict.h): its progress, then right or
// the first failing case, and each case's outcome in a tooltip.
void KernelPanel::verdict_lines(const usercode::UserKernelStatus& st) {
  if (!st.judging.empty()) ui::wrapped(ui::kDim, st.judging);
  if (!st.verdict || !st.verdict->judged) return;
  ui::wrapped(st.verdict->correct ? ui::kGood : ui::kBad, st.verdict->summary());
  std::string cases;
  for (const usercode::CaseOutcome& c : st.verdict->cases)
    cases += std::string(usercode::to_string(c.status)) + ": " + c.name + "\n";
  ui::tooltip(("The kernel ran on each of these inputs, drawn from the seed shown "
               "(bench kernel --seed repeats them):\n" + cases).c_str());
}

void KernelPanel::messages_section() {
  const auto& marks = source_.editor().marks();
  if (marks.empty() && unplaced_.empty()) return;
  char title[64];
  std::snprintf(title, sizeof title, "messages (%zu): click one to go to its line",
                marks.size() + unplaced_.size());
  ui::section(title);
  for (const usercode::Diagnostic& d : unplaced_)
    ui::wrapped(d.severity == usercode::Severity::Error ? ui::kBad : ui::kWarn,
                std::string(usercode::to_string(d.severity)) + ": " + code::ascii_quotes(d.message));
  source_.editor().draw_marks_list();
}

void KernelPanel::costs_section(const UserKernel& uk) {
  const usercode::UserKernelStatus& st = uk.status();
  ui::section("what it costs");
  const usercode::KernelResources& r = st.resources;
  if (r.known) {
    ImGui::TextWrapped("%d registers / thread, %d B static shared / block, %d B local / thread%s", r.registers,
                       r.shared_bytes, r.local_bytes, r.spill_bytes > 0 ? " (spills!)" : "");
    if (r.max_threads > 0) ImGui::TextWrapped("at most %d threads / block", r.max_threads);
    ui::tooltip("From the compiler (ptxas) and, once loaded on a GPU, cuFuncGetAttribute. "
                "The occupancy tab shows what they allow.");
  } else if (st.compile && st.compile->build == usercode::BuildKind::Cpu &&
             st.spec && st.spec->cpu_form == usercode::CpuForm::Emulated) {
    ui::wrapped(ui::kWarn, "emulated on the CPU: your kernel's threads run in the emulator "
                           "(docs/emulator.md), so its times are a CPU's, not a GPU's");
  } else if (st.compile && st.compile->build == usercode::BuildKind::Cpu) {
    ui::wrapped(ui::kDim, "compiled as C++ for the CPU: registers and shared memory are a GPU "
                          "compile's measures");
  } else {
    ui::wrapped(ui::kDim, "registers, shared and local memory show once it compiles");
  }
  comparison_.draw();  // which way, against the same algorithm and the fastest (ui/kernel_comparison.h)
}

// The request is built from the registry on the job's thread (a scene
// template's first bytes take a moment); the tab's text is copied now.
void KernelPanel::start_explain(const UserKernel& uk) {
  const usercode::TemplateSpec* t = template_in_editor(uk);
  explain_.start(
      [t, text = source_.text(), paths = paths_] {
        if (!t)
          throw std::invalid_argument("explain needs the file's template: its first line names it "
                                      "(// template: NAME, one of " + usercode::template_names() + ")");
        usercode::ExplainOptions o;
        o.paths = paths;
        return usercode::make_explain_request(*t, text, o);
      },
      CUDAVIZ_EXPLAIN_PATH);
}

void KernelPanel::explain_button(const UserKernel& uk) {
  ui::same_line_if_fits("Explain");
  ImGui::BeginDisabled(explain_.busy());
  if (ImGui::Button(explain_.busy() ? "Explaining..." : "Explain"))
    start_explain(uk);
  ImGui::EndDisabled();
  ui::tooltip("Run this text once through the CPU emulator at a small size and show what its "
              "threads did: races, memory sectors per request, divergent branches, who touched "
              "what (the explain tab). Works on any backend.");
}

void KernelPanel::template_picker() {
  const auto& ts = usercode::template_entries();
  if (ts.empty()) return;
  pick_ = std::clamp(pick_, 0, static_cast<int>(ts.size()) - 1);
  ui::section("start from");
  ImGui::SetNextItemWidth(std::max(ImGui::GetFontSize() * 8, ImGui::GetContentRegionAvail().x));
  if (ImGui::BeginCombo("##template", ts[pick_].name.c_str())) {
    // The scene on screen's templates first (they run there), then the rest.
    auto here = [&](int i) {
      return ts[i].spec && ts[i].spec->feeds == usercode::Feeds::Scene && ts[i].spec->feeds_name == scene_;
    };
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) ImGui::Separator();
      for (int i = 0; i < static_cast<int>(ts.size()); ++i) {
        if (here(i) != (pass == 0)) continue;
        std::string label = ts[i].name + (ts[i].example ? "  (example)" : "") +
                            (here(i) ? "  (this scene)" : "");
        if (ImGui::Selectable(label.c_str(), i == pick_)) pick_ = i;
        ui::tooltip(ts[i].description.c_str());
      }
    }
    ImGui::EndCombo();
  }
  ui::wrapped(ui::kDim, ts[pick_].description);
  if (ImGui::Button("New from this")) {
    try {
      source_.start_from(usercode::read_template_source(ts[pick_], paths_), "my_" + ts[pick_].file);
    } catch (const std::exception& e) {
      ui::wrapped(ui::kBad, e.what());
    }
  }
  ui::tooltip("Replace the text with this starting point (Undo brings yours back).");
  ui::same_line_if_fits("run on save");
  ImGui::Checkbox("run on save", &run_on_reload_);
  ui::tooltip("When the file changes on disk (saved from your own editor) or is opened, run it.");
}

void KernelPanel::prelude_section() {
  if (!ImGui::CollapsingHeader("prelude (read-only)")) return;
  ui::wrapped(ui::kDim,
              "What the app compiles before your file: its types, accessors and helpers. Messages "
              "use your file's line numbers, not these.");
  const float h = 14 * ImGui::GetFontSize();
  prelude_.draw("prelude", ImVec2(0, h));
}

void KernelPanel::ptx_section() {
  char title[64];
  if (ptx_.text().empty())
    std::snprintf(title, sizeof title, "PTX###ptx");
  else
    std::snprintf(title, sizeof title, "PTX (%d lines, read-only)###ptx", ptx_.line_count());
  if (!ImGui::CollapsingHeader(title)) return;
  if (ptx_.text().empty()) {
    ui::wrapped(ui::kDim, "The PTX shows after a compile (also on machines without a GPU).");
    return;
  }
  ptx_.draw("ptx", ImVec2(0, 16 * ImGui::GetFontSize()));
}

}  // namespace cv

#pragma once
// The "kernel" tab: a student's CUDA source in an editor (line
// numbers, compiler messages at their lines, find, undo, open/save/reload of
// .cu files), Ctrl+Enter to compile off the UI thread and run it in place of
// the built-in kernel, and beside it what happened: the compile time, the
// messages as a list that jumps to the line, what the kernel costs, its time
// against the built-in's, the fault in a student's words, the app's prelude
// and the PTX, read-only. The compiling and running is usercode::UserKernel's.
#include <optional>
#include <string>

#include "timing/frame_timers.h"
#include "ui/kernel_comparison.h"
#include "ui/kernel_source.h"
#include "ui/tuning_layout.h"
#include "usercode/client/explain_job.h"
#include "usercode/client/user_kernel.h"

namespace cv {

class ParticleScene;

class KernelPanel {
 public:
  // paths: where the shipped templates are (config/config.h).
  explicit KernelPanel(PathConfig paths);
  void open() { tab_.expand(); }
  // --kernel FILE: the tab opens with the file (the app submits it); why the
  // editor could not open it (binary, too large) shows in the tab.
  // `open`: expand the tab (false when the labs window opens instead: --lab).
  void show_file(const std::string& path, bool open = true);
  // After the window was reopened (a GPU reset): the student's text back in
  // the editor, the tab open, nothing compiled or run until they ask.
  void restore(const std::string& text, const std::string& path, std::string notice);
  // Every frame, panels shown or not: the compile's outcome (the frame loop
  // polls uk), the file on disk (a save elsewhere reloads and runs it), the
  // kernel times.
  void update(usercode::UserKernel& uk, const ParticleScene& scene);
  // The tab, when it is the open one.
  void draw(ui::Layout& layout, usercode::UserKernel& uk);
  const KernelSource& source() const { return source_; }
  // "explain": the tab's text run once through the CPU emulator (any backend);
  // the explain view (insight/explain_view.h) draws the result.
  const emu::ExplainJob& explain() const { return explain_; }
  // --panel explain: explain the tab's text as soon as it holds one.
  void explain_when_loaded() { explain_pending_ = true; }

 private:
  PathConfig paths_;
  void submit(usercode::UserKernel& uk);
  void follow_template_line();
  void controls(usercode::UserKernel& uk);
  void run_settings(usercode::UserKernel& uk);
  void status_section(const usercode::UserKernel& uk);
  void verdict_lines(const usercode::UserKernelStatus& st);
  void refresh_marks(const usercode::UserKernelStatus& st);
  void costs_section(const usercode::UserKernel& uk);
  void time_steps(const usercode::UserKernel& uk, const ParticleScene& scene);
  void template_picker();
  void messages_section();
  void prelude_section();
  void ptx_section();
  const usercode::TemplateSpec* template_in_editor(const usercode::UserKernel& uk) const;

  ui::ToolTab tab_{ui::Tool::Kernel};
  std::string notice_;  // why the window was reopened; until the next submit
  KernelSource source_;
  ui::CodeEditor prelude_{true}, ptx_{true};
  const usercode::TemplateSpec* prelude_for_ = nullptr;  // the template the prelude view shows
  uint64_t seen_status_ = ~uint64_t{0};
  std::vector<usercode::Diagnostic> unplaced_;  // messages at no line (line 0)
  int pick_ = 0;                 // the template picker's choice
  std::string scene_;            // the scene on screen: its templates head the picker
  bool run_on_reload_ = true;    // a save in the student's own editor runs it
  float time_limit_s_ = 2.f;  // the field's value while it is edited
  bool limit_editing_ = false;
  std::string limit_error_;
  // Yours and the built-ins' kernel times, each while it ran in the scene, in words.
  KernelComparison comparison_;
  std::string scene_note_;  // why the fountain does not run yours now ("" when it does)
  emu::ExplainJob explain_;
  bool explain_pending_ = false;
  void explain_button(const usercode::UserKernel& uk);
  void start_explain(const usercode::UserKernel& uk);
};

}  // namespace cv

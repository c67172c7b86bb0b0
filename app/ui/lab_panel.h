#pragma once
// The "labs" window: pick a lab (a bench target of kind Lab), its variant, n,
// block, input file and repetitions, run it on a worker thread, and read its
// answers, correctness and timings. Generic: what one lab adds (notice, notes,
// actions, pictures) comes from its target (bench::LabInfo) and its views
// (labs/lab_views.h); no lab is named here.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/device_info.h"
#include "config/config.h"
#include "labs/lab_worker.h"
#include "labs/lab_settings.h"
#include "ui/layout.h"

namespace cv::usercode {
class UserKernel;
}

namespace cv {

namespace bench {
struct Target;
struct LabAction;
}
class KernelSource;

class LabPanel {
 public:
  explicit LabPanel(Backend backend);
  void draw(ui::Layout& layout);
  // Selects `lab` (one of lab_names()), expands the window and runs it with
  // the default options. Returns why not (unknown lab, already running).
  std::optional<std::string> open_and_run(const std::string& lab);
  bool running() const { return worker_.running(); }
  const labs::LabWorker& worker() const { return worker_; }
  // Cancels a running lab and waits for it (window closing).
  void shutdown();

  // Presets (labs/lab_panel_settings.cpp): the fields as data, and setting
  // them. apply_settings returns why not (a run in progress, unknown lab or
  // variant) and then changes nothing. run_now / run_action are the window's
  // buttons (an action of the lab's bench::LabInfo).
  LabSettings settings() const;
  std::optional<std::string> apply_settings(const LabSettings& s);
  std::optional<std::string> run_now();
  std::optional<std::string> run_action(const std::string& action);

  // The kernel tab's document: actions that run the student's kernel ("run
  // your kernel") read its text, and find the runner and compilers through
  // `paths` (config/config.h); they run in `user_kernel`'s runner process (one
  // per app). Unset (tests, no editor): they say so.
  void set_kernel_source(const KernelSource* source, PathConfig paths = {},
                         usercode::UserKernel* user_kernel = nullptr) {
    kernel_source_ = source;
    paths_ = std::move(paths);
    user_kernel_ = user_kernel;
  }
  // The shown lab's actions that cannot run now, with why (the disabled
  // buttons' sentences; the --frames summary's lab_refused).
  std::vector<std::pair<std::string, std::string>> refused_actions() const;

  // Names of the labs among the bench targets (kind Lab), sorted.
  static std::vector<std::string> lab_names();

 private:
  // The window's parts, top to bottom (ui/lab_panel.cpp).
  const bench::Target& draw_options(const std::vector<std::string>& names, bool busy);
  void draw_run_controls(const bench::Target& t, bool busy);
  void draw_results();
  void draw_results_table(const std::vector<nlohmann::ordered_json>& rows);
  void draw_pictures(const bench::Target& t);
  // Why `variant` of the shown lab may be wrong (bench::LabInfo::wrong_note), "" if it may not.
  std::string wrong_note(const std::string& variant) const;
  void start(std::vector<BenchOptions> jobs, const std::string& action);
  std::optional<BenchOptions> options_from_fields();  // nullopt: message set
  // Why `a` cannot run with the window's fields now, nullopt if it can.
  std::optional<std::string> unavailable(const bench::LabAction& a, const std::string& lab) const;
  void add_kernel_source(BenchOptions& o) const;  // the kernel tab's text, if any
  Backend run_backend() const { return use_cpu_ ? Backend::Cpu : backend_; }

  Backend backend_;
  bool use_cpu_ = false;  // run on the CPU backend while the app uses CUDA
  labs::LabWorker worker_;
  const KernelSource* kernel_source_ = nullptr;
  usercode::UserKernel* user_kernel_ = nullptr;
  PathConfig paths_;
  int lab_ = 0;
  int variant_ = 0;  // 0: all
  char n_text_[24] = "";
  bool default_block_ = true;
  int block_x_ = 16, block_y_ = 16;
  char input_[512] = "";
  int reps_ = 0;
  std::string message_;      // why Run was refused
  std::string refused_;      // this frame's disabled actions and why, a line each
  std::string running_lab_;  // the lab of the shown results
  std::string action_;       // the action whose results are shown, "" for a plain run
  bool expand_ = false;      // open the window on the next draw
  bool collapse_ = false;    // collapse it on the next draw (a preset with "open": false)
  bool collapsed_ = true;    // as last drawn (its tab not open)
};

}  // namespace cv

#pragma once
// The "sweep" window: a block-shape sweep of any scene or lab, the same runs
// and rows as `cudaviz sweep`, on a worker thread with progress and cancel;
// results as a table and a bar chart (kernel ms per shape, refused shapes with
// their reason) and exported as CSV.
#include <optional>
#include <string>

#include "common/device_info.h"
#include "tuning/sweep_worker.h"
#include "ui/tuning_layout.h"

namespace cv {

class SweepPanel {
 public:
  explicit SweepPanel(Backend backend);
  void draw(ui::Layout& layout);
  void open() { window_.expand(); }
  // Selects `target`, sets the shapes (empty: the defaults) and starts the
  // sweep with its default variant. Returns why not.
  std::optional<std::string> start(const std::string& target, const std::string& shapes);
  bool running() const { return worker_.running(); }
  const tuning::SweepWorker& worker() const { return worker_; }
  void shutdown();

 private:
  std::optional<std::string> start_from_fields();
  void draw_results();
  void csv_export(const std::vector<tuning::SweepRow>& rows);

  Backend backend_;
  bool use_cpu_ = false;  // sweep on the CPU backend while the app uses CUDA
  int target_ = 0;
  int variant_ = 0;  // 0: the default for the backend
  char shapes_[512] = "";
  char n_text_[24] = "";
  int reps_ = 0;
  char csv_path_[512] = "sweep.csv";
  std::string message_;
  std::string csv_message_;
  bool csv_ok_ = false;
  tuning::SweepWorker worker_;
  ui::ToolTab window_{ui::Tool::Sweep};  // its tab in the tool area (ui/layout.h)
};

}  // namespace cv

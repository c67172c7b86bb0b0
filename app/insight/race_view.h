#pragma once
// Race lab (--panel race): the racy count of multiples of 3 (the document's
// `count++` on a global) run many times: a histogram of its answers against the
// right count, lost updates per run, the atomic and per-warp variants beside,
// and a two-thread timeline of the read-modify-write interleaving that loses an
// update (insight/race_model.h).
#include <memory>
#include <string>
#include <vector>

#include "insight/race_model.h"
#include "insight/view_common.h"

namespace cv::insight_ui {

class RaceView {
 public:
  void open() {
    window_.open();
    auto_run_ = true;
  }
  bool is_open() const { return window_.is_open(); }
  void draw(const ViewContext& ctx);

 private:
  void run_gpu();
  void draw_histogram();
  void draw_timeline();

  ViewWindow window_{ui::Tool::Race, "race lab"};
  int runs_ = 40;
  int log2_n_ = 20;
  bool auto_run_ = false;
  std::vector<long long> racy_;
  long long right_ = 0, atomic_ = 0, warp_ = 0;
  std::string error_;
  int order_ = 1;  // which interleaving the timeline shows
};

}  // namespace cv::insight_ui

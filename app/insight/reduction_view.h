#pragma once
// Reduction step-through (--panel reduction): a tree reduction of 64..1024
// elements, one step at a time, for interleaved (divergent and strided),
// sequential and warp-shuffle variants. On CUDA the values after step k are the
// real kernel's, run to step k and read back (insight/tree_steps_gpu.h); on the
// CPU backend they come from the CPU model of each step (the same tree_op()).
#include <memory>
#include <string>
#include <vector>

#include "insight/tree_steps.h"
#include "insight/view_common.h"

namespace cv::insight {
class TreeStepsGpu;
}

namespace cv::insight_ui {

class ReductionView {
 public:
  ReductionView();
  ~ReductionView();
  // Opens two steps in, so the first picture already shows who adds.
  void open() {
    window_.open();
    step_ = 2;
    stale_ = true;
  }
  bool is_open() const { return window_.is_open(); }
  void draw(const ViewContext& ctx);

 private:
  void controls();
  void refresh(Backend backend);
  void draw_cells();
  void draw_costs();

  ViewWindow window_{ui::Tool::Reduction, "reduction step by step"};
  int n_ = 256, variant_ = 0;
  unsigned step_ = 0;
  bool playing_ = false;
  double last_tick_ = 0;
  std::vector<int32_t> input_, values_;
  std::string source_, error_;
  bool stale_ = true;
  bool gpu_matches_ = true;
  std::unique_ptr<insight::TreeStepsGpu> gpu_;
};

}  // namespace cv::insight_ui

#pragma once
// The explain view: what the student's threads did, from the
// kernel tab's "explain" (the CPU emulator, any backend): races as
// sentences, sectors per warp-wide access (the memory view's style),
// divergence per branch, who touched what. Opens itself when a result arrives.
#include <cstdint>

#include "insight/explain_touches.h"
#include "insight/view_common.h"
#include "usercode/client/explain_job.h"

namespace cv {
class KernelPanel;
}

namespace cv::insight_ui {

class ExplainView {
 public:
  void open() { window_.open(); }
  void draw(const ViewContext& ctx, const KernelPanel* panel);

 private:
  ViewWindow window_{ui::Tool::Explain, "explain"};
  uint64_t seen_ = 0;
  emu::ExplainResult result_;  // a copy, taken when a new one arrives
  TouchGrid touches_;
};

}  // namespace cv::insight_ui

#pragma once
// Memory access view (--panel memory): for the scene's kernel and a block
// shape, one warp's addresses for each global load and store against 32-byte
// sectors and 128-byte lines, sectors per request and the efficiency, from the
// kernel's own index function (insight/access_model.h), beside the measured
// bandwidth of the scene's kernel when there is one.
#include <optional>

#include "insight/access_model.h"
#include "insight/view_common.h"

namespace cv::insight_ui {

class MemoryView {
 public:
  void open() { window_.open(); }
  bool is_open() const { return window_.is_open(); }
  void draw(const ViewContext& ctx);

 private:
  void draw_request(const insight::WarpRequest& r, int index);
  void draw_measured(const ViewContext& ctx, const insight::WarpAccessPicture& pic);

  ViewWindow window_{ui::Tool::Memory, "memory accesses"};
  int shape_ = 0;  // 0: the scene's block; else one of the comparison shapes
  int warp_ = 0;
  int block_ = 0;
};

// The access kernel of the scene's current variant with `block`, or nullopt
// for scenes the view does not know.
std::optional<insight::AccessKernel> scene_access_kernel(const ParticleScene& scene,
                                                         const BlockShape& block);

}  // namespace cv::insight_ui

#pragma once
// The "occupancy" window: for the kernel the scene runs (or a lab variant's),
// its registers and shared memory (cudaFuncGetAttributes), the theoretical
// occupancy of the current block shape and which resource limits it (the model
// in kernels/common/occupancy.h, cross-checked with the CUDA runtime), and a
// "suggest" button (cudaOccupancyMaxPotentialBlockSize) that applies its shape.
#include <optional>
#include <string>

#include "common/device_info.h"
#include "common/occupancy_cuda.h"
#include "ui/panels.h"
#include "tuning/kernel_catalog.h"
#include "ui/tuning_layout.h"

namespace cv {

class OccupancyPanel {
 public:
  explicit OccupancyPanel(Backend backend) : backend_(backend) {}
  void draw(ParticleScene& scene, SceneUi& sui, ui::Layout& layout);
  void open() { window_.expand(); }

 private:
  std::optional<tuning::KernelPick> pick_kernel(ParticleScene& scene, std::string& why);
  std::optional<tuning::KernelPick> pick_lab_kernel(std::string& why);
  void suggest(const tuning::KernelPick& pick, ParticleScene& scene, SceneUi& sui);
  void suggestion_section(const tuning::KernelPick& pick, ParticleScene& scene, SceneUi& sui);

  Backend backend_;
  int source_ = 0;  // 0: the scene's kernel, 1: a lab's
  int lab_ = 0, variant_ = 0;
  int lab_block_x_ = 256, lab_block_y_ = 1;
  std::string message_;
  std::string cross_key_;  // kernel and threads the cached runtime answer is for
  CudaAnswer cross_;
  ui::ToolTab window_{ui::Tool::Occupancy};  // its tab in the tool area (ui/layout.h)
};

}  // namespace cv

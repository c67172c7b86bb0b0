#pragma once
// The "device" window: what the GPU offers (name, compute capability, SMs,
// limits, memory, clocks) and its copy bandwidth, measured on demand on a
// worker thread so the window stays live. On the CPU backend it says that no
// CUDA device is used and why.
#include <future>
#include <optional>
#include <string>

#include "common/device_info.h"
#include "common/device_report.h"
#include "tuning/copy_bandwidth.h"
#include "ui/tuning_layout.h"

namespace cv {

class DevicePanel {
 public:
  explicit DevicePanel(Backend backend) : backend_(backend) {}
  ~DevicePanel();  // waits for a measurement in flight
  DevicePanel(const DevicePanel&) = delete;
  DevicePanel& operator=(const DevicePanel&) = delete;
  void draw(ui::Layout& layout);
  void open() { window_.expand(); }

 private:
  void bandwidth_section(const DeviceReport& d);
  Backend backend_;
  std::future<tuning::CopyBandwidth> pending_;
  std::optional<tuning::CopyBandwidth> result_;
  std::string error_;
  ui::ToolTab window_{ui::Tool::Device};  // its tab in the tool area (ui/layout.h)
};

}  // namespace cv

#include "ui/device_panel.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "common/cuda_check.h"
#include "common/device_report.h"
#include "common/device_select.h"
#include "ui/panels.h"

namespace cv {

DevicePanel::~DevicePanel() {
  if (pending_.valid()) pending_.wait();
}

namespace {

void no_device_note(const DeviceReport& d) {
  ImGui::TextColored(ui::kWarn, "CPU backend: no CUDA device");
  ImGui::PushStyleColor(ImGuiCol_Text, ui::kDim);
  ImGui::TextWrapped(
      "%s. The scenes and labs run their CPU twins (the same per-element code on "
      "threads); install the NVIDIA driver on a machine with a GPU for CUDA.",
      d.unavailable_reason.c_str());
  ImGui::PopStyleColor();
}

void properties_table(const DeviceReport& d) {
  if (!ImGui::BeginTable("device", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
    return;
  ImGui::TableSetupColumn("property", ImGuiTableColumnFlags_WidthFixed, 190.f);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthFixed, 260.f);
  for (const auto& [label, value] : device_rows(d)) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextColored(ui::kDim, "%s", label.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(value.c_str());
  }
  ImGui::EndTable();
}

}  // namespace

void DevicePanel::bandwidth_section(const DeviceReport& d) {
  ui::section("Copy bandwidth (measured)");
  if (pending_.valid() && pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    try {
      result_ = pending_.get();
      error_.clear();
    } catch (const std::exception& e) {
      cudaGetLastError();  // an allocation failure must not stick to the next call
      error_ = e.what();
    }
  }
  const bool busy = pending_.valid();
  if (busy) ImGui::BeginDisabled();
  if (ImGui::Button(busy ? "measuring..." : "measure"))
    pending_ = std::async(std::launch::async, [] {
      bind_selected_device();  // --device: per thread
      return tuning::measure_copy_bandwidth();
    });
  if (busy) ImGui::EndDisabled();
  ui::tooltip(
      "cudaMemcpyAsync of 1 GiB device to device, 2 warm-ups then the median of 9, CUDA events; "
      "bytes read plus written. The same copy as `cudaviz bench reverse --variant copy`.");
  if (result_) {
    ImGui::Text("%.0f GB/s  (%.1f GiB copied in %.3f ms, median of %d)", result_->gb_per_s,
                static_cast<double>(result_->bytes) / (1ll << 30), result_->ms_median,
                result_->reps);
    const double peak = peak_memory_gb_per_s(d);
    if (peak > 0)
      ImGui::TextColored(ui::kDim, "%.0f%% of the theoretical %.0f GB/s",
                         100.0 * result_->gb_per_s / peak, peak);
  }
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::kBad);
    ImGui::TextWrapped("%s", error_.c_str());
    ImGui::PopStyleColor();
  }
}

void DevicePanel::draw(ui::Layout& layout) {
  if (!window_.begin(layout, "device")) return;  // its tab in the tool area
  const DeviceReport& d = device_report();
  if (!d.available) {
    no_device_note(d);
    layout.end_tool();
    return;
  }
  if (backend_ == Backend::Cpu)
    ImGui::TextColored(ui::kWarn, "CPU backend (--backend cpu): this device is present but unused");
  properties_table(d);

  bandwidth_section(d);
  layout.end_tool();
}

}  // namespace cv

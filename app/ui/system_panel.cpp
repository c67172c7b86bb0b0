#include "ui/system_panel.h"

#include <imgui.h>

#include "common/device_info.h"
#include "system/system_findings.h"
#include "system/system_probe.h"
#include "widgets/widgets.h"

namespace cv::ui {
namespace {

ImVec4 colour(sys::Level l) {
  switch (l) {
    case sys::Level::Ok:
      return kGood;
    case sys::Level::Info:
      return kDim;
    case sys::Level::Warn:
      return kWarn;
    default:
      return kBad;
  }
}

}  // namespace

SystemSection::SystemSection(const Config& config) : config_(config) { probe(); }

void SystemSection::probe() {
  facts_ = sys::Facts{};
  facts_.display = sys::probe_display(config_.system);
  facts_.cuda = sys::probe_cuda(false);         // no contexts on the GPUs the app does not use
  facts_.gl.tried = facts_.gl.context = true;  // the app's window is proof
  sys::probe_current_gl(facts_.gl, sys::cuda_usable(facts_.cuda), config_);
  found_ = sys::findings(facts_);
}

void SystemSection::draw() {
  // A GPU this build cannot use: the whole sentence, wrapped, above everything.
  if (const DeviceInfo& d = device_info(); d.blocked) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
    ImGui::TextWrapped("%s; running on the CPU backend", d.unavailable_reason.c_str());
    ImGui::PopStyleColor();
  }
  bool problem = false;
  for (const sys::Finding& f : found_)
    problem |= f.level == sys::Level::Warn || f.level == sys::Level::Error;
  // Open from the start when something needs fixing, so nobody has to look for it.
  if (!ImGui::CollapsingHeader("system", problem ? ImGuiTreeNodeFlags_DefaultOpen : 0)) return;
  ImGui::TextWrapped("runs as: %s", sys::describe(sys::run_mode(facts_)));
  for (const sys::Finding& f : found_) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour(f.level));
    ImGui::TextWrapped("[%s] %s: %s", sys::to_string(f.level), f.topic.c_str(), f.text.c_str());
    ImGui::PopStyleColor();
    if (!f.fix.empty()) ImGui::TextWrapped("    fix: %s", f.fix.c_str());
  }
  if (ImGui::SmallButton("check again")) probe();
  tooltip("The same findings as `cudaviz doctor`, for this window's OpenGL context.");
}

}  // namespace cv::ui

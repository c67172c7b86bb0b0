#include "ui/system_panel.h"

#include <imgui.h>

#include <optional>
#include <vector>

#include "common/device_info.h"
#include "system/system_findings.h"
#include "system/system_probe.h"
#include "widgets/widgets.h"

namespace cv::ui {
namespace {

struct SystemView {
  sys::Facts facts;
  std::vector<sys::Finding> found;
};

SystemView probe_now() {
  SystemView v;
  v.facts.display = sys::probe_display();
  v.facts.cuda = sys::probe_cuda(false);         // no contexts on the GPUs the app does not use
  v.facts.gl.tried = v.facts.gl.context = true;  // the app's window is proof
  sys::probe_current_gl(v.facts.gl, sys::cuda_usable(v.facts.cuda));
  v.found = sys::findings(v.facts);
  return v;
}

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

void draw_system_section() {
  // One probe per process (it registers a test buffer): kept here, like the
  // device caches in kernels/common, rather than threaded through UiState.
  static std::optional<SystemView> view;
  if (!view) view = probe_now();
  // A GPU this build cannot use: the whole sentence, wrapped, above everything.
  if (const DeviceInfo& d = device_info(); d.blocked) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
    ImGui::TextWrapped("%s; running on the CPU backend", d.unavailable_reason.c_str());
    ImGui::PopStyleColor();
  }
  bool problem = false;
  for (const sys::Finding& f : view->found)
    problem |= f.level == sys::Level::Warn || f.level == sys::Level::Error;
  // Open from the start when something needs fixing, so nobody has to look for it.
  if (!ImGui::CollapsingHeader("system", problem ? ImGuiTreeNodeFlags_DefaultOpen : 0)) return;
  ImGui::TextWrapped("runs as: %s", sys::describe(sys::run_mode(view->facts)));
  for (const sys::Finding& f : view->found) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour(f.level));
    ImGui::TextWrapped("[%s] %s: %s", sys::to_string(f.level), f.topic.c_str(), f.text.c_str());
    ImGui::PopStyleColor();
    if (!f.fix.empty()) ImGui::TextWrapped("    fix: %s", f.fix.c_str());
  }
  if (ImGui::SmallButton("check again")) view = probe_now();
  tooltip("The same findings as `cudaviz doctor`, for this window's OpenGL context.");
}

}  // namespace cv::ui

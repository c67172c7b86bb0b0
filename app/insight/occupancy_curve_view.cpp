#include "insight/occupancy_curve_view.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "common/device_report.h"
#include "scenes/particle_scene.h"
#include "tuning/kernel_catalog.h"
#include "widgets/widgets.h"

namespace cv::insight_ui {
namespace {

const char* kNotice =
    "Each bar is one block size. Occupancy = resident warps / the SM's warp slots; the "
    "colour says which resource ran out first: warp slots (blue), registers (orange), "
    "shared memory (purple) or the resident-block count (grey). Small blocks hit the "
    "block-count limit long before the warp slots fill; sizes that do not divide the "
    "SM's limits leave slots empty (the saw teeth). The white line is the measured "
    "kernel time for the same sizes: high occupancy helps hide memory latency, but past "
    "a point more warps buy nothing.";

ImU32 limiter_colour(unsigned limiters) {
  if (limiters & kLimitRegisters) return IM_COL32(240, 150, 60, 255);
  if (limiters & kLimitShared) return IM_COL32(170, 110, 230, 255);
  if (limiters & kLimitWarps) return IM_COL32(80, 150, 240, 255);
  return IM_COL32(150, 150, 160, 255);
}

std::string scene_variant(const ParticleScene& scene) {
  nlohmann::ordered_json j;
  scene.describe(j);
  return j.contains("variant") ? j["variant"].get<std::string>() : "";
}

}  // namespace

void OccupancyCurveView::draw(const ViewContext& ctx) {
  if (!window_.begin(ctx.layout)) return;
  notice(kNotice);
  const auto pick = tuning::scene_kernel(ctx.scene);
  if (ctx.backend != Backend::Cuda || !device_report().available || !pick || !pick->attributes.ok) {
    needs_gpu("the occupancy curve (the device's limits and the kernel's registers)");
    if (pick && !pick->attributes.error.empty())
      ImGui::TextColored(ui::kDim, "%s", pick->attributes.error.c_str());
    window_.end(ctx.layout);
    return;
  }
  const KernelAttributes& a = pick->attributes;
  KernelUsage use;
  use.regs_per_thread = a.regs_per_thread;
  use.static_shared = a.static_shared_bytes;
  use.max_threads_per_block = a.max_threads_per_block;
  const auto curve = insight::occupancy_curve(to_occupancy_device(device_report()), use);
  ImGui::Text("%s: %d registers/thread, %lld B static shared", a.name.c_str(), a.regs_per_thread,
              a.static_shared_bytes);
  ImGui::TextColored(ui::kDim, "%s", pick->context.c_str());
  const bool clicked =
      ImGui::Button(sweep_.running() ? "measuring..." : "measure kernel time (sweep)");
  if ((clicked || auto_sweep_) && !sweep_.running()) start_sweep(ctx, curve, pick->two_dimensional);
  auto_sweep_ = false;
  if (!sweep_error_.empty()) ImGui::TextColored(ui::kBad, "%s", sweep_error_.c_str());
  if (sweep_.running()) {
    ImGui::SameLine();
    ImGui::ProgressBar(sweep_.progress(), ImVec2(-1, 0));
  }
  draw_chart(curve);
  window_.end(ctx.layout);
}

void OccupancyCurveView::start_sweep(const ViewContext& ctx,
                                     const std::vector<insight::CurvePoint>& curve, bool two_d) {
  SweepOptions opt;
  opt.target = ctx.scene.name();
  opt.variant = scene_variant(ctx.scene);
  opt.n = ctx.scene.count();
  for (const auto& p : curve) opt.shapes.push_back(shape_for_threads(p.threads, two_d));
  if (auto err = sweep_.start(opt))
    sweep_error_ = *err;
  else
    sweep_error_.clear(), swept_for_ = opt.target + " " + opt.variant;
}

void OccupancyCurveView::draw_chart(const std::vector<insight::CurvePoint>& curve) {
  std::map<long long, double> ms;  // threads -> median kernel ms
  for (const auto& r : sweep_.rows())
    if (r.ok) ms[r.shape.threads()] = r.ms_median;
  double top_ms = 0;
  for (const auto& [t, m] : ms) top_ms = std::max(top_ms, m);
  const float w = ImGui::GetContentRegionAvail().x, h = 220 * ui::layout_scale();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  dl->AddRectFilled(o, ImVec2(o.x + w, o.y + h), IM_COL32(25, 28, 36, 255));
  const float bw = w / static_cast<float>(std::max<size_t>(1, curve.size()));
  ImVec2 prev(-1, -1);
  for (size_t i = 0; i < curve.size(); ++i) {
    const auto& p = curve[i];
    const float bh = h * static_cast<float>(p.occupancy);
    dl->AddRectFilled(ImVec2(o.x + i * bw + 1, o.y + h - bh),
                      ImVec2(o.x + (i + 1) * bw - 1, o.y + h), limiter_colour(p.limiters));
    auto it = ms.find(p.threads);
    if (it != ms.end() && top_ms > 0) {
      const ImVec2 pt(o.x + (i + 0.5f) * bw, o.y + h - h * static_cast<float>(it->second / top_ms));
      if (prev.x >= 0) dl->AddLine(prev, pt, IM_COL32(255, 255, 255, 255), 2.f);
      dl->AddCircleFilled(pt, 3.f, IM_COL32(255, 255, 255, 255));
      prev = pt;
    }
  }
  ImGui::Dummy(ImVec2(w, h));
  ImGui::TextColored(ui::kDim, "x: threads per block %d .. %d (step %d); bars: occupancy 0..100%%",
                     curve.empty() ? 0 : curve.front().threads,
                     curve.empty() ? 0 : curve.back().threads,
                     curve.empty() ? 0 : curve.front().threads);
  if (top_ms > 0)
    ImGui::TextColored(ui::kDim, "white: measured kernel time (%s), top of chart = %.3f ms",
                       swept_for_.c_str(), top_ms);
  else
    ImGui::TextColored(ui::kDim, "no measured times yet: press measure");
  ImGui::TextColored(ImVec4(0.31f, 0.59f, 0.94f, 1), "warps");
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.94f, 0.59f, 0.24f, 1), "registers");
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.67f, 0.43f, 0.9f, 1), "shared memory");
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.59f, 0.59f, 0.63f, 1), "blocks per SM");
}

}  // namespace cv::insight_ui

#include "insight/reduction_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "insight/tree_steps_gpu.h"
#include "widgets/widgets.h"

namespace cv::insight_ui {
namespace {

const char* kVariantNames =
    "interleaved, divergent (t % 2s == 0)\0"
    "interleaved, strided index (2st)\0"
    "sequential (t < s)\0"
    "warp shuffle\0";

const char* kNotice =
    "Each step adds pairs; the highlighted threads did the adds of the step just run. "
    "Interleaved with t % 2s == 0: from the first step only some threads of every warp "
    "work, so every warp diverges. With a strided index the working threads are packed "
    "into whole warps, but their addresses 2s*t land many to a shared-memory bank: bank "
    "conflicts serialize the access. Sequential addressing (t < s) packs the work into "
    "whole warps and reads consecutive words: no divergence until fewer than 32 threads "
    "work, no conflicts. Warp shuffles exchange registers inside a warp: no shared "
    "memory at all until the warps' totals meet.";

constexpr double kPlaySeconds = 0.7;

}  // namespace

ReductionView::ReductionView() = default;
ReductionView::~ReductionView() = default;

void ReductionView::draw(const ViewContext& ctx) {
  if (!window_.begin(ctx.layout)) return;
  notice(kNotice);
  controls();
  if (playing_ && ImGui::GetTime() - last_tick_ > kPlaySeconds) {
    last_tick_ = ImGui::GetTime();
    const unsigned steps = insight::tree_steps(insight::padded_size(static_cast<unsigned>(n_)));
    if (step_ < steps) {
      ++step_;
      stale_ = true;
    } else {
      playing_ = false;
    }
  }
  if (stale_) refresh(ctx.backend);
  if (!error_.empty()) ImGui::TextColored(ui::kBad, "%s", error_.c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, ui::kDim);
  ImGui::TextWrapped("%s", source_.c_str());
  ImGui::PopStyleColor();
  if (!gpu_matches_)
    ImGui::TextColored(ui::kBad, "the kernel's values DIFFER from the CPU model of this step");
  draw_cells();
  draw_costs();
  window_.end(ctx.layout);
}

void ReductionView::controls() {
  const float s = ui::layout_scale();
  ImGui::SetNextItemWidth(300 * s);
  if (ImGui::Combo("variant", &variant_, kVariantNames)) stale_ = true;
  ImGui::SetNextItemWidth(200 * s);
  int n = n_;
  if (ImGui::InputInt("elements", &n, 64, 256)) {
    if (auto err = insight::check_tree_size(static_cast<unsigned>(std::max(0, n)))) {
      error_ = *err;  // keep the last valid size
    } else {
      n_ = n;
      step_ = 0;
      stale_ = true;
      error_.clear();
    }
  }
  const unsigned steps = insight::tree_steps(insight::padded_size(static_cast<unsigned>(n_)));
  ImGui::Text("step %u of %u", step_, steps);
  ImGui::SameLine();
  if (ImGui::Button("step") && step_ < steps) {
    ++step_;
    stale_ = true;
  }
  ImGui::SameLine();
  if (ImGui::Button(playing_ ? "pause" : "play")) {
    playing_ = !playing_;
    if (playing_ && step_ >= steps) step_ = 0, stale_ = true;
    last_tick_ = ImGui::GetTime();
  }
  ImGui::SameLine();
  if (ImGui::Button("reset")) {
    step_ = 0;
    playing_ = false;
    stale_ = true;
  }
}

void ReductionView::refresh(Backend backend) {
  stale_ = false;
  const auto v = static_cast<insight::TreeVariant>(variant_);
  input_ = insight::tree_input(static_cast<unsigned>(n_), 12);
  const auto model = insight::tree_values_cpu(v, input_, step_);
  gpu_matches_ = true;
  if (backend != Backend::Cuda) {
    values_ = model;
    source_ =
        "CPU backend: values from the CPU model of each step (the kernel's own tree_op); the "
        "kernel itself needs a GPU";
    return;
  }
  try {
    if (!gpu_) gpu_ = std::make_unique<insight::TreeStepsGpu>();
    values_ = gpu_->run(v, input_, step_);
    gpu_matches_ = values_ == model;
    source_ = "values read back from tree_steps_kernel stopped after step " +
              std::to_string(step_) + (gpu_matches_ ? " (equal to the CPU model)" : "");
  } catch (const std::exception& e) {
    cudaGetLastError();
    values_ = model;
    error_ = e.what();
    source_ = "the kernel failed: showing the CPU model";
  }
}

// One row per warp (32 threads); a cell shows thread t's value, highlighted if
// t worked in the step just run, dim if it is padding.
void ReductionView::draw_cells() {
  const unsigned p = static_cast<unsigned>(values_.size());
  if (p == 0) return;
  const auto v = static_cast<insight::TreeVariant>(variant_);
  const float avail = ImGui::GetContentRegionAvail().x - 60 * ui::layout_scale();
  const float cw = std::max(6.f, avail / 32.f),
              ch = std::max(10.f, std::min(cw * 0.7f, ImGui::GetTextLineHeight() + 2));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  long long total = 0;
  for (int32_t x : input_) total += x;
  for (unsigned t = 0; t < p; ++t) {
    const float x = o.x + 60 * ui::layout_scale() + (t % 32) * cw, y = o.y + (t / 32) * ch;
    const bool active = step_ > 0 && insight::tree_thread_active(v, t, step_ - 1, p);
    const bool pad = t >= static_cast<unsigned>(n_);
    // Brightness grows with the share of the total a value holds.
    const float share =
        total > 0 ? std::min(1.f, static_cast<float>(values_[t]) / static_cast<float>(total)) : 0.f;
    const float b = 0.25f + 0.75f * std::sqrt(share);
    const ImU32 fill = active ? IM_COL32(250, 190, 60, 255)
                       : pad  ? IM_COL32(35, 35, 40, 255)
                              : ImGui::GetColorU32(ImVec4(0.25f * b, 0.4f * b, 0.9f * b, 1.f));
    dl->AddRectFilled(ImVec2(x, y), ImVec2(x + cw - 1, y + ch - 1), fill);
    char buf[16];
    std::snprintf(buf, sizeof buf, "%d", values_[t]);
    if (ImGui::CalcTextSize(buf).x + 2 <= cw)
      dl->AddText(ImVec2(x + 1, y), active ? IM_COL32(0, 0, 0, 255) : IM_COL32(230, 230, 240, 255),
                  buf);
    if (t % 32 == 0) {
      char w[16];
      std::snprintf(w, sizeof w, "warp %u", t / 32);
      dl->AddText(ImVec2(o.x, y), ImGui::GetColorU32(ui::kDim), w);
    }
  }
  ImGui::Dummy(ImVec2(avail + 60 * ui::layout_scale(), ((p + 31) / 32) * ch + 4));
  ImGui::PushStyleColor(ImGuiCol_Text, ui::kDim);  // wrapped: long at presentation scale
  ImGui::TextWrapped("one row per warp; orange: the step's adds; brighter: a larger share of the sum");
  ImGui::PopStyleColor();
  ImGui::TextWrapped("sum of the %d elements: %lld; thread 0 holds %d", n_, total, values_[0]);
}

void ReductionView::draw_costs() {
  const unsigned p = insight::padded_size(static_cast<unsigned>(n_));
  const auto v = static_cast<insight::TreeVariant>(variant_);
  if (step_ > 0) {
    const auto st = insight::tree_step_stats(v, step_ - 1, p);
    ImGui::TextWrapped(
        "step %u: %u threads add, %u warps busy, %u divergent, %u bank conflicts (%u shared "
        "accesses)",
        step_, st.active_threads, st.active_warps, st.divergent_warps, st.bank_conflicts,
        st.shared_accesses);
  }
  ui::section("All steps, every variant");
  if (!ImGui::BeginTable("costs", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit))
    return;
  ImGui::TableSetupColumn("variant");
  ImGui::TableSetupColumn("warp-steps busy");
  ImGui::TableSetupColumn("divergent warps");
  ImGui::TableSetupColumn("bank conflicts");
  ImGui::TableHeadersRow();
  for (int i = 0; i < insight::kTreeVariants; ++i) {
    const auto vi = static_cast<insight::TreeVariant>(i);
    unsigned busy = 0, div = 0, conf = 0;
    for (unsigned k = 0; k < insight::tree_steps(p); ++k) {
      const auto st = insight::tree_step_stats(vi, k, p);
      busy += st.active_warps;
      div += st.divergent_warps;
      conf += st.bank_conflicts;
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(insight::to_string(vi));
    ImGui::TableNextColumn();
    ImGui::Text("%u", busy);
    ImGui::TableNextColumn();
    ImGui::Text("%u", div);
    ImGui::TableNextColumn();
    ImGui::Text("%u", conf);
  }
  ImGui::EndTable();
}

}  // namespace cv::insight_ui

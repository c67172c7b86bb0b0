#include "insight/race_view.h"

#include <algorithm>
#include <cstdio>

#include "common/cuda_resources.h"
#include "labs/reduce/reduce.h"
#include "widgets/widgets.h"

namespace cv::insight_ui {
namespace {

const char* kNotice =
    "count++ on a global is three steps: load the counter, add 1, store it back. When "
    "two threads load before either stores, both store the same value and one update is "
    "lost. Thousands of threads do this at once, so the racy kernel's answer is too low, "
    "and by a different amount every run. atomicAdd makes the three steps one "
    "indivisible operation (right, but every hit waits its turn on one address); the "
    "per-warp variant first sums inside each warp with shuffles, then does one atomic "
    "per warp: right and far fewer atomics.";

// The interleavings the timeline offers: serial, and two that lose an update.
const std::vector<int> kOrders[] = {{0, 0, 0, 1, 1, 1}, {0, 1, 0, 1, 0, 1}, {0, 1, 1, 1, 0, 0}};
const char* kOrderNames =
    "one after the other\0"
    "interleaved\0"
    "T1 slips in between\0";

}  // namespace

void RaceView::draw(const ViewContext& ctx) {
  if (!window_.begin(ctx.layout)) return;
  notice(kNotice);
  if (ctx.backend == Backend::Cuda) {
    const float s = ui::layout_scale();
    ImGui::SetNextItemWidth(140 * s);
    ImGui::SliderInt("runs", &runs_, 5, 200);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(140 * s);
    ImGui::SliderInt("log2 elements", &log2_n_, 16, 24);
    ImGui::SameLine();
    if (ImGui::Button("run") || auto_run_) run_gpu();
    auto_run_ = false;
    if (!error_.empty()) ImGui::TextColored(ui::kBad, "%s", error_.c_str());
    draw_histogram();
  } else {
    needs_gpu("the racy kernel's lost updates (thousands of threads on one counter)");
  }
  draw_timeline();
  window_.end(ctx.layout);
}

// Runs the racy count `runs_` times and the two right variants once, on
// 2^log2_n_ elements (a few ms in all on a current GPU, so on the UI thread).
void RaceView::run_gpu() {
  error_.clear();
  racy_.clear();
  try {
    const size_t n = size_t{1} << log2_n_;
    const std::vector<int32_t> host = reduce::make_data(n, 3);
    right_ = reduce::cpu_threads(reduce::Op::Count3, host.data(), n);
    DeviceBuffer<int32_t> d(n);
    CudaStream stream;
    // On the kernels' stream: a plain cudaMemcpy may return before its DMA
    // lands and is not ordered before work on a non-blocking stream.
    CV_CUDA(cudaMemcpyAsync(d.get(), host.data(), n * sizeof(int32_t), cudaMemcpyHostToDevice,
                            stream.get()));
    reduce::ReduceGpu gpu(reduce::Op::Count3, n);
    const BlockShape block{256, 1, 1};
    for (int r = 0; r < runs_; ++r) {
      gpu.run(reduce::Variant::Racy, d.get(), n, block, stream.get());
      racy_.push_back(gpu.result(stream.get()));
    }
    gpu.run(reduce::Variant::Atomic, d.get(), n, block, stream.get());
    atomic_ = gpu.result(stream.get());
    gpu.run(reduce::Variant::WarpShuffle, d.get(), n, block, stream.get());
    warp_ = gpu.result(stream.get());
  } catch (const std::exception& e) {
    cudaGetLastError();
    error_ = e.what();
  }
}

void RaceView::draw_histogram() {
  if (racy_.empty()) return;
  const insight::RaceHistogram h = insight::race_histogram(racy_, right_, 40);
  ui::section("Racy answers over the runs (green line: the right count)");
  ImGui::Text("right count %lld; racy: lost %lld to %lld updates a run (mean %.0f, %.2f%%)", right_,
              h.min_lost, h.max_lost, h.mean_lost, right_ ? 100.0 * h.mean_lost / right_ : 0.0);
  const float w = ImGui::GetContentRegionAvail().x, ht = 140 * ui::layout_scale();
  const int top = std::max(1, *std::max_element(h.bins.begin(), h.bins.end()));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float bw = w / static_cast<float>(h.bins.size());
  dl->AddRectFilled(o, ImVec2(o.x + w, o.y + ht), IM_COL32(25, 28, 36, 255));
  for (size_t i = 0; i < h.bins.size(); ++i) {
    const float bh = ht * static_cast<float>(h.bins[i]) / static_cast<float>(top);
    dl->AddRectFilled(ImVec2(o.x + i * bw + 1, o.y + ht - bh),
                      ImVec2(o.x + (i + 1) * bw - 1, o.y + ht), IM_COL32(240, 110, 90, 255));
  }
  const float rx =
      o.x + (static_cast<float>(right_ - h.lo) / static_cast<float>(h.bin_width) + 0.5f) * bw;
  dl->AddLine(ImVec2(std::min(rx, o.x + w - 2), o.y), ImVec2(std::min(rx, o.x + w - 2), o.y + ht),
              IM_COL32(90, 230, 120, 255), 3.f);
  ImGui::Dummy(ImVec2(w, ht));
  ImGui::TextColored(ui::kDim, "x: %lld .. %lld (bins of %.0f), y: runs", h.lo, h.hi, h.bin_width);
  ImGui::TextColored(atomic_ == right_ ? ui::kGood : ui::kBad, "atomicAdd per element: %lld (%s)",
                     atomic_, atomic_ == right_ ? "right" : "WRONG");
  ImGui::TextColored(warp_ == right_ ? ui::kGood : ui::kBad,
                     "warp shuffle + one atomic per warp: %lld (%s)", warp_,
                     warp_ == right_ ? "right" : "WRONG");
}

// Two threads' load / add / store in time order, and the counter after each.
void RaceView::draw_timeline() {
  ui::section("Two threads, one counter: x = x + 1");
  ImGui::SetNextItemWidth(220 * ui::layout_scale());
  ImGui::Combo("order", &order_, kOrderNames);
  const auto steps = insight::interleave_rmw(kOrders[order_], 5);
  const float s = ui::layout_scale(), cw = std::min(90 * s, ImGui::GetContentRegionAvail().x / 7.f),
              rh = ImGui::GetTextLineHeight() * 1.8f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const char* rows[] = {"thread 0", "thread 1", "counter"};
  for (int r = 0; r < 3; ++r)
    dl->AddText(ImVec2(o.x, o.y + r * rh + 4), ImGui::GetColorU32(ui::kDim), rows[r]);
  for (size_t i = 0; i < steps.size(); ++i) {
    const auto& st = steps[i];
    const float x = o.x + cw * (i + 1);
    const float y = o.y + st.thread * rh;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s %lld", insight::to_string(st.op), st.value);
    dl->AddRectFilled(ImVec2(x, y), ImVec2(x + cw - 4, y + rh - 4),
                      st.thread == 0 ? IM_COL32(70, 120, 220, 255) : IM_COL32(220, 140, 60, 255),
                      4.f);
    dl->AddText(ImVec2(x + 4, y + 4), IM_COL32(255, 255, 255, 255), buf);
    std::snprintf(buf, sizeof buf, "%lld", st.memory);
    dl->AddText(ImVec2(x + 4, o.y + 2 * rh + 4), IM_COL32(230, 230, 240, 255), buf);
  }
  ImGui::Dummy(ImVec2(cw * 7, rh * 3));
  const long long end = steps.back().memory;
  ImGui::TextColored(end == 7 ? ui::kGood : ui::kBad, "from 5, two increments end at %lld: %s", end,
                     end == 7 ? "right" : "one update lost");
}

}  // namespace cv::insight_ui

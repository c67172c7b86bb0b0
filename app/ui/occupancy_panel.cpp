#include "ui/occupancy_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "bench/bench.h"
#include "common/device_report.h"
#include "common/occupancy.h"
#include "ui/lab_panel.h"
#include "tuning/kernel_catalog.h"
#include "scenes/particle_scene.h"
#include "usercode/client/runner_client.h"
#include "usercode/client/user_kernel.h"

namespace cv {
namespace {

std::string limit_text(int blocks) {
  return blocks == kUnlimited ? std::string("no limit") : std::to_string(blocks) + " blocks";
}

void attributes_section(const tuning::KernelPick& k) {
  const KernelAttributes& a = k.attributes;
  ImGui::Text("kernel: %s", a.name.c_str());
  ImGui::TextColored(ui::kDim, "%s", k.context.c_str());
  if (!a.note.empty()) ImGui::TextColored(ui::kDim, "%s", a.note.c_str());
  ImGui::Text("registers / thread: %d", a.regs_per_thread);
  ui::tooltip("From cudaFuncGetAttributes (numRegs): what the compiler allocated for this build.");
  const long long dyn = a.dynamic_shared.bytes(k.block.threads());
  ImGui::Text("shared memory / block: %lld B static + %lld B dynamic", a.static_shared_bytes, dyn);
  ui::tooltip(
      "Static: __shared__ arrays in the kernel. Dynamic: the launch's third <<<>>> "
      "argument for this block shape.");
  ImGui::Text("local memory / thread: %lld B%s", a.local_bytes,
              a.local_bytes > 0 ? " (spills or stack)" : "");
  ImGui::Text("kernel's max threads / block: %d   (SASS sm_%d, PTX %d)", a.max_threads_per_block,
              a.binary_version, a.ptx_version);
}

KernelUsage usage_of(const tuning::KernelPick& k) {
  const KernelAttributes& a = k.attributes;
  KernelUsage use;
  use.regs_per_thread = a.regs_per_thread;
  use.static_shared = a.static_shared_bytes;
  use.dynamic_shared = a.dynamic_shared.bytes(static_cast<int>(k.block.threads()));
  use.max_threads_per_block = a.max_threads_per_block;
  return use;
}

void occupancy_bar(const Occupancy& o) {
  if (o.blocks_per_sm == 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::kBad);
    ImGui::TextWrapped("cannot launch: %s", o.refusal.c_str());
    ImGui::PopStyleColor();
  } else {
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%d of %d warps (%.0f%%)", o.active_warps, o.max_warps,
                  100.0 * o.occupancy);
    ImGui::ProgressBar(static_cast<float>(o.occupancy), ImVec2(-1, 0), overlay);
    ImGui::Text("%d blocks / SM, %d active warps / SM", o.blocks_per_sm, o.active_warps);
    ImGui::TextColored(ui::kWarn, "limited by %s", limiter_names(o.limiters).c_str());
  }
}

void limit_row(const Occupancy& o, const char* name, int blocks, unsigned bit,
               const char* because) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  const bool limiting = (o.limiters & bit) && o.blocks_per_sm > 0;
  if (limiting)
    ImGui::TextColored(ui::kWarn, "%s", name);
  else
    ImGui::TextUnformatted(name);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(limit_text(blocks).c_str());
  ImGui::TableNextColumn();
  ImGui::TextColored(ui::kDim, "%s", because);
}

void limits_table(const Occupancy& o, const OccupancyDevice& dev) {
  if (!ImGui::BeginTable("limits", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit))
    return;
  ImGui::TableSetupColumn("resource", ImGuiTableColumnFlags_WidthFixed, 150.f);
  ImGui::TableSetupColumn("allows", ImGuiTableColumnFlags_WidthFixed, 90.f);
  ImGui::TableSetupColumn("because", ImGuiTableColumnFlags_WidthFixed, 230.f);
  ImGui::TableHeadersRow();
  char why[128];
  std::snprintf(why, sizeof why, "%d warps per SM / %d a block", o.max_warps, o.warps_per_block);
  limit_row(o, "threads (warp slots)", o.by_warps, kLimitWarps, why);
  std::snprintf(why, sizeof why, "%d per SM / %lld a block", dev.regs_per_sm, o.regs_per_block);
  limit_row(o, "registers", o.by_registers, kLimitRegisters, why);
  std::snprintf(why, sizeof why, "%lld B per SM / %lld B a block", dev.shared_per_sm,
                o.shared_per_block);
  limit_row(o, "shared memory", o.by_shared, kLimitShared, why);
  std::snprintf(why, sizeof why, "at most %d resident blocks per SM", dev.max_blocks_per_sm);
  limit_row(o, "blocks per SM", o.by_blocks, kLimitBlocks, why);
  ImGui::EndTable();
}

void cross_check_line(const CudaAnswer& cross, const Occupancy& o) {
  if (cross.ok) {
    const bool agree = cross.value == o.blocks_per_sm;
    ImGui::TextColored(agree ? ui::kGood : ui::kBad,
                       "cudaOccupancyMaxActiveBlocksPerMultiprocessor: %d blocks (%s)", cross.value,
                       agree ? "agrees with the model" : "DIFFERS from the model");
  } else if (!cross.error.empty()) {
    ImGui::TextColored(ui::kBad, "%s", cross.error.c_str());
  }
}

void occupancy_section(const tuning::KernelPick& k, const CudaAnswer& cross) {
  const DeviceReport& d = device_report();
  const OccupancyDevice dev = to_occupancy_device(d);
  const int threads = static_cast<int>(k.block.threads());
  const Occupancy o = occupancy_model(dev, usage_of(k), threads);

  ui::section("Occupancy of this block shape");
  ImGui::Text("block %s = %d threads = %d warps", to_string(k.block).c_str(), threads,
              o.warps_per_block);
  occupancy_bar(o);
  limits_table(o, dev);
  cross_check_line(cross, o);
  ImGui::TextColored(ui::kDim, "x %d SMs = %d resident blocks on the device", d.sm_count,
                     o.blocks_per_sm * d.sm_count);
}

void cpu_backend_note() {
  ImGui::TextColored(ui::kWarn, "not applicable (CPU backend)");
  ImGui::PushStyleColor(ImGuiCol_Text, ui::kDim);
  ImGui::TextWrapped(
      "Registers, shared memory, warps and occupancy describe a kernel on a GPU's "
      "multiprocessors. The CPU backend runs the same per-element code on threads. %s",
      device_report().available ? "(--backend cpu was chosen; a CUDA device is present.)"
                                : device_report().unavailable_reason.c_str());
  ImGui::PopStyleColor();
}

}  // namespace

std::optional<tuning::KernelPick> OccupancyPanel::pick_lab_kernel(std::string& why) {
  const std::vector<std::string> labs = LabPanel::lab_names();
  if (labs.empty()) {
    why = "no labs in this build";
    return std::nullopt;
  }
  lab_ = std::clamp(lab_, 0, static_cast<int>(labs.size()) - 1);
  std::string items;
  for (const auto& n : labs) items += n + '\0';
  if (ImGui::Combo("lab", &lab_, items.c_str())) variant_ = 0;
  const bench::Target* t = bench::find_target(labs[lab_]);
  std::string vitems;
  for (const auto& v : t->variants) vitems += v + '\0';
  variant_ = std::clamp(variant_, 0, static_cast<int>(t->variants.size()) - 1);
  ImGui::Combo("variant", &variant_, vitems.c_str());
  ImGui::SetNextItemWidth(120);
  ImGui::InputInt("block x", &lab_block_x_);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(120);
  ImGui::InputInt("block y", &lab_block_y_);
  lab_block_x_ = std::clamp(lab_block_x_, 1, 1024);
  lab_block_y_ = std::clamp(lab_block_y_, 1, 1024);
  ui::tooltip("The shape to evaluate; run it from the labs window or `cudaviz bench --block`.");
  return tuning::lab_kernel(t->name, t->variants[variant_],
                            BlockShape{lab_block_x_, lab_block_y_, 1}, &why);
}

std::optional<tuning::KernelPick> OccupancyPanel::pick_kernel(ParticleScene& scene,
                                                              std::string& why) {
  ImGui::RadioButton("scene kernel", &source_, 0);
  ImGui::SameLine();
  ImGui::RadioButton("lab kernel", &source_, 1);
  if (source_ != 0) return pick_lab_kernel(why);
  std::optional<tuning::KernelPick> pick = tuning::scene_kernel(scene);
  if (!pick) why = std::string("the ") + scene.name() + " scene has no kernel of ours";
  return pick;
}

void OccupancyPanel::suggest(const tuning::KernelPick& pick, ParticleScene& scene, SceneUi& sui) {
  const CudaAnswer s = cuda_suggest_block_threads(pick.attributes);
  if (!s.ok) {
    message_ = s.error;
    return;
  }
  const BlockShape b = shape_for_threads(s.value, pick.two_dimensional);
  message_ = "cudaOccupancyMaxPotentialBlockSize: " + std::to_string(s.value) + " threads -> " +
             to_string(b);
  if (source_ == 0) {
    if (auto err = scene.set_block(b)) {
      message_ += "; refused: " + *err;
    } else {
      sui.block_x = b.x;
      sui.block_y = b.y;
      sui.block_message.clear();
      message_ += ", applied";
    }
  } else {
    lab_block_x_ = b.x;
    lab_block_y_ = b.y;
    message_ += " (set here; use it in the labs window)";
  }
}

void OccupancyPanel::suggestion_section(const tuning::KernelPick& pick, ParticleScene& scene,
                                        SceneUi& sui) {
  ui::section("Suggestion");
  if (ImGui::Button("suggest")) suggest(pick, scene, sui);
  ui::tooltip(
      "Asks the CUDA runtime for the block size with the highest occupancy for this kernel "
      "(its registers and shared memory per block size). Highest occupancy is not always "
      "fastest: compare with a sweep.");
  if (!message_.empty()) ImGui::TextWrapped("%s", message_.c_str());
}

void OccupancyPanel::draw(ParticleScene& scene, SceneUi& sui, ui::Layout& layout) {
  if (!window_.begin(layout, "occupancy")) return;  // its tab in the tool area
  if (backend_ == Backend::Cpu || !device_report().available) {
    cpu_backend_note();
    layout.end_tool();
    return;
  }
  std::string why;
  const std::optional<tuning::KernelPick> pick = pick_kernel(scene, why);
  if (!pick) {
    ImGui::TextColored(ui::kDim, "%s", why.c_str());
    layout.end_tool();
    return;
  }
  if (!pick->attributes.ok) {
    ImGui::TextColored(ui::kBad, "%s", pick->attributes.error.c_str());
    layout.end_tool();
    return;
  }
  // The runtime's answer changes only with the kernel and the block size.
  const int threads = static_cast<int>(pick->block.threads());
  const std::string key = pick->attributes.name + "|" + std::to_string(threads);
  if (key != cross_key_) {
    cross_ = cuda_active_blocks_per_sm(pick->attributes, threads);
    bool busy = false;
    // The student's kernel lives in the runner: its occupancy call answers there.
    if (usercode::UserKernel* uk = user_kernel_running(scene))
      if (usercode::RunnerClient* rc = uk->runner()) {
        const usercode::OccupancyReply r = rc->occupancy(pick->block, uk->options().time_limit_s, uk->module());
        cross_ = CudaAnswer{r.ok, r.blocks_per_sm, r.ok ? "" : "cuOccupancyMaxActiveBlocksPerMultiprocessor: " + r.error};
        busy = r.busy;
      }
    if (!busy) cross_key_ = key;  // busy: a lab run holds the runner, asked again next frame
  }
  attributes_section(*pick);
  occupancy_section(*pick, cross_);
  suggestion_section(*pick, scene, sui);
  layout.end_tool();
}

}  // namespace cv

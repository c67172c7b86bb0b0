#include "ui/notes_text.h"

#include <imgui.h>

namespace cv::notes {

const char* scene_notice(SceneKind kind) { return scene_info(kind).notice; }

const char* lab_notice(const std::string& lab) {
  if (lab == "pi")
    return "Four GPU designs from the notes, from one thread per block to many samples per thread "
           "with a shared-memory sum per block. One thread per block wastes 31 of 32 warp lanes "
           "and launches millions of blocks; one flag per sample spends more time writing flags "
           "than drawing points. Doing many samples per thread and one atomic per block turns "
           "the job from launch- and memory-bound into arithmetic-bound: compare samples/s "
           "across the rows.";
  if (lab == "sum3")
    return "3SUM on a 2D grid: thread (i, j) loops over k. Only threads with i < j do work, so "
           "the lower triangle of the grid idles (the picture below shows it). The naive kernel "
           "does an atomicAdd for every hit on one global counter; hoisting the two fixed values "
           "into registers saves loads; a shared-memory count per block leaves one atomic per "
           "block. 'seed table' reruns the notes' table (n = 800..2000). Beyond brute force, "
           "sorting makes it O(n^2): the algorithm beats any launch tuning.";
  if (lab == "count3")
    return "The racy variant does count++ on one global from every thread. The increment is a "
           "read, an add and a write; two threads that read the same old value both write old+1 "
           "and one hit is lost. The answer is wrong, and wrong by a different amount each run. "
           "atomicAdd fixes it but serializes every hit on one address; a per-block tree in "
           "shared memory or warp shuffles add up locally first and need one atomic per block "
           "or warp. Compare with CUB, the reference.";
  if (lab == "reduce")
    return "Summing an array reads every byte once and does almost no arithmetic, so the only "
           "figure that matters is GB/s against the device's memory bandwidth. The multi-pass "
           "tree relaunches the kernel per level; shared-memory trees and warp shuffles finish "
           "in one pass; wide 16-byte loads and a grid-stride loop get close to CUB.";
  if (lab == "reverse")
    return "Coalescing: the naive kernel's warps read 32 neighbouring elements but write them "
           "mirrored; the shared variant stages a tile in shared memory so both the global "
           "reads and writes run forwards and contiguously. The notes' profiler showed 125,056 "
           "incoherent loads for the naive kernel and none for the staged one, and 2.6x less "
           "time. 'copy' is the yardstick: the same bytes moved without reversing.";
  if (lab == "corelated")
    return "Pairs of rows sharing more than a threshold of ids. The launch shape decides who "
           "does what: a 2D grid of blocks with a thread per id (the notes' experiment), one "
           "thread per pair in 1D over the upper triangle, or a 2D grid of pairs where the "
           "lower triangle idles. Counting hits with an atomic per hit contends on one counter; "
           "a shared-memory count per block with one atomic per pair was faster in the notes "
           "(0.66 s against 0.87 s for 1k rows).";
  return "";
}

void draw_notice(const char* text, const char* id) {
  if (!text || !*text) return;
  ImGui::PushID(id);
  if (ImGui::CollapsingHeader("what to notice")) {
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
  }
  ImGui::PopID();
}

}  // namespace cv::notes

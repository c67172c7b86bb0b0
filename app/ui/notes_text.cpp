#include "ui/notes_text.h"

#include <imgui.h>

namespace cv::notes {

const char* scene_notice(SceneKind kind) {
  switch (kind) {
    case SceneKind::Fountain:
      return "Every particle is one GPU thread, and every frame the kernel writes its new position "
             "straight into the vertex buffer that GL draws: no copy through the CPU.\n\n"
             "Block shape: the particles form a 2D grid and each block covers a tile of it. "
             "Neighbouring threads of a warp (the 32 threads that run in lockstep) should touch "
             "neighbouring particles, so that a warp's loads merge into a few wide memory "
             "transactions (coalescing). Try 256x1 against 1x256: same thread count, but with "
             "1x256 a warp's 32 threads sit in 32 different rows, far apart in memory. Try 1x1: "
             "one thread per block leaves 31 of every warp's 32 lanes idle, which is why the "
             "seed's table drops from 75 fps to 49.\n\n"
             "Variants: lean moves 40 bytes per particle and step, seed 80. The kernel is "
             "memory-bound, so halving the bytes nearly halves the kernel time.";
    case SceneKind::Swarm:
      return "The same 2D launch as the fountain, but every particle reads one shared value, the "
             "target: a uniform read that the whole warp shares for free.\n\n"
             "Divergence: when a particle's age runs out it respawns, taking the other branch. "
             "Threads of one warp that disagree on a branch run both paths one after the other "
             "with half the lanes masked, so a frame where many particles respawn at different "
             "times costs more than the work suggests.\n\n"
             "Switch the target to the mouse and watch a few million threads steer at once.";
    case SceneKind::NBody:
      return "All pairs: N bodies need N^2 interactions per step, 20 floating-point operations "
             "each, so this is the scene where the GPU's arithmetic shows (GFLOP/s in the timing "
             "panel).\n\n"
             "seed reads every other body from global memory; tiled has a block load a tile of "
             "bodies into shared memory once and every thread reuse it, cutting global traffic "
             "by the block size. fast gives each thread several bodies so each shared-memory "
             "load feeds more arithmetic.\n\n"
             "Softening (eps) keeps the force finite when two bodies nearly collide; too small "
             "and close passes fling bodies out. The time step dt trades speed for accuracy: "
             "raise it and watch the energy drift grow. Block size: a multiple of 32 fills whole "
             "warps; larger tiles reuse more but leave fewer blocks per SM (occupancy).";
    case SceneKind::Pi:
      return "Monte-Carlo pi: a point of the unit square lands inside the quarter circle with "
             "probability pi/4, so pi ~ 4 x inside / total. Each GPU thread draws its own points "
             "from its own random stream (no two threads may share one).\n\n"
             "The error shrinks only as 1/sqrt(n): a hundred times more points for one more "
             "correct digit, which is why this job wants thousands of threads. Counting the hits "
             "is a reduction: many threads adding into one total, which is where races come in "
             "(see the count3 lab).";
  }
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

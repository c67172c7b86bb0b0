#pragma once
// Who touched what (the GPU Puzzles picture, for the student's own CUDA): the
// chosen block's threads down, each buffer's elements across; a cell is
// coloured by what the thread did to the element (read, write, both, atomic).
#include "usercode/emu/explain_types.h"

namespace cv::insight_ui {

void draw_touches(const emu::Explain& x);

}  // namespace cv::insight_ui

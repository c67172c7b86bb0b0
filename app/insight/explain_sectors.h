#pragma once
// Explain's coalescing pictures in the memory view's style: one warp-wide
// request of the student's kernel as its 128-byte lines, each of 4 sectors,
// fetched sectors filled and each lane's bytes in its lane colour.
#include "usercode/emu/explain_types.h"

namespace cv::insight_ui {

void draw_explain_request(const emu::WarpRequest& r, int index);
// The per-line table: line, buffer, load/store, requests, sectors per request, efficiency.
void draw_sector_table(const emu::Explain& x);

}  // namespace cv::insight_ui

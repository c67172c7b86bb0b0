#pragma once
// Who touched what (the GPU Puzzles picture, for the student's own CUDA): the
// chosen block's threads down, each buffer's elements across; a cell is
// coloured by what the thread did to the element (read, write, both, atomic).
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "usercode/emu/explain_types.h"

namespace cv::insight_ui {

// The picture's cells, built once per result (not every frame).
struct TouchGrid {
  struct Buffer {
    std::string name;
    bool shared = false;
    long long lo = 0, hi = 0;  // the elements touched
    std::map<std::pair<unsigned, long long>, unsigned> cells;  // (thread, element) -> 1 read | 2 write | 4 atomic
  };
  std::vector<Buffer> buffers;
  unsigned threads = 0;
};
TouchGrid touch_grid(const emu::Explain& x);
void draw_touches(const TouchGrid& g);

}  // namespace cv::insight_ui

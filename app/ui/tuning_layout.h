#pragma once
// A tab of the tool area (ui/layout.h): the tuning windows, the labs and the
// classroom panel each hold one. A request to open it (--panel, --lab, a
// sweep starting, a preset) waits for the next draw, where the layout opens
// it and closes the tab that was open.
#include "ui/layout.h"

namespace cv::ui {

class ToolTab {
 public:
  explicit ToolTab(Tool tool) : tool_(tool_name(tool)) {}
  void expand() { expand_ = true; }
  // Begins the tool's window when it is the open tab; false: draw nothing
  // (and no End). Otherwise end with layout.end_tool().
  bool begin(Layout& layout, const char* title) {
    if (expand_) layout.open(tool_);
    expand_ = false;
    return layout.begin_tool(tool_, title);
  }

 private:
  const char* tool_;
  bool expand_ = false;
};

}  // namespace cv::ui

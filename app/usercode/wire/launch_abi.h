#pragma once
// The launch every student kernel goes through, on either backend: a shape
// and, for each cv::Span argument, the memory it names. The GPU executor
// hands the buffers to the guard's table; the CPU executor to the emulator.
#include <string>

namespace cv::usercode {

struct LaunchShape {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned dynamic_shared_bytes = 0;  // extern __shared__ size
};

// One cv::Span argument as an executor sees it.
struct BufferView {
  void* data = nullptr;
  unsigned long long bytes = 0;
  unsigned elem_bytes = 1;
  std::string name;       // the parameter's name ("out", "count")
  bool writable = true;   // false for cv::Span<const T>
};

}  // namespace cv::usercode

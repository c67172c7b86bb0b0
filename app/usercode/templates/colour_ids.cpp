#include "usercode/templates/colour_ids.h"

#include <cstring>

namespace cv::usercode {

SpanSpec colour_ids_span() {
  SpanSpec ids;
  ids.elem_type = "unsigned";
  ids.param_type = "cv::Ids";
  ids.elem_bytes = sizeof(unsigned);
  ids.access = Access::Write;
  ids.size_text = "n while a colour-by view is on, else 0";
  ids.size = [](const Workload& w) { return w.value("colour_by") ? static_cast<unsigned long long>(w.n) : 0ull; };
  ids.source = SpanArg::From::Shared;
  ids.tail = [](const Workload& w) {
    const int mode = static_cast<int>(w.value("colour_by"));
    std::vector<char> b(8, 0);  // int mode, padded to the struct's 8-byte alignment
    std::memcpy(b.data(), &mode, sizeof mode);
    return b;
  };
  return ids;
}

}  // namespace cv::usercode

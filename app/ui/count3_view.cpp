// The count3 lab's extra: why the racy kernel's count is wrong.
#include <string>

#include "ui/lab_views.h"

namespace cv::labs {

const char* count3_note(const std::string& variant) {
  if (variant.find("racy") == std::string::npos) return "";
  return "race: every thread does count = count + 1 as a separate load, add and store, so threads "
         "that "
         "read the same old value overwrite each other's increments and most hits are lost "
         "(atomicAdd makes the three one indivisible step).";
}

}  // namespace cv::labs

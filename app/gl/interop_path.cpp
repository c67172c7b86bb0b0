#include "gl/interop_path.h"

#include <sstream>
#include <stdexcept>

namespace cv {

InteropChoice choose_interop_path(InteropPath start, const std::string& external_error,
                                  const std::string& map_error) {
  InteropChoice c;
  auto skip = [&c](const std::string& why) { c.reason += (c.reason.empty() ? "" : "; ") + why; };
  if (start == InteropPath::External) {
    if (external_error.empty()) return {InteropPath::External, ""};
    skip("external memory: " + external_error);
  }
  if (start != InteropPath::Copy) {
    if (map_error.empty()) return {InteropPath::Map, c.reason};
    skip("map: " + map_error);
  } else {
    skip("copy path forced");
  }
  c.path = InteropPath::Copy;
  return c;
}

}  // namespace cv

#include "config/interop_setting.h"

#include <sstream>
#include <stdexcept>

namespace cv {

const char* to_string(InteropPath p) {
  switch (p) {
    case InteropPath::External:
      return "external";
    case InteropPath::Map:
      return "map";
    default:
      return "copy";
  }
}

InteropConfig parse_interop_config(const char* interop, const char* force_copy) {
  InteropConfig c;
  std::stringstream words(interop ? interop : "");
  std::string w;
  while (std::getline(words, w, ',')) {
    if (w == "external")
      c.start = InteropPath::External;
    else if (w == "map")
      c.start = InteropPath::Map;
    else if (w == "copy")
      c.start = InteropPath::Copy;
    else if (w == "single")
      c.single = true;
    else if (w == "double")
      c.single = false;
    else
      throw std::invalid_argument("CUDAVIZ_INTEROP: '" + w +
                                  "' is not one of external, map, copy, single, double");
  }
  if (force_copy && *force_copy && *force_copy != '0') c.start = InteropPath::Copy;
  return c;
}

}  // namespace cv

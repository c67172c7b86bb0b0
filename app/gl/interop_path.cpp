#include "gl/interop_path.h"

#include <cstdlib>
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

InteropConfig interop_config_from_env() {
  return parse_interop_config(std::getenv("CUDAVIZ_INTEROP"), std::getenv("CUDAVIZ_FORCE_COPY"));
}

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

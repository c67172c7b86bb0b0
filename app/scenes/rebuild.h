#pragma once
// The one rebuild behind every scene's reconfigure() (a new count, variant or
// initial condition): build the new parts aside, swap them in, start them; on
// any failure the scene is left as it was and the caller gets the reason.
//  1. build():   the new parts (vertex target, simulation), aside. If it
//                throws, nothing has changed.
//  2. swap():    exchanges the built parts with the scene's (running it twice
//                puts them back), then apply() sets the new settings.
//  3. start():   the first use of the new parts (reset()). If it throws,
//                swap() runs again and restore() puts the settings back.
// Reasons: "not enough host memory for WHAT" (std::bad_alloc), else "cannot
// set up WHAT: " and the exception's message (a CUDA error is also cleared, so
// an out-of-memory error does not stick to later calls).
#include <functional>
#include <optional>
#include <string>
#include <tuple>

namespace cv {

struct RebuildSteps {
  std::function<void()> build, swap, apply, start, restore;
};
std::optional<std::string> run_rebuild(const std::string& what, const RebuildSteps& steps);

// Copies of `values` now; calling the result puts them back (restore()).
template <typename... T>
std::function<void()> keep(T&... values) {
  return [refs = std::tie(values...), saved = std::make_tuple(values...)]() mutable {
    refs = saved;
  };
}

}  // namespace cv

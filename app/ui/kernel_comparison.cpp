#include "ui/kernel_comparison.h"

#include <imgui.h>

#include "widgets/widgets.h"

namespace cv {
namespace {

bench::Spread spread_of(const History& h) {
  const std::vector<float> v = h.values();
  return bench::spread_of(std::vector<double>(v.begin(), v.end()));
}

}  // namespace

void KernelComparison::follow(const std::string& text, const std::string& target, bool guard, bool gpu) {
  gpu_ = gpu;
  if (text != text_ || target != target_) {
    yours_.clear();
    text_ = text;
    target_ = target;
    traits_ = bench::classify_kernel(text);
  }
  guard_ = guard;
}

void KernelComparison::yours_step(float ms) {
  if (ms > 0) yours_.try_emplace(guard_, kSteps).first->second.push(ms);
}

void KernelComparison::builtin_step(const std::string& variant, float ms) {
  if (ms > 0) builtin_.try_emplace(variant, kSteps).first->second.push(ms);
}

const History* KernelComparison::yours_now() const {
  auto it = yours_.find(guard_);
  return it == yours_.end() || it->second.values().empty() ? nullptr : &it->second;
}

bench::Spread KernelComparison::yours_spread() const {
  const History* h = yours_now();
  return h ? spread_of(*h) : bench::Spread{};
}

std::vector<std::string> KernelComparison::lines() const {
  std::vector<std::string> out;
  const History* yours = yours_now();
  if (!yours) {
    out.push_back("yours vs built-in: shows once yours steps the scene its template feeds");
    return out;
  }
  const bench::Spread s = spread_of(*yours);
  out.push_back("yours: " + bench::spread_words(s, "steps") + " a step");
  std::vector<bench::BuiltinTime> timed;
  for (const auto& [variant, h] : builtin_)
    if (h.median() > 0) timed.push_back({variant.empty() ? "kernel" : variant, h.median()});
  // Named against every built-in of the scene, timed or not: the scene's variant
  // picker decides which were timed.
  std::vector<std::string> all;
  for (const bench::BuiltinAlgorithm& b : bench::builtin_algorithms(target_)) all.push_back(b.variant);
  const bench::AlgorithmMatch m = bench::match_builtin(target_, traits_, all);
  const bench::BuiltinTime* same = nullptr;
  const bench::BuiltinTime* fastest = nullptr;
  for (const bench::BuiltinTime& b : timed) {
    if (m.variant && b.variant == *m.variant) same = &b;
    if (!fastest || b.median_ms < fastest->median_ms) fastest = &b;
  }
  if (same)
    out.push_back("yours is " + bench::speed_words(s.median_ms, same->median_ms, same->variant) + " (same algorithm)");
  else if (m.variant && !gpu_)
    out.push_back("the same algorithm's built-in is the GPU's " + *m.variant +
                  "; on the CPU backend the built-in is the CPU twin");
  else if (m.variant)
    out.push_back("the same algorithm's built-in is " + *m.variant + ": pick it as the scene's variant (Built-in "
                  "button, then the variant) to time it here");
  else
    out.push_back(m.why);
  if (fastest && fastest != same)
    out.push_back("yours is " + bench::speed_words(s.median_ms, fastest->median_ms, fastest->variant) +
                  " (fastest built-in timed here)");
  if (timed.empty()) out.push_back("no built-in timed yet: press Built-in to time the scene's own kernel");
  auto on = yours_.find(true), off = yours_.find(false);
  if (on != yours_.end() && off != yours_.end())
    if (auto p = bench::guard_percent(on->second.median(), off->second.median()))
      out.push_back(bench::guard_words(*p) + " (this text's steps with the guard on and off)");
  return out;
}

void KernelComparison::draw() const {
  const std::vector<std::string> l = lines();
  for (size_t i = 0; i < l.size(); ++i) ui::wrapped(i == 0 ? ImGui::GetStyleColorVec4(ImGuiCol_Text) : ui::kDim, l[i]);
  ui::tooltip("Medians (and your spread) of the last steps of each, on this backend, in the scene the template "
              "feeds. The same algorithm's built-in is told from your source (shared memory, tile loops, "
              "trees, shuffles, atomics, grid-stride loops); `cudaviz bench kernel` says the same in its JSON.");
}

}  // namespace cv

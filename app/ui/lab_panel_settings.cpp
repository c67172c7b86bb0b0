// LabPanel's preset side: its fields as LabSettings and back.
#include <algorithm>
#include <cstdio>

#include "bench/bench.h"
#include "ui/kernel_source.h"
#include "ui/lab_panel.h"
#include "usercode/client/user_kernel.h"

namespace cv {

LabSettings LabPanel::settings() const {
  LabSettings s;
  const std::vector<std::string> names = lab_names();
  if (names.empty()) return s;
  s.lab = names[std::min<size_t>(lab_, names.size() - 1)];
  const bench::Target* t = bench::find_target(s.lab);
  if (variant_ > 0 && t && static_cast<size_t>(variant_) <= t->variants.size())
    s.variant = t->variants[variant_ - 1];
  if (*n_text_) {
    try {
      s.n = parse_integer(n_text_, "n", 1, 1ll << 50);
    } catch (const std::exception&) {
      // Half-typed text is not a setting: the default is saved.
    }
  }
  if (!default_block_) s.block = BlockShape{block_x_, block_y_, 1};
  s.input = input_;
  s.reps = reps_;
  s.cpu_backend = use_cpu_;
  s.open = !collapsed_;
  return s;
}

std::optional<std::string> LabPanel::apply_settings(const LabSettings& s) {
  if (worker_.running()) return std::string("a lab is running; cancel it first");
  const std::vector<std::string> names = lab_names();
  const auto it = std::find(names.begin(), names.end(), s.lab);
  if (it == names.end()) return "'" + s.lab + "' is not a lab";
  const bench::Target* t = bench::find_target(s.lab);
  int variant = 0;
  if (s.variant != "all") {
    const auto v = std::find(t->variants.begin(), t->variants.end(), s.variant);
    if (v == t->variants.end()) return "'" + s.variant + "' is not a variant of " + s.lab;
    variant = static_cast<int>(v - t->variants.begin()) + 1;
  }
  if (s.input.size() >= sizeof input_)
    return "input path is longer than " + std::to_string(sizeof input_ - 1) + " characters";
  if (s.block && (s.block->x < 1 || s.block->x > 1024 || s.block->y < 1 || s.block->y > 1024))
    return "block " + to_string(*s.block) + " is outside 1..1024 a side";
  lab_ = static_cast<int>(it - names.begin());
  variant_ = variant;
  if (s.n)
    std::snprintf(n_text_, sizeof n_text_, "%lld", *s.n);
  else
    n_text_[0] = '\0';
  default_block_ = !s.block;
  if (s.block) {
    block_x_ = s.block->x;
    block_y_ = s.block->y;
  }
  std::snprintf(input_, sizeof input_, "%s", s.input.c_str());
  reps_ = s.reps;
  use_cpu_ = s.cpu_backend && backend_ == Backend::Cuda;
  expand_ = s.open;
  collapse_ = !s.open;
  message_.clear();
  return std::nullopt;
}

void LabPanel::add_kernel_source(BenchOptions& o) const {
  if (!kernel_source_) return;
  o.source_text = kernel_source_->text();
  o.source = kernel_source_->file_name();
  o.paths = paths_;
  if (user_kernel_) o.runner = user_kernel_->shared_runner();
}

std::optional<std::string> LabPanel::unavailable(const bench::LabAction& a, const std::string& lab) const {
  if (!a.unavailable) return std::nullopt;
  BenchOptions f;  // what an action's check reads: the lab, the input, the kernel tab
  f.target = lab;
  if (*input_) f.input = std::string(input_);
  add_kernel_source(f);
  return a.unavailable(f, run_backend());
}

std::vector<std::pair<std::string, std::string>> LabPanel::refused_actions() const {
  std::vector<std::pair<std::string, std::string>> out;
  const std::vector<std::string> names = lab_names();
  if (names.empty()) return out;
  const std::string& lab = names[std::min<size_t>(lab_, names.size() - 1)];
  for (const bench::LabAction& a : bench::find_target(lab)->lab.actions)
    if (auto why = unavailable(a, lab)) out.push_back({a.name, *why});
  return out;
}

std::optional<std::string> LabPanel::run_now() {
  auto o = options_from_fields();
  if (!o) return message_;
  running_lab_ = o->target;
  start({*o}, "");
  if (!message_.empty()) return message_;
  return std::nullopt;
}

std::optional<std::string> LabPanel::run_action(const std::string& action) {
  auto o = options_from_fields();
  if (!o) return message_;
  const bench::LabAction* a = bench::find_target(o->target)->lab.action(action);
  if (!a) return "'" + action + "' is not an action of " + o->target;
  if (auto why = unavailable(*a, o->target)) return *why;
  running_lab_ = o->target;
  start(a->jobs(*o, use_cpu_ ? Backend::Cpu : backend_), action);
  if (!message_.empty()) return message_;
  return std::nullopt;
}

}  // namespace cv

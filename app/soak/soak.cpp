#include "soak/soak.h"

#include <malloc.h>

#include <algorithm>
#include <cstdio>

#include "soak/memory_sample.h"

namespace cv {
namespace {

// The count slider's path: the scene's rebuild hook, variant and choices kept.
std::optional<std::string> set_count(ParticleScene& s, unsigned n) {
  RebuildRequest r;
  r.count = n;
  bool rebuilt = false;
  return s.rebuild_for(r, &rebuilt);
}

nlohmann::ordered_json bytes_or_null(const std::optional<uint64_t>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

}  // namespace

std::optional<double> growth_percent(const std::vector<MemorySample>& samples, size_t warmup,
                                     bool gpu) {
  if (samples.size() < warmup + 2) return std::nullopt;
  const auto& base = gpu ? samples[warmup].gpu : samples[warmup].host;
  const auto& last = gpu ? samples.back().gpu : samples.back().host;
  if (!base || !last || *base == 0) return std::nullopt;
  return (static_cast<double>(*last) - static_cast<double>(*base)) * 100.0 /
         static_cast<double>(*base);
}

SoakRun::SoakRun(long long frames, Backend backend) : backend_(backend), frames_(frames) {
  // Two counts a scene (its descriptor's soak counts), small enough for the
  // CPU backend (n-body is O(N^2) a step there); the GPU run uses larger ones
  // so its buffers are not trivial. Every registered scene takes part.
  const bool gpu = backend == Backend::Cuda;
  for (const SceneDescriptor& d : scene_infos()) {
    const unsigned* counts = gpu ? d.soak_gpu : d.soak_cpu;
    for (int i = 0; i < 2; ++i) phases_.push_back({d.kind, counts[i]});
  }
  // A few hundred frames a phase on long runs; at least ten cycles on short ones.
  const long long cycle_len = static_cast<long long>(phases_.size());
  frames_per_phase_ = std::clamp(frames_ / (10 * cycle_len), 10ll, 300ll);
}

size_t SoakRun::warmup_samples() const {
  // The first cycles build every scene and let the allocators settle.
  return std::max<size_t>(1, samples_.size() / 5);
}

void SoakRun::sample(long long frame) {
  MemorySample s;
  s.frame = frame;
  // Hand freed heap pages back first, so RSS counts live memory rather than
  // what the allocator keeps cached after the last count change.
  malloc_trim(0);
  s.host = host_rss_bytes();
  try {
    s.gpu = gpu_used_bytes(backend_);
  } catch (const std::exception& e) {
    errors_.push_back(std::string("memory sample: ") + e.what());
  }
  samples_.push_back(s);
}

void SoakRun::collect_error(SceneSet& scenes, UiState& ui) {
  // A stopped scene (failed step) or a refused switch: record it and go on
  // with the schedule, as a user would after reading the message.
  if (!ui.stats.error_message.empty()) {
    errors_.push_back(std::string(scene_info(scenes.current_kind()).name) + ": " +
                      ui.stats.error_message);
    ui.stats.error_message.clear();
    ui.settings.paused = false;
  }
  if (!ui.stats.scene_message.empty()) {
    errors_.push_back(ui.stats.scene_message);
    ui.stats.scene_message.clear();
  }
}

void SoakRun::before_frame(long long frame, SceneSet& scenes, UiState& ui) {
  const long long phase = frame / frames_per_phase_;
  if (phase != phase_) {
    collect_error(scenes, ui);
    const size_t n = phases_.size();
    if (phase > 0 && phase % static_cast<long long>(n) == 0) {
      ++cycles_;
      sample(frame);
    }
    phase_ = phase;
    const Phase& p = phases_[static_cast<size_t>(phase) % n];
    if (scenes.current_kind() != p.kind) {
      ui.requests.scene = p.kind;  // the menu's path; the app switches this frame
      ++switches_;
    }
    count_pending_ = true;
  }
  if (count_pending_) {
    const Phase& p = phases_[static_cast<size_t>(phase_) % phases_.size()];
    if (scenes.current_kind() != p.kind) return;  // the switch happens later this frame
    count_pending_ = false;
    SceneSlot& slot = scenes.current();
    if (slot.scene->count() != p.count) {
      ++recounts_;
      if (auto err = set_count(*slot.scene, p.count))
        errors_.push_back(std::string(scene_info(p.kind).name) + " count " +
                          std::to_string(p.count) + ": " + *err);
      slot.ui.sync_from(*slot.scene);
    }
  }
}

void SoakRun::finish(long long frames_done, SceneSet& scenes, UiState& ui) {
  collect_error(scenes, ui);
  sample(frames_done);
  // Steps since each scene's last count change: > 0 means it ran in its last phase.
  for (const SceneDescriptor& info : scene_infos())
    if (scenes.built(info.kind)) steps_[info.name] = scenes.slot(info.kind).scene->steps();
}

nlohmann::ordered_json SoakRun::summary() const {
  nlohmann::ordered_json j;
  j["frames"] = frames_;
  j["frames_per_phase"] = frames_per_phase_;
  j["cycles"] = cycles_;
  j["scene_switches"] = switches_;
  j["count_changes"] = recounts_;
  j["steps_since_reset"] = steps_;
  j["samples"] = samples_.size();
  const size_t w = std::min(warmup_samples(), samples_.empty() ? 0 : samples_.size() - 1);
  j["warmup_samples"] = w;
  for (const char* what : {"host_rss", "gpu_used"}) {
    const bool gpu = what[0] == 'g';
    auto get = [&](const MemorySample& s) { return gpu ? s.gpu : s.host; };
    nlohmann::ordered_json m;
    if (!samples_.empty()) {
      m["first"] = bytes_or_null(get(samples_.front()));
      m["after_warmup"] = bytes_or_null(get(samples_[w]));
      m["last"] = bytes_or_null(get(samples_.back()));
      std::optional<uint64_t> mx;
      for (const auto& s : samples_)
        if (get(s)) mx = std::max(mx.value_or(0), *get(s));
      m["max"] = bytes_or_null(mx);
    }
    const auto g = growth_percent(samples_, w, gpu);
    m["growth_pct"] = g ? nlohmann::ordered_json(*g) : nlohmann::ordered_json(nullptr);
    j[what] = m;
  }
  nlohmann::ordered_json all = nlohmann::ordered_json::array();  // [frame, host, gpu]
  for (const auto& s : samples_)
    all.push_back({s.frame, bytes_or_null(s.host), bytes_or_null(s.gpu)});
  j["series"] = all;
  j["max_growth_pct"] = kMaxGrowthPercent;
  j["errors"] = errors_;
  j["passed"] = passed();
  return j;
}

bool SoakRun::passed() const {
  if (!errors_.empty() || cycles_ < 2) return false;
  const size_t w = std::min(warmup_samples(), samples_.size() - 1);
  const auto host = growth_percent(samples_, w, false);
  if (!host || *host >= kMaxGrowthPercent) return false;
  if (backend_ == Backend::Cuda) {
    const auto gpu = growth_percent(samples_, w, true);
    if (!gpu || *gpu >= kMaxGrowthPercent) return false;
  }
  return true;
}

}  // namespace cv

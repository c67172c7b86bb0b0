#include "presets/preset_apply.h"

#include <cuda_runtime_api.h>

#include <cmath>

#include "insight/launch_model.h"
#include "ui/lab_panel.h"
#include "usercode/client/user_kernel.h"
#include "presets/knobs.h"
#include "scenes/scene_memory.h"
#include "scenes/scene_set.h"
#include "ui/panels.h"
#include "ui/presentation.h"

namespace cv::presets {
namespace {

Scene capture_scene(SceneSlot& slot, SceneKind kind) {
  ParticleScene& scene = *slot.scene;
  Scene s;
  s.count = scene.count();
  s.block = scene.block();
  if (const std::string v = scene.variant_name(); !v.empty()) s.variant = v;
  s.choices = choices_of(scene);
  for (const Knob& k : knobs_of(scene, kind)) {
    if (auto* f = std::get_if<float*>(&k.ptr)) s.params[k.key] = **f;
    if (auto* i = std::get_if<int*>(&k.ptr)) s.params[k.key] = **i;
    if (auto* b = std::get_if<bool*>(&k.ptr)) s.params[k.key] = **b ? 1.0 : 0.0;
  }
  // A framing camera saves its direction only: loaded on another screen, the
  // content is framed again into that window's free space.
  const OrbitCamera& c = slot.camera;
  s.camera = c.framing() ? Camera{std::nullopt, std::nullopt, c.yaw, c.pitch}
                         : Camera{c.target, c.distance, c.yaw, c.pitch};
  return s;
}

// Where a scene's problems go: "<path>.<key>: <why>" in the report.
struct SceneErrors {
  const Scene& s;
  const std::string& path;
  Report& report;
  void fail(const std::string& key, const std::string& why) const {
    report.invalid.push_back(path + "." + key + ": " + why);
  }
};

// A count this GPU's free memory cannot hold is scaled down, with a note.
unsigned fitted_count(const Scene& s, ParticleScene& scene, SceneKind kind, const std::string& path,
                      Report& report) {
  unsigned count = s.count ? static_cast<unsigned>(*s.count) : scene.count();
  if (auto fit =
          s.count ? check_scene_memory(kind, scene.backend(), count, s.variant) : std::nullopt;
      fit && !fit->fits && fit->max_count > 0) {
    count = static_cast<unsigned>(fit->max_count);
    report.notes.push_back(path + ".count: " + fit->message + "; scaled down to " +
                           std::to_string(count));
  }
  return count;
}

// Count, variant and the scene's choices (n-body's initial condition) go to
// its rebuild hook, which rebuilds the buffers only when they change.
std::optional<std::string> rebuild_scene(ParticleScene& scene, const Scene& s, unsigned count,
                                         bool& rebuilt) {
  RebuildRequest r;
  r.count = count;
  r.variant = s.variant;
  r.choices = s.choices;
  try {
    return scene.rebuild_for(r, &rebuilt);
  } catch (const std::exception& ex) {
    cudaGetLastError();  // an out-of-memory error must not stick to the next call
    return std::string(ex.what());
  }
}

// Choices that need no rebuild (n-body's fast_build; the scene checks them) against the
// block the preset leaves (its own or the current one) before it is applied.
void apply_choices(const SceneErrors& e, ParticleScene& scene, SceneKind kind) {
  const std::map<std::string, std::string> now = choices_of(scene);
  SceneChoices* settable = scene.as<SceneChoices>();
  for (const SceneChoice& c : scene_info(kind).choices) {
    const auto it = e.s.choices.find(c.key);
    if (c.rebuilds || it == e.s.choices.end()) continue;
    const auto current = now.find(c.key);
    if (current != now.end() && current->second == it->second) continue;
    if (!settable) {
      e.fail(c.key, std::string("'") + c.key + "' is not a setting of the " + scene.name() + " scene");
      continue;
    }
    if (auto err = settable->set_choice(c.key, it->second, e.s.block ? *e.s.block : scene.block()))
      e.fail(c.key, *err);
  }
}

void apply_knobs(const Scene& s, ParticleScene& scene, SceneKind kind) {
  for (const Knob& k : knobs_of(scene, kind)) {
    auto it = s.params.find(k.key);
    if (it == s.params.end()) continue;
    if (auto* f = std::get_if<float*>(&k.ptr)) **f = static_cast<float>(it->second);
    if (auto* i = std::get_if<int*>(&k.ptr)) **i = static_cast<int>(std::lround(it->second));
    if (auto* b = std::get_if<bool*>(&k.ptr)) **b = it->second != 0.0;
  }
}

// A rebuilt n-body scene refits its view first; the preset's camera comes after.
void apply_camera(const Scene& s, ParticleScene& scene, OrbitCamera& c) {
  if (scene.take_camera_refit()) {
    const auto home = scene.camera_home();
    c.set_home(home.target, home.distance, home.yaw, home.pitch);
  }
  if (!s.camera) return;
  if (s.camera->target) c.target = *s.camera->target;
  if (s.camera->distance) c.distance = *s.camera->distance;
  if (s.camera->yaw) c.yaw = *s.camera->yaw;
  if (s.camera->pitch) c.pitch = *s.camera->pitch;
  if (s.camera->target || s.camera->distance)
    c.hold();  // as given, not refitted each frame
  else
    c.follow();  // a direction only: framed from there
}

// Count and variant (and n-body's initial condition) rebuild the buffers;
// everything else is set in place.
void apply_scene(const Scene& s, SceneSlot& slot, SceneKind kind, const std::string& path,
                 Report& report) {
  ParticleScene& scene = *slot.scene;
  const SceneErrors errors{s, path, report};
  const unsigned count = fitted_count(s, scene, kind, path, report);
  bool rebuilt = false;
  if (auto err = rebuild_scene(scene, s, count, rebuilt))
    errors.fail(s.count ? "count" : "variant", *err + "; keeping " + std::to_string(scene.count()));
  apply_choices(errors, scene, kind);
  if (s.block) {
    BlockShape b = *s.block;
    if (auto e = scene.set_block(b))
      errors.fail("block", *e + "; keeping " + to_string(scene.block()));
  }
  apply_knobs(s, scene, kind);
  apply_camera(s, scene, slot.camera);
  // The simulation starts over with the preset's parameters, as it would after R.
  if (!rebuilt) scene.reset();
  slot.ui.sync_from(scene);
  slot.ui.block_message.clear();
  slot.ui.count_message.clear();
}

}  // namespace

Preset capture(AppState& app) {
  Preset p;
  p.scene = app.scenes.current_kind();
  const SceneKind current = app.scenes.current_kind();
  for (const SceneDescriptor& info : scene_infos()) {
    if (!app.scenes.built(info.kind)) continue;
    app.scenes.activate(info.kind);  // built already: only selects it
    p.scene_of(info.kind) = capture_scene(app.scenes.current(), info.kind);
  }
  app.scenes.activate(current);
  p.ui.scale = app.presentation.ui_scale;
  p.ui.high_contrast = app.presentation.high_contrast;
  p.ui.panels_hidden = app.presentation.panels_hidden;
  p.ui.paused = app.ui.settings.paused;
  if (app.ui.settings.colour_by != insight::ColourBy::Normal)
    p.ui.colour_by = insight::to_string(app.ui.settings.colour_by);
  p.ui.vsync = app.ui.settings.pacing.vsync;
  p.ui.fps_cap = app.ui.settings.pacing.fps_cap;
  if (app.user_kernel && app.user_kernel->status().state != usercode::UserKernelState::Off &&
      !app.user_kernel->status().source.empty()) {
    const usercode::UserKernelStatus& st = app.user_kernel->status();
    Kernel k;
    k.source = st.source;
    if (!st.requested_template.empty()) k.template_name = st.requested_template;
    if (!st.file_name.empty()) k.file = st.file_name;
    k.checked = app.user_kernel->options().checked;
    p.kernel = k;
  }
  const LabSettings ls = app.labs.settings();
  if (!ls.lab.empty()) {
    Lab l;
    l.name = ls.lab;
    l.variant = ls.variant;
    l.n = ls.n;
    l.block = ls.block;
    l.input = ls.input;
    l.reps = ls.reps;
    l.cpu_backend = ls.cpu_backend;
    l.open = ls.open;
    p.lab = l;
  }
  return p;
}

ApplyResult apply(const Preset& p, AppState& app, Report& report) {
  ApplyResult result;
  if (p.ui.scale) app.presentation.set_ui_scale(*p.ui.scale);
  if (p.ui.high_contrast) app.presentation.high_contrast = *p.ui.high_contrast;
  if (p.ui.panels_hidden) app.presentation.panels_hidden = *p.ui.panels_hidden;
  if (p.ui.paused) app.ui.settings.paused = *p.ui.paused;
  if (p.ui.colour_by)
    app.ui.settings.colour_by =
        insight::parse_colour_by(*p.ui.colour_by).value_or(app.ui.settings.colour_by);
  if (p.ui.vsync) app.ui.settings.pacing.vsync = *p.ui.vsync;
  if (p.ui.fps_cap) app.ui.settings.pacing.fps_cap = app.ui.fps_cap_input = *p.ui.fps_cap;

  if (p.kernel && app.user_kernel) {  // compiled off the UI thread; the fountain runs it
    if (p.kernel->checked) app.user_kernel->set_checked(*p.kernel->checked);
    app.user_kernel->submit(p.kernel->source, p.kernel->template_name.value_or(""),
                            p.kernel->file.value_or("kernel.cu"));
  }
  const SceneKind before = app.scenes.current_kind();
  for (const SceneDescriptor& info : scene_infos()) {
    const auto& s = p.scene_of(info.kind);
    if (!s) continue;
    const std::string path = std::string("scenes.") + info.name;
    if (auto err = app.scenes.activate(info.kind)) {
      report.invalid.push_back(path + ": " + *err);
      continue;
    }
    apply_scene(*s, app.scenes.current(), info.kind, path, report);
  }
  const SceneKind target = p.scene.value_or(before);
  if (auto err = app.scenes.activate(target)) {
    report.invalid.push_back(std::string("scene: ") + *err);
    app.scenes.activate(before);
  }
  app.ui.requests.scene.reset();
  app.ui.stats.scene_message.clear();
  app.ui.stats.error_message.clear();

  if (p.lab) {
    const Lab& l = *p.lab;
    LabSettings ls = app.labs.settings();
    if (l.name && *l.name != ls.lab) {
      ls.lab = *l.name;
      ls.variant = "all";  // the old lab's variant means nothing to the new one
    }
    if (l.variant) ls.variant = *l.variant;
    if (l.n) ls.n = *l.n;
    if (l.block) ls.block = *l.block;
    if (l.input) ls.input = *l.input;
    if (l.reps) ls.reps = *l.reps;
    if (l.cpu_backend) ls.cpu_backend = *l.cpu_backend;
    ls.open = l.open.value_or(l.run && *l.run != "none");
    if (auto err = app.labs.apply_settings(ls)) {
      report.invalid.push_back("lab: " + *err);
    } else if (l.run && *l.run != "none") {
      auto err = *l.run == "run" ? app.labs.run_now() : app.labs.run_action(*l.run);
      if (err)
        report.invalid.push_back("lab.run: " + *err);
      else
        result.lab_started = true;
    }
  }
  return result;
}

void merge_command_line(Preset& p, const RunOptions& opt) {
  if (opt.scene_given || !p.scene) p.scene = cv::parse_scene(opt.scene);
  if (!p.scene) return;  // an unknown --scene is the caller's error to report
  if (opt.n || opt.variant || opt.block) {
    auto& s = p.scene_of(*p.scene);
    if (!s) s = Scene{};
    if (opt.n) s->count = *opt.n;
    if (opt.variant) s->variant = *opt.variant;
    if (opt.block) s->block = *opt.block;
  }
  if (opt.present) {
    p.ui.high_contrast = true;
    if (!opt.ui_scale) p.ui.scale = 2.f;
  }
  if (opt.ui_scale) p.ui.scale = *opt.ui_scale;
  if (opt.colour_by) p.ui.colour_by = *opt.colour_by;
}

}  // namespace cv::presets

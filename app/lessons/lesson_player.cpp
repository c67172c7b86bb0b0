// The lesson player's logic: loading, a step's state, its run, its values,
// and the scripted walk through every step. The tab is lessons/lesson_panel.cpp.
#include "lessons/lesson_player.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>

#include "presets/preset.h"
#include "scenes/scene_set.h"
#include "ui/lab_panel.h"
#include "ui/panels.h"

namespace cv::lessons {

using nlohmann::json;

namespace {

// Objects merge key by key; anything else (numbers, arrays, null) replaces.
void merge(json& into, const json& from) {
  for (auto it = from.begin(); it != from.end(); ++it) {
    if (it.value().is_object() && into.contains(it.key()) && into[it.key()].is_object())
      merge(into[it.key()], it.value());
    else
      into[it.key()] = it.value();
  }
}

std::optional<BlockShape> shape_of(const json& v) {
  if (v.is_string()) return parse_block_shape(v.get<std::string>(), nullptr);
  if (v.is_array() && !v.empty() && v.size() <= 3) {
    BlockShape b;
    int* dims[] = {&b.x, &b.y, &b.z};
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_number_integer()) return std::nullopt;
      *dims[i] = v[i].get<int>();
    }
    return b;
  }
  return std::nullopt;
}

bool same(const std::string& key, const json& want, const json& got) {
  if (key == "block") {
    const auto a = shape_of(want), b = shape_of(got);
    return a && b && *a == *b;
  }
  if (want.is_number() && got.is_number()) {
    const double a = want.get<double>(), b = got.get<double>();
    return std::fabs(a - b) <= 1e-4 * std::max(1.0, std::fabs(a));
  }
  return want == got;
}

// Each leaf the step asked for against the state captured after applying it.
void compare(const std::string& path, const json& want, const json& got,
             std::vector<std::string>& out) {
  for (auto it = want.begin(); it != want.end(); ++it) {
    const std::string p = path.empty() ? it.key() : path + "." + it.key();
    if (!got.contains(it.key())) {
      out.push_back(p + ": asked " + it.value().dump() + ", not in the app's state");
    } else if (it.value().is_object()) {
      compare(p, it.value(), got[it.key()], out);
    } else if (!same(it.key(), it.value(), got[it.key()])) {
      out.push_back(p + ": asked " + it.value().dump() + ", the app has " +
                    got[it.key()].dump());
    }
  }
}

// What a step's check leaves out: the presentation is the teacher's, and a
// lab's window state follows the tab shown.
json checkable(json state) {
  if (state.contains("lab")) state["lab"].erase("open");
  if (state.contains("ui"))
    for (const char* k : {"scale", "high_contrast", "panels_hidden"}) state["ui"].erase(k);
  return state;
}

}  // namespace

void LessonPlayer::load(Lesson lesson, int first) {
  shutdown();  // a run of the previous lesson stops
  text_.clear();
  explanation_.clear();
  for (const Step& s : lesson.steps) {
    text_.push_back(parse_markdown(s.text));
    explanation_.push_back(parse_markdown(s.explanation));
  }
  intro_ = parse_markdown(lesson.intro);
  path_ = lesson.path;
  std::snprintf(path_field_, sizeof path_field_, "%s", path_.c_str());
  lesson_ = std::move(lesson);
  problems_.clear();
  outcomes_.clear();
  revealed_rounds_.clear();
  need_base_ = true;
  current_ = 0;
  go_request_ = std::clamp(first, 0, static_cast<int>(lesson_->steps.size()) - 1);
  tab_.expand();
}

void LessonPlayer::show_problems(const std::string& path, std::vector<std::string> problems) {
  path_ = path;
  std::snprintf(path_field_, sizeof path_field_, "%s", path.c_str());  // fix it, open it again
  problems_ = std::move(problems);
  tab_.expand();
}

void LessonPlayer::shutdown() {
  labs_.cancel();
  labs_.join();
  sweep_.cancel();
  sweep_.join();
}

// The app's state when the lesson loads, with every scene the lesson shows
// built, less the presentation (scale, theme, hidden panels: the teacher's).
void LessonPlayer::capture_base(presets::AppState& app) {
  const SceneKind before = app.scenes.current_kind();
  for (const Step& s : lesson_->steps)
    for (const StepPlan* p : {&s.gpu, &s.cpu}) {
      std::vector<std::string> names;
      if (p->state.contains("scene")) names.push_back(p->state["scene"]);
      if (p->state.contains("scenes"))
        for (auto it = p->state["scenes"].begin(); it != p->state["scenes"].end(); ++it)
          names.push_back(it.key());
      for (const auto& n : names)
        if (auto k = parse_scene(n); k && !app.scenes.built(*k))
          if (auto err = app.scenes.activate(*k)) message_ = "scene " + n + ": " + *err;
    }
  app.scenes.activate(before);
  base_ = json::parse(presets::to_json(presets::capture(app)).dump());
  for (const char* k : {"version", "app", "description", "sweep"}) base_.erase(k);
  if (base_.contains("ui"))
    for (const char* k : {"scale", "high_contrast", "panels_hidden"}) base_["ui"].erase(k);
  if (base_.contains("lab")) base_["lab"]["open"] = false;
  base_["ui"]["paused"] = false;
  // capture() leaves out what is at its default; the base must hold it, or
  // a step's colouring would outlive the step.
  if (!base_["ui"].contains("colour_by")) base_["ui"]["colour_by"] = "normal";
  need_base_ = false;
}

void LessonPlayer::apply_step(presets::AppState& app, ui::Layout& layout) {
  shutdown();
  const StepPlan& p = plan();
  json state = base_;
  merge(state, p.state);
  if (state.contains("lab")) state["lab"]["open"] = p.panel == ui::tool_name(ui::Tool::Labs);
  presets::Report report;
  state_problems_.clear();
  try {
    const presets::Preset preset = presets::parse_preset(state, report);
    presets::apply(preset, app, report);
  } catch (const std::exception& e) {
    state_problems_.push_back(e.what());
  }
  for (const auto& s : report.skipped()) state_problems_.push_back(s);
  json now = json::parse(presets::to_json(presets::capture(app)).dump());
  compare("", checkable(p.state), now, state_problems_);
  if (now.contains("lab")) now["lab"].erase("open");  // follows the tab shown, not the step
  char digest[32];
  std::snprintf(digest, sizeof digest, "%016zx", std::hash<std::string>{}(now.dump()));
  state_digest_ = digest;
  state_applied_ = state_problems_.empty();
  for (const auto& s : state_problems_)
    std::fprintf(stderr, "cudaviz: lesson step %d: %s\n", current_ + 1, s.c_str());
  layout.open(p.panel.empty() ? ui::tool_name(ui::Tool::Lesson) : p.panel);
  hands_.assign(p.predict.choices.size(), 0);
  published_step_ = -1;  // a new round for the phones, even on the same step
  guess_ = 0;
  guess_given_ = false;
  run_kind_ = RunKind::None;
  run_done_ = false;
  run_error_.clear();
  rows_.clear();
  values_.clear();
  verdict_ = {};
  if (!script_) restore_outcome();
}

void LessonPlayer::keep_outcome() {
  outcomes_[current_] = Outcome{rows_, values_, verdict_, hands_, guess_, guess_given_, run_error_};
}

bool LessonPlayer::restore_outcome() {
  const auto it = outcomes_.find(current_);
  if (it == outcomes_.end()) return false;
  const Outcome& o = it->second;
  rows_ = o.rows;
  values_ = o.values;
  verdict_ = o.verdict;
  hands_ = o.hands;
  guess_ = o.guess;
  guess_given_ = o.guess_given;
  run_error_ = o.run_error;
  run_done_ = true;
  return true;
}

std::optional<std::string> LessonPlayer::start_run(presets::AppState& app) {
  const RunSpec& r = plan().run;
  rows_.clear();
  values_.clear();
  verdict_ = {};
  run_error_.clear();
  run_done_ = false;
  const std::string backend_flag = backend_ == Backend::Cpu ? "cpu" : "cuda";
  switch (r.kind) {
    case RunSpec::Kind::None:
      return std::string("this step has nothing to run");
    case RunSpec::Kind::Lab: {
      std::vector<BenchOptions> jobs;
      std::vector<std::optional<long long>> ns(r.ns.begin(), r.ns.end());
      if (ns.empty()) ns.push_back(std::nullopt);
      std::vector<std::string> variants = r.variants;
      if (variants.empty()) variants.push_back("all");
      for (const auto& n : ns)
        for (const auto& v : variants) {
          BenchOptions o;
          o.target = r.target;
          o.variant = v;
          o.n = n;
          o.block = r.block;
          o.reps = r.reps;
          o.backend = backend_flag;
          o.paths = paths_;
          jobs.push_back(o);
        }
      if (auto err = labs_.start(jobs, backend_)) return err;
      run_kind_ = RunKind::Lab;
      return std::nullopt;
    }
    case RunSpec::Kind::Sweep: {
      SweepOptions o;
      o.target = r.target;
      o.shapes = r.shapes;
      o.variant = r.variants.empty() ? "" : r.variants[0];
      if (!r.ns.empty()) o.n = r.ns[0];
      o.reps = r.reps;
      o.backend = backend_flag;
      if (auto err = sweep_.start(o)) return err;
      run_kind_ = RunKind::Sweep;
      return std::nullopt;
    }
    case RunSpec::Kind::Frames:
    case RunSpec::Kind::Seconds: {
      ParticleScene& scene = *app.scenes.current().scene;
      // The numbers are this run's alone.
      scene.kernel_ms.clear();
      scene.step_ms.clear();
      app.ui.stats.fps.clear();
      app.ui.stats.frame_ms.clear();
      app.ui.stats.draw_ms.clear();
      app.ui.settings.paused = false;
      run_frames_left_ = r.kind == RunSpec::Kind::Frames ? r.frames : 0;
      run_until_ = std::chrono::steady_clock::now() +
                   std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                       std::chrono::duration<double>(r.seconds));
      run_kind_ = RunKind::Scene;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

void LessonPlayer::poll_run(presets::AppState& app) {
  if (!running()) return;
  bool done = false;
  switch (run_kind_) {
    case RunKind::Lab:
      done = !labs_.running();
      break;
    case RunKind::Sweep:
      done = !sweep_.running();
      break;
    case RunKind::Scene:
      if (plan().run.kind == RunSpec::Kind::Frames)
        done = --run_frames_left_ < 0;
      else
        done = std::chrono::steady_clock::now() >= run_until_;
      break;
    case RunKind::None:
      break;
  }
  if (done) finish_run(app);
}

void LessonPlayer::finish_run(presets::AppState& app) {
  run_done_ = true;
  switch (run_kind_) {
    case RunKind::Lab:
      rows_ = labs_.results();
      if (labs_.state() != RunState::Done)
        run_error_ = labs_.error().empty() ? to_string(labs_.state()) : labs_.error();
      add_bench_rows(rows_, values_);
      break;
    case RunKind::Sweep:
      for (const auto& r : sweep_.rows()) {
        nlohmann::ordered_json j = r.json;
        j["shape"] = to_string(r.shape);
        if (!r.ok) j["refused"] = r.error;
        add_sweep_row(to_string(r.shape), j, values_);
        rows_.push_back(j);
      }
      if (sweep_.state() != RunState::Done)
        run_error_ = sweep_.error().empty() ? to_string(sweep_.state()) : sweep_.error();
      break;
    case RunKind::Scene: {
      const ParticleScene& scene = *app.scenes.current().scene;
      nlohmann::ordered_json j;
      j["fps"] = app.ui.stats.fps.median();
      j["frame_ms"] = app.ui.stats.frame_ms.median();
      j["kernel_ms"] = scene.kernel_ms.median();
      j["step_ms"] = scene.step_ms.median();
      j["draw_ms"] = app.ui.stats.draw_ms.median();
      j["count"] = scene.count();
      const auto t = scene.throughput();
      for (auto it = t.begin(); it != t.end(); ++it) j[it.key()] = it.value();
      scene.describe(j);
      if (!app.ui.stats.error_message.empty()) run_error_ = app.ui.stats.error_message;
      for (auto it = j.begin(); it != j.end(); ++it) values_[it.key()] = it.value();
      j["variant"] = scene.name();
      rows_.push_back(j);
      break;
    }
    case RunKind::None:
      break;
  }
  if (class_voting()) {  // the final votes: close() refuses any later one
    const auto t = class_->store()->close();
    const Prediction& p = plan().predict;
    if (t->round == round_ && p.kind == Prediction::Kind::Choice && t->counts.size() == hands_.size())
      hands_ = t->counts;
    if (t->round == round_ && p.kind == Prediction::Kind::Number)
      if (auto m = classvote::median(t->numbers)) {
        guess_ = *m;
        guess_given_ = true;
      }
  }
  verdict_ = judge(plan().predict, values_, hands_,
                   guess_given_ ? std::optional<double>(guess_) : std::nullopt);
  if (!verdict_.measured && lesson_->steps[current_].gpu_only && backend_ == Backend::Cpu)
    verdict_.summary = "not measured: this step needs a GPU, and the app runs on the CPU";
  keep_outcome();
  reveal_to_class();
}

void LessonPlayer::service(presets::AppState& app, ui::Layout& layout, long long frame,
                           int move) {
  (void)frame;
  if (load_request_) {
    const std::string path = *load_request_;
    load_request_.reset();
    try {
      load(load_lesson_file(path, paths_));
      message_.clear();
    } catch (const LessonError& e) {
      show_problems(path, e.problems());
      for (const auto& p : e.problems()) std::fprintf(stderr, "cudaviz: %s\n", p.c_str());
    }
  }
  if (!lesson_) return;
  if (need_base_) capture_base(app);
  if (!script_ && move != 0) {
    const int n = static_cast<int>(lesson_->steps.size());
    go_request_ = std::clamp(current_ + move, 0, n - 1);
    if (*go_request_ == current_) go_request_.reset();
  }
  if (script_) script_tick(app);
  if (go_request_) {
    current_ = *go_request_;
    go_request_.reset();
    apply_step(app, layout);
  }
  if (run_request_) {
    run_request_ = false;
    if (auto err = start_run(app)) {
      run_error_ = *err;
      run_done_ = true;
    }
  }
  poll_run(app);
  sync_class();
}

std::string LessonPlayer::run_label() const {
  const RunSpec& r = plan().run;
  auto list = [](const auto& v, auto fmt) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + fmt(x);
    return s;
  };
  switch (r.kind) {
    case RunSpec::Kind::None:
      return "none";
    case RunSpec::Kind::Frames:
      return "frames " + std::to_string(r.frames);
    case RunSpec::Kind::Seconds: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "seconds %g", r.seconds);
      return buf;
    }
    case RunSpec::Kind::Lab:
    case RunSpec::Kind::Sweep: {
      std::string s = (r.kind == RunSpec::Kind::Lab ? "lab " : "sweep ") + r.target;
      if (!r.variants.empty()) s += " (" + list(r.variants, [](const auto& x) { return x; }) + ")";
      if (!r.ns.empty())
        s += " n = " + list(r.ns, [](long long x) { return std::to_string(x); });
      if (!r.shapes.empty())
        s += " blocks " + list(r.shapes, [](const BlockShape& b) { return to_string(b); });
      return s;
    }
  }
  return "";
}

// ---- scripted runs ----

void LessonPlayer::start_script(int first, int last, int show_frames) {
  script_ = Script{};
  script_->step = first;
  script_->last = last;
  script_->show_frames = std::max(2, show_frames);
  reports_.clear();
}

void LessonPlayer::fill_script_prediction() {
  if (!predict_error_.empty()) std::fprintf(stderr, "cudaviz: %s\n", predict_error_.c_str());
  if (!predict_) return;
  const std::vector<double>& nums = *predict_;
  const Prediction& p = plan().predict;
  if (p.kind == Prediction::Kind::Choice)
    for (size_t i = 0; i < hands_.size() && i < nums.size(); ++i)
      hands_[i] = static_cast<int>(nums[i]);
  if (p.kind == Prediction::Kind::Number && !nums.empty()) {
    guess_ = nums[0];
    guess_given_ = true;
  }
}

void LessonPlayer::script_tick(presets::AppState& app) {
  Script& s = *script_;
  if (s.phase == Phase::Done) return;
  ++s.frames;
  switch (s.phase) {
    case Phase::Show:
      if (!s.entered) {
        s.entered = true;
        s.frames = 0;
        go_request_ = s.step;
        return;
      }
      if (s.frames == 1) fill_script_prediction();
      if (s.frames >= s.show_frames) {
        s.run_visible = run_button_visible_;  // the frame the "before" picture shows
        s.phase = Phase::Running;
        s.frames = 0;
        if (plan().run.kind != RunSpec::Kind::None) run_request_ = true;
      }
      break;
    case Phase::Running:
      if (plan().run.kind == RunSpec::Kind::None || run_done_) {
        reports_.push_back(report_step());
        s.phase = Phase::Reveal;
        s.frames = 0;
      }
      break;
    case Phase::Reveal:
      if (s.frames >= 3) {  // results laid out and settled (panels size from the frame before)
        s.frames = 0;
        s.entered = false;
        s.phase = ++s.step < s.last ? Phase::Show : Phase::Done;
      }
      break;
    case Phase::Done:
      break;
  }
  (void)app;
}

std::string LessonPlayer::script_shot() const {
  if (!script_) return "";
  if (script_->phase == Phase::Show && script_->entered &&
      script_->frames == script_->show_frames - 1)
    return "before";
  if (script_->phase == Phase::Reveal && script_->frames == 2) return "after";
  return "";
}

StepReport LessonPlayer::report_step() const {
  const Step& step = lesson_->steps[current_];
  const StepPlan& p = plan();
  StepReport r;
  r.step = current_ + 1;
  r.title = step.title;
  r.state_applied = state_applied_;
  r.state_problems = state_problems_;
  r.state_digest = state_digest_;
  r.run = run_label();
  r.run_state = p.run.kind == RunSpec::Kind::None ? "none" : run_error_.empty() ? "done" : "failed";
  r.run_error = run_error_;
  r.rows = static_cast<int>(rows_.size());
  if (p.run.kind != RunSpec::Kind::None && script_) r.run_button_visible = script_->run_visible;
  std::vector<std::string> keys;
  for (const auto& s : p.show) keys.push_back(s.key);
  for (const auto& c : p.predict.choices)
    if (!c.key.empty()) keys.push_back(c.key);
  if (p.predict.kind == Prediction::Kind::Number) keys.push_back(p.predict.answer);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  for (const auto& k : keys) {
    if (auto x = lookup(values_, k))
      r.values[k] = *x;
    else if (step.gpu_only && backend_ == Backend::Cpu)
      r.needs_gpu.push_back(k);
    else
      r.missing.push_back(k);
  }
  if (p.run.kind != RunSpec::Kind::None && rows_.empty() && r.run_error.empty())
    r.missing.push_back("(the run measured nothing)");
  r.verdict = verdict_.summary;
  if (auto it = class_votes_.find(current_); it != class_votes_.end())
    r.class_votes = classvote::to_json({it->second})[0];
  return r;
}

nlohmann::ordered_json LessonPlayer::summary() const {
  nlohmann::ordered_json j;
  j["file"] = path_;
  j["title"] = lesson_ ? lesson_->title : "";
  j["steps"] = lesson_ ? lesson_->steps.size() : 0;
  int ok = 0;
  nlohmann::ordered_json steps = nlohmann::ordered_json::array();
  for (const auto& r : reports_) {
    ok += r.ok();
    nlohmann::ordered_json s;
    s["step"] = r.step;
    s["title"] = r.title;
    s["state_applied"] = r.state_applied;
    if (!r.state_problems.empty()) s["state_problems"] = r.state_problems;
    s["state_digest"] = r.state_digest;
    s["run"] = r.run;
    s["run_state"] = r.run_state;
    if (!r.run_error.empty()) s["run_error"] = r.run_error;
    s["rows"] = r.rows;
    s["values"] = r.values;
    if (!r.missing.empty()) s["missing"] = r.missing;
    if (!r.needs_gpu.empty()) s["needs_gpu"] = r.needs_gpu;
    if (r.run_button_visible) s["run_button_visible"] = *r.run_button_visible;
    if (!r.verdict.empty()) s["verdict"] = r.verdict;
    if (!r.class_votes.is_null()) s["class_votes"] = r.class_votes;
    s["ok"] = r.ok();
    steps.push_back(s);
  }
  j["played"] = reports_.size();
  j["ok"] = ok;
  j["step_reports"] = steps;
  return j;
}

}  // namespace cv::lessons

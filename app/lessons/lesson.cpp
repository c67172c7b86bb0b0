#include "lessons/lesson.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "bench/bench.h"
#include "io/atomic_file.h"
#include "io/data_dir.h"
#include "lessons/lesson_values.h"
#include "presets/preset.h"
#include "presets/preset_panel.h"
#include "scenes/scene_factory.h"
#include "ui/layout.h"


namespace cv::lessons {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string join_list(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Splits on `sep`, trimming each item and dropping empty ones.
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep))
    if (auto t = trim(item); !t.empty()) out.push_back(t);
  return out;
}

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

// The state keys a step takes beside params.* and camera.* (scene keys go
// under scenes.<scene>, lab keys under lab, ui keys under ui).
// Count, variant and block, and every registered scene's choices (n-body's
// "initial", "fast_build": SceneDescriptor::choices).
std::vector<std::string> scene_keys() {
  std::vector<std::string> k{"variant", "count", "block"};
  for (const SceneDescriptor& d : scene_infos())
    for (const SceneChoice& c : d.choices)
      if (std::find(k.begin(), k.end(), c.key) == k.end()) k.push_back(c.key);
  return k;
}
const std::vector<std::string> kCameraKeys{"camera.target", "camera.distance", "camera.yaw",
                                           "camera.pitch"};
const std::vector<std::string> kLabKeys{"lab",       "lab.variant", "lab.n",
                                        "lab.block", "lab.input",   "lab.reps"};
const std::vector<std::string> kUiKeys{"paused", "colour_by", "vsync"};
const std::vector<std::string> kOtherKeys{
    "preset",   "scene",     "panel",    "gpu_only", "run",    "run.variant", "run.n",
    "run.block", "run.reps", "run.shapes", "predict", "question", "choices",   "answer",
    "unit",      "tolerance", "range",     "show",      "table"};

std::vector<std::string> all_keys() {
  std::vector<std::string> k = kOtherKeys;
  const std::vector<std::string> scene = scene_keys();
  for (const auto* list : {&scene, &kCameraKeys, &kLabKeys, &kUiKeys})
    k.insert(k.end(), list->begin(), list->end());
  k.push_back("params.NAME");
  return k;
}

bool known_key(const std::string& key) {
  if (starts_with(key, "params.") && key.size() > 7) return true;
  for (const auto& k : all_keys())
    if (k == key && k != "params.NAME") return true;
  return false;
}

struct Entry {
  std::string value;
  int line = 0;
  std::string name;  // as written ("cpu.run.n" for the CPU plan's "run.n")
};
using Fields = std::map<std::string, Entry>;

// Collects problems for one step, each naming the file, the step and the field.
class Problems {
 public:
  Problems(std::vector<std::string>& out, const std::string& path) : out_(out), path_(path) {}
  void file(int line, const std::string& why) {
    out_.push_back(path_ + ":" + std::to_string(line) + ": " + why);
  }
  void set_step(int index, const std::string& title, int line) {
    index_ = index, title_ = title, line_ = line;
  }
  void field(const std::string& name, int line, const std::string& why) {
    out_.push_back(path_ + ":" + std::to_string(line ? line : line_) + ": step " +
                   std::to_string(index_) + " '" + title_ + "': field '" + name + "': " + why);
  }
  void add_unique(const std::string& line) {
    if (std::find(out_.begin(), out_.end(), line) == out_.end()) out_.push_back(line);
  }

 private:
  std::vector<std::string>& out_;
  std::string path_;
  int index_ = 0, line_ = 0;
  std::string title_;
};

std::optional<bool> parse_bool(const std::string& v) {
  if (v == "true" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "no" || v == "off") return false;
  return std::nullopt;
}

std::optional<double> parse_number(const std::string& v) {
  if (v.empty()) return std::nullopt;
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (end != v.c_str() + v.size() || !std::isfinite(d)) return std::nullopt;
  return d;
}

// A whole number, with 2^K and K_000 spellings a teacher may use.
std::optional<long long> parse_count(std::string v) {
  v.erase(std::remove(v.begin(), v.end(), '_'), v.end());
  if (starts_with(v, "2^")) {
    const auto e = parse_number(v.substr(2));
    if (!e || *e < 0 || *e > 62 || std::floor(*e) != *e) return std::nullopt;
    return 1ll << static_cast<int>(*e);
  }
  const auto d = parse_number(v);
  if (!d || std::floor(*d) != *d || std::fabs(*d) > 9e15) return std::nullopt;
  return static_cast<long long>(*d);
}

// A value for the preset fragment: JSON number, boolean or string as written.
json scalar(const std::string& v) {
  if (auto b = parse_bool(v)) return *b;
  if (auto n = parse_count(v)) return *n;
  if (auto d = parse_number(v)) return *d;
  return v;
}

// A preset named by a step: beside the lesson, else among the shipped presets
// (`preset_dir`, "" when there are none), else the name as given.
std::string preset_path(const std::string& name, const std::string& lesson_path,
                        const std::string& preset_dir) {
  std::error_code ec;
  const fs::path beside = fs::path(lesson_path).parent_path() / name;
  if (fs::is_regular_file(beside, ec)) return beside.string();
  const std::string& dir = preset_dir;
  if (!dir.empty() && fs::is_regular_file(fs::path(dir) / name, ec))
    return (fs::path(dir) / name).string();
  return name;
}

// The JSON path a preset report names, as the step's field.
std::string field_of(const std::string& line) {
  std::string path = line.substr(0, line.find(':'));
  if (starts_with(path, "scenes.")) {
    const auto dot = path.find('.', 7);
    path = dot == std::string::npos ? "scene" : path.substr(dot + 1);
  } else if (starts_with(path, "ui.")) {
    path = path.substr(3);
  } else if (path == "lab.name") {
    path = "lab";
  }
  return path;
}

class StepReader {
 public:
  // loose: values may name variants the run leaves out (the CPU plan of a
  // gpu_only step, whose GPU variants cannot run there).
  StepReader(const Fields& f, Problems& p, const std::string& lesson_path,
             const std::string& preset_dir, bool loose)
      : f_(f), p_(p), lesson_path_(lesson_path), preset_dir_(preset_dir), loose_(loose) {}

  StepPlan read() {
    StepPlan plan;
    read_state(plan);
    read_run(plan.run);
    read_prediction(plan.predict);
    read_reveal(plan);
    check_values(plan);
    return plan;
  }

 private:
  const Entry* get(const std::string& k) const {
    auto it = f_.find(k);
    return it == f_.end() ? nullptr : &it->second;
  }
  void bad(const std::string& k, const std::string& why) {
    const Entry* e = get(k);
    p_.field(e ? e->name : k, e ? e->line : 0, why);
  }

  void read_state(StepPlan& plan) {
    json& s = plan.state;
    if (const Entry* e = get("preset")) {
      const std::string path = preset_path(e->value, lesson_path_, preset_dir_);
      try {
        s = json::parse(read_file(path, presets::kMaxFileBytes));
        if (!s.is_object()) throw std::runtime_error("not a JSON object");
        for (const char* k : {"version", "app", "description", "sweep"}) s.erase(k);
      } catch (const std::exception& ex) {
        bad("preset", "'" + e->value + "' cannot be used: " + ex.what());
        s = json::object();
      }
    }
    std::string scene = s.value("scene", "");
    if (const Entry* e = get("scene")) {
      scene = e->value;
      s["scene"] = scene;
    }
    auto scene_obj = [&](const std::string& key) -> json* {
      if (scene.empty()) {
        bad(key, "needs 'scene' (one of " + scene_list() + ")");
        return nullptr;
      }
      if (!parse_scene(scene)) return nullptr;  // reported as 'scene' by the preset reader
      return &s["scenes"][scene];
    };
    const std::vector<std::string> scene_key_list = scene_keys();
    for (const auto& [key, e] : f_) {
      if (std::find(scene_key_list.begin(), scene_key_list.end(), key) != scene_key_list.end()) {
        if (json* o = scene_obj(key)) (*o)[key] = key == "count" ? scalar(e.value) : json(e.value);
      } else if (starts_with(key, "params.")) {
        if (json* o = scene_obj(key)) (*o)["params"][key.substr(7)] = scalar(e.value);
      } else if (starts_with(key, "camera.")) {
        json* o = scene_obj(key);
        if (!o) continue;
        if (key == "camera.target") {
          json t = json::array();
          for (const auto& x : split(e.value, ',')) t.push_back(scalar(x));
          (*o)["camera"]["target"] = t;
        } else {
          (*o)["camera"][key.substr(7)] = scalar(e.value);
        }
      } else if (std::find(kUiKeys.begin(), kUiKeys.end(), key) != kUiKeys.end()) {
        s["ui"][key] = scalar(e.value);
      } else if (key == "lab") {
        s["lab"]["name"] = e.value;
      } else if (starts_with(key, "lab.")) {
        const std::string sub = key.substr(4);
        s["lab"][sub] = sub == "n" && e.value == "default" ? json(nullptr)
                        : sub == "input" || sub == "variant" || sub == "block"
                            ? json(e.value)
                            : scalar(e.value);
      }
    }
    if (s.contains("lab")) {
      s["lab"].erase("run");  // a step's run is its own (the Run button), never on arrival
      s["lab"]["open"] = false;
    }
    presets::Report report;
    try {
      presets::parse_preset(s, report);
    } catch (const presets::PresetError& ex) {
      bad("preset", ex.what());
    }
    for (const auto& line : report.skipped()) {
      const std::string field = field_of(line);
      bad(get(field) ? field : (get("preset") ? "preset" : field), line);
    }
    if (const Entry* e = get("panel")) {
      const auto& tools = ui::Layout::tool_names();
      if (std::find(tools.begin(), tools.end(), e->value) == tools.end())
        bad("panel", "'" + e->value + "' is not a panel (" + join_list(tools) + ")");
      else
        plan.panel = e->value;
    }
  }

  static std::string scene_list() {
    std::vector<std::string> v;
    for (const auto& s : scene_infos()) v.push_back(s.name);
    return join_list(v);
  }

  static std::vector<std::string> target_names() {
    std::vector<std::string> v;
    for (const auto& t : bench::targets()) v.push_back(t.name);
    return v;
  }

  void read_run(RunSpec& r) {
    const Entry* e = get("run");
    if (!e) {
      for (const char* k : {"run.variant", "run.n", "run.block", "run.reps", "run.shapes"})
        if (get(k)) bad(k, "needs 'run' (lab NAME, sweep NAME, frames N or seconds S)");
      return;
    }
    const auto words = split(e->value, ' ');
    const std::string kind = words.empty() ? "" : words[0];
    const std::string arg = words.size() > 1 ? words[1] : "";
    if (kind == "none" && words.size() == 1) return;
    if ((kind == "frames" || kind == "seconds") && words.size() == 2) {
      const auto d = parse_number(arg);
      if (kind == "frames") {
        const auto n = parse_count(arg);
        if (!n || *n < 1 || *n > 100000)
          return bad("run", "frames '" + arg + "' is not a whole number in [1, 100000]");
        r.kind = RunSpec::Kind::Frames;
        r.frames = *n;
      } else {
        if (!d || *d <= 0 || *d > 600) return bad("run", "seconds '" + arg + "' is not in (0, 600]");
        r.kind = RunSpec::Kind::Seconds;
        r.seconds = *d;
      }
      for (const char* k : {"run.variant", "run.n", "run.block", "run.reps", "run.shapes"})
        if (get(k)) bad(k, "a scene run (" + e->value + ") takes no " + std::string(k));
      return;
    }
    if ((kind != "lab" && kind != "sweep") || words.size() != 2)
      return bad("run", "'" + e->value +
                            "' is not one of: none, frames N, seconds S, lab NAME, sweep NAME");
    const bench::Target* t = bench::find_target(arg);
    if (!t)
      return bad("run", "'" + arg + "' is not a lab or scene (" + join_list(target_names()) + ")");
    r.kind = kind == "lab" ? RunSpec::Kind::Lab : RunSpec::Kind::Sweep;
    r.target = arg;
    if (const Entry* v = get("run.variant")) {
      for (const auto& given : split(v->value, ',')) {
        const std::string name = bench::canonical_variant(*t, given);  // `seed`: its older spelling
        if (std::find(t->variants.begin(), t->variants.end(), name) == t->variants.end())
          bad("run.variant",
              "'" + name + "' is not a variant of " + arg + " (" + join_list(t->variants) + ")");
        else
          r.variants.push_back(name);
      }
      if (r.kind == RunSpec::Kind::Sweep && r.variants.size() > 1)
        bad("run.variant", "a sweep runs one variant");
    }
    if (const Entry* v = get("run.n"))
      for (const auto& item : split(v->value, ',')) {
        const auto n = parse_count(item);
        if (!n || *n < 1 || *n > t->max_n)
          bad("run.n", "'" + item + "' is not a whole number in [1, " + std::to_string(t->max_n) +
                           "] for " + arg);
        else
          r.ns.push_back(*n);
      }
    if (r.kind == RunSpec::Kind::Sweep && r.ns.size() > 1) bad("run.n", "a sweep runs one n");
    if (const Entry* v = get("run.block")) {
      if (r.kind == RunSpec::Kind::Sweep) bad("run.block", "a sweep takes run.shapes");
      std::string err;
      auto b = parse_block_shape(v->value, &err);
      if (b && !validate(*b)) r.block = *b;
      else bad("run.block", b ? *validate(*b) : err);
    }
    if (const Entry* v = get("run.reps")) {
      const auto n = parse_count(v->value);
      if (!n || *n < 1 || *n > 100000) bad("run.reps", "'" + v->value + "' is not in [1, 100000]");
      else r.reps = static_cast<int>(*n);
    }
    if (const Entry* v = get("run.shapes")) {
      if (r.kind != RunSpec::Kind::Sweep) bad("run.shapes", "only a sweep takes shapes");
      for (const auto& item : split(v->value, ',')) {
        std::string err;
        auto b = parse_block_shape(item, &err);
        if (b && !validate(*b)) r.shapes.push_back(*b);
        else bad("run.shapes", "'" + item + "': " + (b ? *validate(*b) : err));
      }
    }
    if (r.kind == RunSpec::Kind::Sweep && !get("run.shapes"))
      bad("run", "a sweep needs run.shapes (e.g. 256x1, 16x16, 1x1)");
  }

  void read_prediction(Prediction& p) {
    const Entry* e = get("predict");
    if (const Entry* q = get("question")) p.question = q->value;
    if (!e) {
      for (const char* k : {"choices", "answer", "unit", "tolerance", "range"})
        if (get(k)) bad(k, "needs 'predict' (choice or number)");
      return;
    }
    const Entry* answer = get("answer");
    if (!answer) bad("answer", "missing: a prediction needs the measured answer");
    else p.answer = answer->value;
    if (e->value == "choice") {
      p.kind = Prediction::Kind::Choice;
      const Entry* c = get("choices");
      if (!c) return bad("choices", "missing: 'A | B | C', each optionally 'label = value'");
      for (const auto& item : split(c->value, '|')) {
        Prediction::Choice ch;
        const auto eq = item.rfind('=');
        ch.label = trim(item.substr(0, eq));
        if (eq != std::string::npos) {
          ch.key = trim(item.substr(eq + 1));
          if (starts_with(ch.key, "!")) ch.negate = true, ch.key = trim(ch.key.substr(1));
        }
        p.choices.push_back(ch);
      }
      if (p.choices.size() < 2 || p.choices.size() > 8)
        bad("choices", std::to_string(p.choices.size()) + " choices; give 2 to 8, split by '|'");
      if (answer) check_choice_answer(p);
      for (const char* k : {"unit", "tolerance", "range"})
        if (get(k)) bad(k, "a choice prediction takes no " + std::string(k));
    } else if (e->value == "number") {
      p.kind = Prediction::Kind::Number;
      if (const Entry* u = get("unit")) p.unit = u->value;
      const Entry* t = get("tolerance");
      if (!t) return bad("tolerance", "missing: how close counts as right, e.g. 20% or 0.5");
      std::string v = t->value;
      p.tolerance_relative = !v.empty() && v.back() == '%';
      if (p.tolerance_relative) v.pop_back();
      const auto d = parse_number(trim(v));
      if (!d || *d < 0 || (p.tolerance_relative && *d > 1000))
        bad("tolerance", "'" + t->value + "' is not a number >= 0 (or a percentage)");
      else
        p.tolerance = p.tolerance_relative ? *d / 100 : *d;
      if (get("choices")) bad("choices", "a number prediction takes no choices");
      read_range(p);
    } else {
      bad("predict", "'" + e->value + "' is not one of choice, number");
    }
  }

  // `range: LO .. HI`: the plausible answers (the class's histogram spans
  // them; a vote outside is counted at its edge).
  void read_range(Prediction& p) {
    const Entry* e = get("range");
    if (!e) return;
    auto number = [](const std::string& v) -> std::optional<double> {  // 2^24 and 16_777_216 too
      if (const auto c = parse_count(v)) return static_cast<double>(*c);
      return parse_number(v);
    };
    const auto dots = e->value.find("..");
    const auto lo = dots == std::string::npos ? std::nullopt : number(trim(e->value.substr(0, dots)));
    const auto hi = dots == std::string::npos ? std::nullopt : number(trim(e->value.substr(dots + 2)));
    if (!lo || !hi)
      return bad("range", "'" + e->value + "' is not two numbers 'LO .. HI' (e.g. '0 .. 4')");
    if (!(*lo < *hi)) return bad("range", "'" + e->value + "': LO must be below HI");
    p.range = {*lo, *hi};
  }

  void check_choice_answer(Prediction& p) {
    const bool bound = std::all_of(p.choices.begin(), p.choices.end(),
                                   [](const auto& c) { return !c.key.empty(); });
    if (p.answer == "lowest" || p.answer == "highest" || p.answer == "true") {
      if (!bound)
        bad("answer", "'" + p.answer + "' needs every choice bound to a value ('label = key')");
      return;
    }
    for (const auto& c : p.choices)
      if (c.label == p.answer) return;
    std::vector<std::string> labels;
    for (const auto& c : p.choices) labels.push_back(c.label);
    bad("answer", "'" + p.answer + "' is not a choice (" + join_list(labels) +
                      ") nor lowest, highest, true");
  }

  void read_reveal(StepPlan& plan) {
    if (const Entry* e = get("show"))
      for (const auto& item : split(e->value, ',')) {
        const auto eq = item.rfind('=');  // labels may hold '=' ("n = 800"), keys never
        ShowValue v;
        v.key = trim(eq == std::string::npos ? item : item.substr(eq + 1));
        v.label = eq == std::string::npos ? v.key : trim(item.substr(0, eq));
        plan.show.push_back(v);
      }
    if (const Entry* e = get("table")) {
      const auto b = parse_bool(e->value);
      if (!b) bad("table", "'" + e->value + "' is not yes or no");
      plan.table = b.value_or(false);
    }
  }

  // Every value the reveal or the prediction names must be one the run measures.
  void check_values(const StepPlan& plan) {
    std::vector<std::pair<std::string, std::string>> keys;  // field, key
    for (const auto& s : plan.show) keys.push_back({"show", s.key});
    for (const auto& c : plan.predict.choices)
      if (!c.key.empty()) keys.push_back({"choices", c.key});
    if (plan.predict.kind == Prediction::Kind::Number && !plan.predict.answer.empty())
      keys.push_back({"answer", plan.predict.answer});
    if (keys.empty()) return;
    if (plan.run.kind == RunSpec::Kind::None)
      return bad(keys[0].first, "'" + keys[0].second + "' needs a run that measures it");
    for (const auto& [field, key] : keys)
      if (auto why = check_value_key(plan.run, key, loose_)) bad(field, *why);
  }

  const Fields& f_;
  Problems& p_;
  const std::string& lesson_path_;
  const std::string& preset_dir_;
  bool loose_;
};

// "## Step: Title" -> "Title"; nullopt for other lines.
std::optional<std::string> step_heading(const std::string& line) {
  if (!starts_with(line, "## ")) return std::nullopt;
  std::string rest = trim(line.substr(3));
  if (!starts_with(rest, "Step:") && !starts_with(rest, "step:")) return std::nullopt;
  return trim(rest.substr(5));
}

bool fence(const std::string& line) { return starts_with(trim(line), "```"); }

struct Section {
  std::string title;
  int line = 0;
  std::vector<std::pair<int, std::string>> body;  // line number, text
};

// One step's section: its key block, its text and its explanation.
Step read_section(const Section& sec, int index, Problems& p, const std::string& path,
                  const std::string& preset_dir) {
  Step step;
  step.title = sec.title;
  step.line = sec.line;
  p.set_step(index, sec.title, sec.line);
  if (sec.title.empty()) p.field("title", sec.line, "empty: write '## Step: what it shows'");
  Fields fields;
  bool in_block = false, in_code = false, after = false, had_block = false;
  std::string text, expl;
  for (const auto& [ln, raw] : sec.body) {
    const std::string t = trim(raw);
    if (!in_code && !in_block && (t == "```step" || t == "``` step")) {
      if (had_block) p.field("step", ln, "a second ```step block; one per step");
      in_block = had_block = true;
      continue;
    }
    if (in_block) {
      if (fence(t)) {
        in_block = false;
        continue;
      }
      if (t.empty() || starts_with(t, "#")) continue;  // blank lines and comments
      const auto colon = t.find(':');
      if (colon == std::string::npos) {
        p.field(t, ln, "not 'key: value'");
        continue;
      }
      const std::string key = trim(t.substr(0, colon)), value = trim(t.substr(colon + 1));
      const std::string base = starts_with(key, "cpu.") ? key.substr(4) : key;
      if (!known_key(base) || (base == "gpu_only" && key != base)) {
        p.field(key, ln, "unknown key; the keys are " + join_list(all_keys()) +
                             " (each also as cpu.KEY for the CPU backend)");
      } else if (fields.count(key)) {
        p.field(key, ln, "given twice (first on line " + std::to_string(fields[key].line) + ")");
      } else if (value.empty()) {
        p.field(key, ln, "has no value");
      } else {
        fields[key] = {value, ln, key};
      }
      continue;
    }
    if (fence(t)) in_code = !in_code;
    if (!in_code && (t == "### Explanation" || t == "### explanation")) {
      after = true;
      continue;
    }
    (after ? expl : text) += raw + "\n";
  }
  if (in_block) p.field("step", sec.line, "the ```step block is not closed with ```");
  step.text = text;
  step.explanation = expl;
  if (const auto it = fields.find("gpu_only"); it != fields.end()) {
    const auto b = parse_bool(it->second.value);
    if (!b) p.field("gpu_only", it->second.line, "'" + it->second.value + "' is not yes or no");
    step.gpu_only = b.value_or(false);
  }
  Fields gpu, cpu;
  for (const auto& [k, e] : fields)
    if (!starts_with(k, "cpu.")) gpu[k] = cpu[k] = e;
  for (const auto& [k, e] : fields)
    if (starts_with(k, "cpu.")) cpu[k.substr(4)] = e;
  step.gpu = StepReader(gpu, p, path, preset_dir, false).read();
  // The CPU plan repeats the CUDA plan's problems; only its own are added.
  std::vector<std::string> cpu_problems;
  Problems pc(cpu_problems, path);
  pc.set_step(index, sec.title, sec.line);
  step.cpu = StepReader(cpu, pc, path, preset_dir, step.gpu_only).read();
  for (const auto& c : cpu_problems) p.add_unique(c);
  return step;
}

}  // namespace

LessonError::LessonError(std::vector<std::string> problems)
    : std::runtime_error(problems.empty() ? "lesson error" : problems.front()),
      problems_(std::move(problems)) {}

const std::vector<std::string>& step_keys() {
  static const std::vector<std::string> keys = all_keys();
  return keys;
}

Lesson parse_lesson(const std::string& text, const std::string& path, const PathConfig& paths) {
  const std::string preset_dir = presets::preset_dir(paths);
  std::vector<std::string> problems;
  Problems p(problems, path);
  Lesson lesson;
  lesson.path = path;
  std::vector<Section> sections;
  std::istringstream in(text);
  std::string line;
  int ln = 0;
  bool in_code = false;
  while (std::getline(in, line)) {
    ++ln;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (fence(line)) in_code = !in_code;
    if (!in_code) {
      if (auto title = step_heading(line)) {
        sections.push_back({*title, ln, {}});
        continue;
      }
      if (starts_with(line, "# ") && lesson.title.empty() && sections.empty()) {
        lesson.title = trim(line.substr(2));
        continue;
      }
    }
    if (sections.empty())
      lesson.intro += line + "\n";
    else
      sections.back().body.push_back({ln, line});
  }
  if (lesson.title.empty()) p.file(1, "no title: the file should start with '# Lesson title'");
  if (sections.empty())
    p.file(ln, "no steps: each step starts with a line '## Step: title' (docs/lessons.md)");
  for (size_t i = 0; i < sections.size(); ++i)
    lesson.steps.push_back(read_section(sections[i], static_cast<int>(i + 1), p, path, preset_dir));
  if (!problems.empty()) throw LessonError(problems);
  return lesson;
}

Lesson load_lesson_file(const std::string& path, const PathConfig& paths) {
  std::string text;
  try {
    text = read_file(path, 4u << 20);
  } catch (const std::exception& e) {
    throw LessonError({std::string(e.what())});
  }
  return parse_lesson(text, path, paths);
}

std::string lesson_dir(const PathConfig& paths) {
  // The shipped data's folder (io/data_dir.h): beside the binary in a build
  // tree, share/cudaviz when installed; never the source tree.
  const io::DataDir d = io::find_data_dir(paths.assets);
  return d.path.empty() ? "" : (fs::path(d.path) / "lessons").string();
}

std::vector<std::string> shipped_lessons(const PathConfig& paths) {
  std::vector<std::string> files;
  const std::string dir = lesson_dir(paths);
  if (dir.empty()) return files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file(ec) && e.path().extension() == ".md") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace cv::lessons

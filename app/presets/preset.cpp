#include "presets/preset.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "bench/bench.h"
#include "timing/frame_pacing.h"
#include "io/atomic_file.h"
#include "ui/lab_panel.h"
#include "usercode/compile/compile.h"
#include "usercode/templates/template_registry.h"

namespace cv::presets {

std::vector<std::string> Report::skipped() const {
  std::vector<std::string> all = unknown;
  all.insert(all.end(), invalid.begin(), invalid.end());
  return all;
}

namespace {

using nlohmann::json;

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

// A value for a message: its JSON type and a short rendering.
std::string describe(const json& v) {
  std::string text = v.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return std::string(v.type_name()) + " " + text;
}

std::string range_text(double lo, double hi) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "[%g, %g]", lo, hi);
  return buf;
}

// Reads typed values at JSON paths, reporting what it cannot use.
class Reader {
 public:
  explicit Reader(Report& r) : r_(r) {}

  void invalid(const std::string& path, const std::string& why) {
    r_.invalid.push_back(path + ": " + why);
  }
  void wrong_type(const std::string& path, const char* expected, const json& v) {
    invalid(path, std::string("expected ") + expected + ", got " + describe(v));
  }

  // True when `j` is an object; its keys outside `known` go to the report.
  bool object(const json& j, const std::string& path, const std::set<std::string>& known) {
    if (!j.is_object()) {
      wrong_type(path, "an object", j);
      return false;
    }
    for (auto it = j.begin(); it != j.end(); ++it)
      if (!known.count(it.key())) r_.unknown.push_back(join(path, it.key()) + ": unknown key");
    return true;
  }

  std::optional<double> number(const json& v, const std::string& path, double lo, double hi) {
    if (!v.is_number()) {
      wrong_type(path, "a number", v);
      return std::nullopt;
    }
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < lo || d > hi) {
      invalid(path, v.dump() + " is outside " + range_text(lo, hi));
      return std::nullopt;
    }
    return d;
  }

  std::optional<long long> integer(const json& v, const std::string& path, long long lo,
                                   long long hi) {
    long long i = 0;
    if (v.is_number_integer() || v.is_number_unsigned()) {
      if (v.is_number_unsigned() &&
          v.get<unsigned long long>() > static_cast<unsigned long long>(hi)) {
        invalid(path,
                v.dump() + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
        return std::nullopt;
      }
      i = v.get<long long>();
    } else if (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>() &&
               std::fabs(v.get<double>()) < 9e15) {
      i = static_cast<long long>(v.get<double>());  // 65536.0 is a whole number too
    } else {
      wrong_type(path, "a whole number", v);
      return std::nullopt;
    }
    if (i < lo || i > hi) {
      invalid(path,
              v.dump() + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
      return std::nullopt;
    }
    return i;
  }

  std::optional<bool> boolean(const json& v, const std::string& path) {
    if (!v.is_boolean()) {
      wrong_type(path, "true or false", v);
      return std::nullopt;
    }
    return v.get<bool>();
  }

  std::optional<std::string> string(const json& v, const std::string& path) {
    if (!v.is_string()) {
      wrong_type(path, "a string", v);
      return std::nullopt;
    }
    return v.get<std::string>();
  }

  // A string that must be one of `choices` (listed in the message).
  std::optional<std::string> choice(const json& v, const std::string& path,
                                    const std::vector<std::string>& choices) {
    auto s = string(v, path);
    if (!s) return std::nullopt;
    for (const auto& c : choices)
      if (*s == c) return s;
    std::string list;
    for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
    invalid(path, "'" + *s + "' is not one of " + list);
    return std::nullopt;
  }

  // [x], [x, y], [x, y, z] or "XxY"; CUDA's rules apply (device limits at apply time).
  std::optional<BlockShape> block(const json& v, const std::string& path) {
    BlockShape b;
    if (v.is_string()) {
      std::string err;
      auto parsed = parse_block_shape(v.get<std::string>(), &err);
      if (!parsed) {
        invalid(path, err);
        return std::nullopt;
      }
      b = *parsed;
    } else if (v.is_array() && !v.empty() && v.size() <= 3) {
      int* dims[] = {&b.x, &b.y, &b.z};
      for (size_t i = 0; i < v.size(); ++i) {
        auto d = integer(v[i], path + "[" + std::to_string(i) + "]", 1, 1024);
        if (!d) return std::nullopt;
        *dims[i] = static_cast<int>(*d);
      }
    } else {
      wrong_type(path, "a block shape ([x, y] or \"XxY\")", v);
      return std::nullopt;
    }
    if (auto err = validate(b)) {
      invalid(path, *err);
      return std::nullopt;
    }
    return b;
  }

 private:
  Report& r_;
};

std::vector<std::string> scene_names() {
  std::vector<std::string> v;
  for (const SceneDescriptor& s : scene_infos()) v.push_back(s.name);
  return v;
}

std::optional<Camera> parse_camera(Reader& rd, const json& j, const std::string& path) {
  if (!rd.object(j, path, {"target", "distance", "yaw", "pitch"})) return std::nullopt;
  Camera c;
  if (j.contains("target")) {
    const json& t = j["target"];
    const std::string tp = join(path, "target");
    if (!t.is_array() || t.size() != 3) {
      rd.wrong_type(tp, "[x, y, z]", t);
    } else {
      glm::vec3 v;
      bool ok = true;
      for (int i = 0; i < 3 && ok; ++i) {
        auto d = rd.number(t[i], tp + "[" + std::to_string(i) + "]", -1e6, 1e6);
        ok = d.has_value();
        if (d) v[i] = static_cast<float>(*d);
      }
      if (ok) c.target = v;
    }
  }
  if (j.contains("distance"))
    if (auto d = rd.number(j["distance"], join(path, "distance"), 0.5, 500)) c.distance = *d;
  if (j.contains("yaw"))
    if (auto d = rd.number(j["yaw"], join(path, "yaw"), -1e4, 1e4)) c.yaw = *d;
  if (j.contains("pitch"))
    if (auto d = rd.number(j["pitch"], join(path, "pitch"), -1.5, 1.5)) c.pitch = *d;
  return c;
}

// A variant as `target` names it: an older spelling ("seed") becomes the name it
// stands for, so presets saved before a rename still load.
json variant_named(const json& v, const std::string& target) {
  const bench::Target* t = bench::find_target(target);
  return t && v.is_string() ? json(bench::canonical_variant(*t, v.get<std::string>())) : v;
}

std::optional<Scene> parse_scene(Reader& rd, SceneKind kind, const json& j,
                                 const std::string& path) {
  const SceneDescriptor& info = scene_info(kind);
  std::set<std::string> known{"count", "block", "params", "camera"};
  if (!info.variants.empty()) known.insert("variant");
  for (const SceneChoice& c : info.choices) known.insert(c.key);
  if (!rd.object(j, path, known)) return std::nullopt;
  Scene s;
  if (j.contains("variant") && !info.variants.empty())
    s.variant = rd.choice(variant_named(j["variant"], info.name), join(path, "variant"), info.variants);
  for (const SceneChoice& c : info.choices)
    if (j.contains(c.key))
      if (auto v = rd.choice(j[c.key], join(path, c.key), c.values())) s.choices[c.key] = *v;
  // Per-backend limits are checked when applied; here only what no backend takes.
  if (j.contains("count"))
    s.count = rd.integer(j["count"], join(path, "count"), info.min_count, (1ll << 31) - 1);
  if (j.contains("block")) s.block = rd.block(j["block"], join(path, "block"));
  if (j.contains("params")) {
    const std::string pp = join(path, "params");
    std::set<std::string> keys;
    for (const SceneParam& k : info.params) keys.insert(k.key);
    if (rd.object(j["params"], pp, keys)) {
      for (const SceneParam& k : info.params) {
        if (!j["params"].contains(k.key)) continue;
        const json& v = j["params"][k.key];
        const std::string kp = join(pp, k.key);
        if (k.type == ParamType::Boolean) {
          if (auto b = rd.boolean(v, kp)) s.params[k.key] = *b ? 1.0 : 0.0;
        } else if (k.type == ParamType::Integer) {
          if (auto i =
                  rd.integer(v, kp, static_cast<long long>(k.min), static_cast<long long>(k.max)))
            s.params[k.key] = static_cast<double>(*i);
        } else if (auto d = rd.number(v, kp, k.min, k.max)) {
          s.params[k.key] = *d;
        }
      }
    }
  }
  if (j.contains("camera")) s.camera = parse_camera(rd, j["camera"], join(path, "camera"));
  return s;
}

std::optional<Lab> parse_lab(Reader& rd, const json& j) {
  if (!rd.object(j, "lab",
                 {"name", "variant", "n", "block", "input", "reps", "cpu_backend", "open", "run"}))
    return std::nullopt;
  Lab l;
  const std::vector<std::string> names = LabPanel::lab_names();
  if (j.contains("name")) l.name = rd.choice(j["name"], "lab.name", names);
  const bench::Target* t = l.name ? bench::find_target(*l.name) : nullptr;
  if (j.contains("variant")) {
    if (t) {
      std::vector<std::string> vs{"all"};
      vs.insert(vs.end(), t->variants.begin(), t->variants.end());
      l.variant = rd.choice(variant_named(j["variant"], t->name), "lab.variant", vs);
    } else {
      l.variant = rd.string(j["variant"], "lab.variant");  // checked against the lab when applied
    }
  }
  if (j.contains("n")) {
    if (j["n"].is_null()) {
      l.n = std::optional<long long>();
    } else if (auto n = rd.integer(j["n"], "lab.n", 1, t ? t->max_n : (1ll << 50))) {
      l.n = std::optional<long long>(*n);
    }
  }
  if (j.contains("block")) {
    if (j["block"].is_null())
      l.block = std::optional<BlockShape>();
    else if (auto b = rd.block(j["block"], "lab.block"))
      l.block = std::optional<BlockShape>(*b);
  }
  if (j.contains("input")) l.input = rd.string(j["input"], "lab.input");
  if (j.contains("reps"))
    if (auto r = rd.integer(j["reps"], "lab.reps", 0, 100000)) l.reps = static_cast<int>(*r);
  if (j.contains("cpu_backend")) l.cpu_backend = rd.boolean(j["cpu_backend"], "lab.cpu_backend");
  if (j.contains("open")) l.open = rd.boolean(j["open"], "lab.open");
  if (j.contains("run")) {
    // "none", "run", or an action of a lab (bench::LabInfo::actions), which must be the preset's
    // lab's.
    std::vector<std::string> runs{"none", "run"};
    std::map<std::string, std::string> owner;  // action -> its lab
    for (const std::string& name : names)
      for (const bench::LabAction& a : bench::find_target(name)->lab.actions)
        if (owner.emplace(a.name, name).second) runs.push_back(a.name);
    // sum3's table of document 000 was "seed_table" before the rename: still read.
    l.run = rd.choice(j["run"] == "seed_table" ? json("document_table") : j["run"], "lab.run", runs);
    if (l.run && owner.count(*l.run) && t && !t->lab.action(*l.run)) {
      rd.invalid("lab.run", "'" + *l.run + "' is " + owner[*l.run] + "'s (this preset's lab is " +
                                *l.name + ")");
      l.run.reset();
    }
  }
  return l;
}

std::optional<Sweep> parse_sweep(Reader& rd, const json& j) {
  if (!rd.object(j, "sweep", {"target", "variant", "n", "shapes"})) return std::nullopt;
  Sweep s;
  std::vector<std::string> targets;
  for (const bench::Target& t : bench::targets()) targets.push_back(t.name);
  const auto target =
      j.contains("target") ? rd.choice(j["target"], "sweep.target", targets) : std::nullopt;
  if (!target) {
    if (!j.contains("target")) rd.invalid("sweep.target", "missing (a scene or lab name)");
    return std::nullopt;  // a table without its target means nothing
  }
  s.target = *target;
  const bench::Target* t = bench::find_target(s.target);
  if (j.contains("variant"))
    s.variant = rd.choice(variant_named(j["variant"], t->name), "sweep.variant", t->variants);
  if (j.contains("n")) s.n = rd.integer(j["n"], "sweep.n", 1, t->max_n);
  if (j.contains("shapes")) {
    if (!j["shapes"].is_array()) {
      rd.wrong_type("sweep.shapes", "an array of block shapes", j["shapes"]);
    } else {
      for (size_t i = 0; i < j["shapes"].size(); ++i)
        if (auto b = rd.block(j["shapes"][i], "sweep.shapes[" + std::to_string(i) + "]"))
          s.shapes.push_back(*b);
    }
  }
  return s;
}

std::optional<Kernel> parse_kernel(Reader& rd, const json& j) {
  if (!rd.object(j, "kernel", {"template", "source", "file", "checked"})) return std::nullopt;
  Kernel k;
  if (!j.contains("source")) {
    rd.invalid("kernel.source", "missing (the kernel's text)");
    return std::nullopt;
  }
  auto src = rd.string(j["source"], "kernel.source");
  if (!src) return std::nullopt;
  if (src->size() > usercode::kMaxSourceBytes) {
    rd.invalid("kernel.source", std::to_string(src->size()) + " bytes; a kernel may be at most " +
                                    std::to_string(usercode::kMaxSourceBytes));
    return std::nullopt;
  }
  k.source = std::move(*src);
  if (j.contains("template")) {
    std::vector<std::string> names;
    for (const usercode::TemplateEntry& t : usercode::template_entries()) names.push_back(t.name);
    k.template_name = rd.choice(j["template"], "kernel.template", names);
  }
  if (j.contains("file")) k.file = rd.string(j["file"], "kernel.file");
  if (j.contains("checked")) k.checked = rd.boolean(j["checked"], "kernel.checked");
  return k;
}

}  // namespace

Preset parse_preset(const json& j, Report& report) {
  if (!j.is_object())
    throw PresetError(std::string("the preset must be a JSON object, not ") + j.type_name());
  Reader rd(report);
  Preset p;
  rd.object(j, "", {"version", "app", "description", "scene", "ui", "scenes", "lab", "sweep", "kernel"});
  if (!j.contains("version")) {
    report.notes.push_back("no \"version\": read as version " + std::to_string(kVersion));
  } else if (auto v = rd.integer(j["version"], "version", 1, 1 << 30)) {
    p.version = static_cast<int>(*v);
    if (p.version > kVersion)
      report.notes.push_back("written by a newer cudaviz (version " + std::to_string(p.version) +
                             ", this is " + std::to_string(kVersion) +
                             "): loaded what this version understands");
    else if (p.version < kVersion)
      report.notes.push_back("an older preset (version " + std::to_string(p.version) + ")");
  }
  if (j.contains("app")) rd.string(j["app"], "app");
  if (j.contains("description"))
    if (auto d = rd.string(j["description"], "description")) p.description = *d;
  if (j.contains("scene"))
    if (auto s = rd.choice(j["scene"], "scene", scene_names())) p.scene = cv::parse_scene(*s);
  if (j.contains("ui") && rd.object(j["ui"], "ui",
                                    {"scale", "high_contrast", "panels_hidden", "paused", "vsync",
                                     "fps_cap", "colour_by"})) {
    const json& u = j["ui"];
    if (u.contains("scale"))
      if (auto s = rd.number(u["scale"], "ui.scale", kMinUiScale, kMaxUiScale))
        p.ui.scale = static_cast<float>(*s);
    if (u.contains("high_contrast"))
      p.ui.high_contrast = rd.boolean(u["high_contrast"], "ui.high_contrast");
    if (u.contains("panels_hidden"))
      p.ui.panels_hidden = rd.boolean(u["panels_hidden"], "ui.panels_hidden");
    if (u.contains("paused")) p.ui.paused = rd.boolean(u["paused"], "ui.paused");
    if (u.contains("colour_by"))
      p.ui.colour_by =
          rd.choice(u["colour_by"], "ui.colour_by", {"normal", "block", "warp", "thread", "sm"});
    if (u.contains("vsync")) p.ui.vsync = rd.boolean(u["vsync"], "ui.vsync");
    if (u.contains("fps_cap"))
      if (auto c = rd.number(u["fps_cap"], "ui.fps_cap", 0, pacing::kMaxFpsCap)) {
        const auto cap = static_cast<long long>(*c);
        if (auto err = pacing::check_fps_cap(cap); err || cap != *c)
          rd.invalid("ui.fps_cap", err ? *err : u["fps_cap"].dump() + " is not a whole number");
        else
          p.ui.fps_cap = static_cast<int>(cap);
      }
  }
  if (j.contains("scenes")) {
    std::set<std::string> names;
    for (const SceneDescriptor& s : scene_infos()) names.insert(s.name);
    if (rd.object(j["scenes"], "scenes", names))
      for (const SceneDescriptor& s : scene_infos())
        if (j["scenes"].contains(s.name))
          p.scene_of(s.kind) = parse_scene(rd, s.kind, j["scenes"][s.name], join("scenes", s.name));
  }
  if (j.contains("lab")) p.lab = parse_lab(rd, j["lab"]);
  if (j.contains("sweep")) p.sweep = parse_sweep(rd, j["sweep"]);
  if (j.contains("kernel")) p.kernel = parse_kernel(rd, j["kernel"]);
  return p;
}

Preset load_preset_file(const std::string& path, Report& report) {
  std::string text;
  try {
    text = read_file(path, kMaxFileBytes);
  } catch (const std::exception& e) {
    throw PresetError(e.what());
  }
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {  // syntax, and numbers out of range (1e2222...)
    throw PresetError("'" + path + "' is not valid JSON: " + e.what());
  }
  try {
    return parse_preset(j, report);
  } catch (const PresetError& e) {
    throw PresetError("'" + path + "': " + e.what());
  }
}

namespace {

// The shortest decimal that reads back as the same float, so files say 0.0001
// rather than 9.99999974737875e-05.
double tidy(float f) {
  char buf[32];
  for (int digits = 1; digits <= 9; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, f);
    if (std::strtof(buf, nullptr) == f) break;
  }
  return std::strtod(buf, nullptr);
}

nlohmann::ordered_json block_json(const BlockShape& b) {
  if (b.z != 1) return {b.x, b.y, b.z};
  return {b.x, b.y};
}

nlohmann::ordered_json ui_json(const Ui& u) {
  nlohmann::ordered_json ui = nlohmann::ordered_json::object();
  if (u.scale) ui["scale"] = tidy(*u.scale);
  if (u.high_contrast) ui["high_contrast"] = *u.high_contrast;
  if (u.panels_hidden) ui["panels_hidden"] = *u.panels_hidden;
  if (u.paused) ui["paused"] = *u.paused;
  if (u.colour_by) ui["colour_by"] = *u.colour_by;
  if (u.vsync) ui["vsync"] = *u.vsync;
  if (u.fps_cap) ui["fps_cap"] = *u.fps_cap;
  return ui;
}

// In the table's order, typed as the table says, so files read naturally.
nlohmann::ordered_json params_json(const Scene& s, SceneKind kind) {
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const SceneParam& k : scene_info(kind).params) {
    auto it = s.params.find(k.key);
    if (it == s.params.end()) continue;
    if (k.type == ParamType::Boolean)
      params[k.key] = it->second != 0.0;
    else if (k.type == ParamType::Integer)
      params[k.key] = static_cast<long long>(it->second);
    else
      params[k.key] = tidy(static_cast<float>(it->second));
  }
  return params;
}

nlohmann::ordered_json camera_json(const Camera& cam) {
  nlohmann::ordered_json c = nlohmann::ordered_json::object();
  if (const auto& t = cam.target) c["target"] = {tidy(t->x), tidy(t->y), tidy(t->z)};
  if (cam.distance) c["distance"] = tidy(*cam.distance);
  if (cam.yaw) c["yaw"] = tidy(*cam.yaw);
  if (cam.pitch) c["pitch"] = tidy(*cam.pitch);
  return c;
}

nlohmann::ordered_json scene_json(const Scene& s, SceneKind kind) {
  nlohmann::ordered_json o = nlohmann::ordered_json::object();
  if (s.variant) o["variant"] = *s.variant;
  for (const SceneChoice& c : scene_info(kind).choices)  // in the descriptor's order
    if (auto it = s.choices.find(c.key); it != s.choices.end()) o[c.key] = it->second;
  if (s.count) o["count"] = *s.count;
  if (s.block) o["block"] = block_json(*s.block);
  if (!s.params.empty()) o["params"] = params_json(s, kind);
  if (s.camera) o["camera"] = camera_json(*s.camera);
  return o;
}

nlohmann::ordered_json lab_json(const Lab& l) {
  nlohmann::ordered_json o = nlohmann::ordered_json::object();
  if (l.name) o["name"] = *l.name;
  if (l.variant) o["variant"] = *l.variant;
  if (l.n) o["n"] = *l.n ? nlohmann::ordered_json(**l.n) : nlohmann::ordered_json(nullptr);
  if (l.block) o["block"] = *l.block ? block_json(**l.block) : nlohmann::ordered_json(nullptr);
  if (l.input) o["input"] = *l.input;
  if (l.reps) o["reps"] = *l.reps;
  if (l.cpu_backend) o["cpu_backend"] = *l.cpu_backend;
  if (l.open) o["open"] = *l.open;
  if (l.run) o["run"] = *l.run;
  return o;
}

nlohmann::ordered_json sweep_json(const Sweep& sw) {
  nlohmann::ordered_json o;
  o["target"] = sw.target;
  if (sw.variant) o["variant"] = *sw.variant;
  if (sw.n) o["n"] = *sw.n;
  o["shapes"] = nlohmann::ordered_json::array();
  for (const BlockShape& b : sw.shapes) o["shapes"].push_back(to_string(b));
  return o;
}

}  // namespace

nlohmann::ordered_json to_json(const Preset& p) {
  nlohmann::ordered_json j;
  j["version"] = kVersion;
  j["app"] = "cudaviz";
  if (!p.description.empty()) j["description"] = p.description;
  if (p.scene) j["scene"] = scene_info(*p.scene).name;
  const nlohmann::ordered_json ui = ui_json(p.ui);
  if (!ui.empty()) j["ui"] = ui;
  nlohmann::ordered_json scenes = nlohmann::ordered_json::object();
  for (const SceneDescriptor& info : scene_infos()) {
    if (const auto& s = p.scene_of(info.kind)) scenes[info.name] = scene_json(*s, info.kind);
  }
  if (!scenes.empty()) j["scenes"] = scenes;
  if (p.lab) j["lab"] = lab_json(*p.lab);
  if (p.sweep) j["sweep"] = sweep_json(*p.sweep);
  if (p.kernel) {
    nlohmann::ordered_json k;
    if (p.kernel->template_name) k["template"] = *p.kernel->template_name;
    if (p.kernel->file) k["file"] = *p.kernel->file;
    if (p.kernel->checked) k["checked"] = *p.kernel->checked;
    k["source"] = p.kernel->source;
    j["kernel"] = k;
  }
  return j;
}

void save_preset_file(const std::string& path, const Preset& p) {
  write_file_atomically(path, to_json(p).dump(2) + "\n");
}

std::string sweep_command(const Sweep& s) {
  if (s.target.empty()) return "";
  std::string cmd = "cudaviz sweep " + s.target;
  if (s.variant) cmd += " --variant " + *s.variant;
  if (s.n) cmd += " --n " + std::to_string(*s.n);
  if (!s.shapes.empty()) {
    cmd += " --shapes ";
    for (size_t i = 0; i < s.shapes.size(); ++i) cmd += (i ? "," : "") + to_string(s.shapes[i]);
  }
  return cmd;
}

}  // namespace cv::presets

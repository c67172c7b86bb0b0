#pragma once
// Presets: the app's state as a JSON document with a "version" field, and the
// reading that loads what it understands. Every field is optional: a missing
// one keeps the app's current value; an unknown key or a value of the wrong
// type or range is skipped and named by its JSON path in the Report. No GL
// here: parsing and writing are plain data (see preset_apply.h for the app).
//
//   { "version": 1, "description": "...", "scene": "fountain",
//     "ui": {"scale": 2, "high_contrast": true, "panels_hidden": false, "paused": false,
//            "vsync": true, "fps_cap": 0, "colour_by": "warp"},
//     "scenes": {"fountain": {"variant": "lean", "count": 65536, "block": [16, 16],
//                             (and the scene's choices: nbody "initial", "fast_build"),
//                             "params": {"gravity": 1e-4, ...},
//                             "camera": {"target": [0, 0.8, 0], "distance": 9,
//                                        "yaw": 0.6, "pitch": 0.3}}},
//     "lab": {"name": "sum3", "variant": "all", "n": null, "block": null, "input": "",
//             "reps": 0, "cpu_backend": false, "open": true, "run": "document_table"},
//     "sweep": {"target": "fountain", "variant": "original", "n": 65536,
//               "shapes": ["1x1", "16x16", "256x1"]},
//     "kernel": {"template": "fountain_kernel", "source": "// template: ...", "file": "k.cu",
//                "checked": false} }
#include <glm/glm.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "registry/scene_registry.h"
#include "ui/presentation.h"

namespace cv::presets {

constexpr int kVersion = 1;
using cv::kMaxUiScale;  // the range lives with the presentation (ui/presentation.h)
using cv::kMinUiScale;
// A preset is a few kilobytes; anything this large is the wrong file.
constexpr size_t kMaxFileBytes = 16u << 20;

struct Camera {
  std::optional<glm::vec3> target;
  std::optional<float> distance, yaw, pitch;
};

struct Scene {
  std::optional<std::string> variant;
  // The descriptor's choices (SceneChoice), e.g. n-body's "initial" and "fast_build".
  std::map<std::string, std::string> choices;
  std::optional<long long> count;
  std::optional<BlockShape> block;
  std::map<std::string, double> params;  // the descriptor's param keys, already range-checked
  std::optional<Camera> camera;
};

struct Ui {
  std::optional<float> scale;
  std::optional<bool> high_contrast, panels_hidden, paused;
  std::optional<std::string> colour_by;  // normal, block, warp, thread, sm
  std::optional<bool> vsync;   // frame pacing (timing/frame_pacing.h)
  std::optional<int> fps_cap;  // 0 (none) or kMinFpsCap..kMaxFpsCap
};

// The labs window's fields. For `n` and `block` a null in the file (the lab's
// default) reads as a present-but-empty value.
struct Lab {
  std::optional<std::string> name, variant, input, run;  // run: "none", "run" or a lab action
  std::optional<std::optional<long long>> n;             // inner nullopt: the lab's default
  std::optional<std::optional<BlockShape>> block;
  std::optional<int> reps;
  std::optional<bool> cpu_backend, open;
};

// A block-shape table to reproduce (the reference documents' tables): what `cudaviz sweep` runs.
struct Sweep {
  std::string target;
  std::optional<std::string> variant;
  std::optional<long long> n;
  std::vector<BlockShape> shapes;
};

// The student's kernel (docs/kernels.md), source embedded.
struct Kernel {
  std::optional<std::string> template_name;  // "template": else the source's first line
  std::string source;
  std::optional<std::string> file;  // the name it was loaded from (messages name it)
  std::optional<bool> checked;
};

struct Preset {
  int version = kVersion;
  std::string description;
  std::optional<SceneKind> scene;  // the current scene
  std::vector<std::optional<Scene>> scenes;  // by SceneKind::index; see scene_of
  Ui ui;
  std::optional<Lab> lab;
  std::optional<Sweep> sweep;
  std::optional<Kernel> kernel;

  std::optional<Scene>& scene_of(SceneKind k) {
    if (scenes.size() <= static_cast<size_t>(k.index)) scenes.resize(k.index + 1);
    return scenes[k.index];
  }
  const std::optional<Scene>& scene_of(SceneKind k) const {
    static const std::optional<Scene> none;  // a constant: a scene the preset does not name
    return static_cast<size_t>(k.index) < scenes.size() ? scenes[k.index] : none;
  }
};

// What loading left out, by JSON path ("scenes.fountain.params.gravity: ...").
struct Report {
  std::vector<std::string> unknown;  // keys this version does not know (newer file?)
  std::vector<std::string> invalid;  // wrong type, out of range, or not applicable here
  std::vector<std::string> notes;    // e.g. the file's version differs from this one
  bool clean() const { return unknown.empty() && invalid.empty(); }
  std::vector<std::string> skipped() const;  // unknown then invalid
};

// A preset file that cannot be used at all: missing, unreadable, not JSON, not
// an object. The message names the file and the problem.
class PresetError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads what it understands from `j` (throws PresetError unless it is an object).
Preset parse_preset(const nlohmann::json& j, Report& report);
// Reads and parses a file; `report` gets what was skipped.
Preset load_preset_file(const std::string& path, Report& report);

nlohmann::ordered_json to_json(const Preset& p);
// Writes atomically (temporary file + rename); throws std::runtime_error naming the path.
void save_preset_file(const std::string& path, const Preset& p);

// "cudaviz sweep ..." for the preset's table, or "" without one.
std::string sweep_command(const Sweep& s);

}  // namespace cv::presets

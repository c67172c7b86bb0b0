#pragma once
// The scene registry: every scene is one SceneDescriptor, registered once from
// its own files (`const SceneRegistrar reg(...)`, like bench::Registrar for the
// labs). The command line, the hotkeys, the scene menu, presets, lessons, the
// soak, the memory check and the notices read it; nothing else lists scenes.
// Plain data plus a factory: no GL, no ImGui, so every layer may read it.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "common/device_info.h"
#include "insight/access_model.h"

namespace cv {

class ParticleScene;
struct TransferConfig;  // config/interop_setting.h: how its vertex buffers reach GL

// A registered scene's place in the registry (sorted by hotkey): an index, so
// per-scene state (SceneSet's slots, a preset's scenes) is a vector.
struct SceneKind {
  int index = 0;
  bool operator==(const SceneKind& o) const { return index == o.index; }
  bool operator!=(const SceneKind& o) const { return index != o.index; }
  bool operator<(const SceneKind& o) const { return index < o.index; }
};

// One tunable of a scene: the slider in its panel, the preset's and lesson's
// "params" key and its range are this one entry.
enum class ParamType { Number, Integer, Boolean };
struct SceneParam {
  const char* key;  // preset / lesson name, e.g. "gravity"
  ParamType type = ParamType::Number;
  // What a preset or lesson may set (inclusive), a little wider than the slider
  // so a value typed with ctrl+click still saves and loads. Unused for Boolean.
  double min = 0, max = 0;
  // The slider's drag range (inside min..max); both 0: min..max.
  double slider_min = 0, slider_max = 0;
  const char* format = "%.3g";  // the slider's printf format
  const char* label = nullptr;  // the slider's label; nullptr: the key
  const char* help = "";        // the slider's tooltip
  bool logarithmic = false;
};

// A named setting beyond count and variant that a preset carries as a string
// (n-body's "initial" and "fast_build"): its key and the values it accepts.
struct SceneChoice {
  const char* key;
  std::function<std::vector<std::string>()> values;
  bool rebuilds = false;  // goes to ParticleScene::rebuild_for, else to set_choice
};

struct SceneDescriptor {
  const char* name = "";   // --scene, the preset's "scene", lessons
  const char* label = "";  // the menu and the help overlay, e.g. "n-body"
  int hotkey = 0;          // 1..9: the key that switches to it; also its place in the menu
  std::vector<std::string> variants;  // --variant spellings; empty: none
  std::string default_variant;
  const char* count_noun = "particles";  // messages: "65536 particles"
  const char* usage_note = "";           // after its variants in the usage text: "1D block"
  long long min_count = 1;
  std::function<long long(Backend)> max_count;
  std::function<long long(Backend)> default_count;
  // Device bytes per element for the memory check (scenes/scene_memory.h).
  std::function<long long(const std::optional<std::string>& variant)> bytes_per_element;
  std::vector<SceneParam> params;
  std::vector<SceneChoice> choices;
  const char* notice = "";  // "what to notice" in the scene's panel
  // Insight: the memory view's model of its kernel's accesses for the scene's
  // variant (--variant's spelling), count and block (insight/access_model.h;
  // ParticleScene::access_kernel); unset: not modelled.
  std::function<std::optional<insight::AccessKernel>(const std::string& variant, unsigned count,
                                                     const BlockShape& block)>
      access_model;
  // Runs a student's kernel of a template feeding it (usercode; ParticleScene::runs_user_kernels).
  bool runs_user_kernels = false;
  // The soak's two counts (soak/soak.h): with a GPU and on the CPU backend.
  unsigned soak_gpu[2] = {16384, 65536};
  unsigned soak_cpu[2] = {4096, 16384};
  // Builds the scene (needs a current GL context); count and variant were
  // checked against this descriptor (scenes/scene_factory.h).
  std::function<std::unique_ptr<ParticleScene>(Backend, unsigned count, const std::string& variant,
                                               const TransferConfig& transfer)>
      make;

  SceneKind kind;  // filled in by the registry
  std::string variants_text() const;  // "lean, original"; "" without variants
  const SceneParam* param(const std::string& key) const;
};

// Registration: refuses (throws std::logic_error, at start-up) a second scene
// of the same name or hotkey, and a descriptor without name, hotkey or factory.
class SceneRegistry {
 public:
  void add(SceneDescriptor d);
  const std::vector<SceneDescriptor>& all() const { return scenes_; }
  const SceneDescriptor* find(const std::string& name) const;
  std::optional<SceneKind> by_hotkey(int key) const;

 private:
  std::vector<SceneDescriptor> scenes_;  // sorted by hotkey
};

// The spellings of a kernel's variants (or any enum list) for `variants` and
// choices: names_of(fountain::all_variants(), fountain::to_string).
template <typename List, typename ToString>
std::vector<std::string> names_of(const List& all, ToString to_string) {
  std::vector<std::string> v;
  for (const auto& x : all) v.push_back(to_string(x));
  return v;
}

// The app's registry, filled before main() by the scenes' registrars.
SceneRegistry& scene_registry();
struct SceneRegistrar {
  explicit SceneRegistrar(SceneDescriptor d);
};

const std::vector<SceneDescriptor>& scene_infos();
const SceneDescriptor& scene_info(SceneKind k);
std::optional<SceneKind> parse_scene(const std::string& name);
std::optional<SceneKind> scene_by_hotkey(int key);
// "fountain, swarm, nbody, pi": for messages and the usage text.
std::string scene_names_text();
// The scenes' keys: "1-4" when they run on from 1, else "1,2,5".
std::string scene_keys_text();

}  // namespace cv

#include "registry/scene_registry.h"

#include <algorithm>
#include <stdexcept>

namespace cv {

std::string SceneDescriptor::variants_text() const {
  std::string s;
  for (const std::string& v : variants) s += (s.empty() ? "" : ", ") + v;
  return s;
}

const SceneParam* SceneDescriptor::param(const std::string& key) const {
  for (const SceneParam& p : params)
    if (key == p.key) return &p;
  return nullptr;
}

void SceneRegistry::add(SceneDescriptor d) {
  const std::string name = d.name ? d.name : "";
  if (name.empty()) throw std::logic_error("scene registry: a scene without a name");
  if (d.hotkey < 1 || d.hotkey > 9)
    throw std::logic_error("scene registry: " + name + "'s key " + std::to_string(d.hotkey) +
                           " is not 1..9");
  if (!d.make || !d.max_count || !d.default_count || !d.bytes_per_element)
    throw std::logic_error("scene registry: " + name +
                           " needs a factory, a count range and bytes per element");
  for (const SceneDescriptor& s : scenes_) {
    if (name == s.name) throw std::logic_error("scene registry: '" + name + "' registered twice");
    if (d.hotkey == s.hotkey)
      throw std::logic_error("scene registry: key " + std::to_string(d.hotkey) + " is " +
                             s.name + "'s, not also " + name + "'s");
  }
  if (!d.variants.empty() &&
      std::find(d.variants.begin(), d.variants.end(), d.default_variant) == d.variants.end())
    throw std::logic_error("scene registry: " + name + "'s default variant '" + d.default_variant +
                           "' is not one of its variants");
  const auto at = std::find_if(scenes_.begin(), scenes_.end(),
                               [&](const SceneDescriptor& s) { return s.hotkey > d.hotkey; });
  scenes_.insert(at, std::move(d));
  for (size_t i = 0; i < scenes_.size(); ++i) scenes_[i].kind = SceneKind{static_cast<int>(i)};
}

const SceneDescriptor* SceneRegistry::find(const std::string& name) const {
  for (const SceneDescriptor& s : scenes_)
    if (name == s.name) return &s;
  return nullptr;
}

std::optional<SceneKind> SceneRegistry::by_hotkey(int key) const {
  for (const SceneDescriptor& s : scenes_)
    if (s.hotkey == key) return s.kind;
  return std::nullopt;
}

SceneRegistry& scene_registry() {
  static SceneRegistry r;  // filled during static initialisation, read-only after
  return r;
}

SceneRegistrar::SceneRegistrar(SceneDescriptor d) { scene_registry().add(std::move(d)); }

const std::vector<SceneDescriptor>& scene_infos() { return scene_registry().all(); }

const SceneDescriptor& scene_info(SceneKind k) {
  return scene_registry().all().at(static_cast<size_t>(k.index));
}

std::optional<SceneKind> parse_scene(const std::string& name) {
  if (const SceneDescriptor* s = scene_registry().find(name)) return s->kind;
  return std::nullopt;
}

std::optional<SceneKind> scene_by_hotkey(int key) { return scene_registry().by_hotkey(key); }

std::string scene_names_text() {
  std::string s;
  for (const SceneDescriptor& d : scene_infos()) s += (s.empty() ? "" : ", ") + std::string(d.name);
  return s;
}

std::string scene_keys_text() {
  const auto& all = scene_infos();
  std::string keys;
  bool run_on = true;
  for (size_t i = 0; i < all.size(); ++i) {
    keys += (keys.empty() ? "" : ",") + std::to_string(all[i].hotkey);
    run_on = run_on && all[i].hotkey == static_cast<int>(i) + 1;
  }
  return run_on && all.size() > 1 ? "1-" + std::to_string(all.size()) : keys;
}

}  // namespace cv

#pragma once
// A name set written once: each value of an enum beside the spelling the CLI,
// presets, lessons and JSON rows use (`--variant original`), a few words for
// the combos, and an older spelling still accepted (`--variant seed`). A
// kernel folder declares its table in its header
// (`inline constexpr Named<Variant> kVariants[] = {...}`); to_string,
// parse_variant, all_variants, the bench registrar's variant list and the
// scene combos are all read from it, in its order. Constant-initialised, so
// self-registering bench targets may read it during static initialisation.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cv {

template <class E>
struct Named {
  E value;
  const char* name;              // the one spelling, as the command line takes it
  const char* description = "";  // the combo shows "name (description)"; "" for none
  const char* alias = "";        // an older spelling parse_name also takes; "" for none
};

template <class E, size_t N>
const char* name_of(const Named<E> (&table)[N], E v) {
  for (const Named<E>& r : table)
    if (r.value == v) return r.name;
  return "?";
}

template <class E, size_t N>
std::optional<E> parse_name(const Named<E> (&table)[N], const std::string& name) {
  for (const Named<E>& r : table)
    if (name == r.name || (*r.alias && name == r.alias)) return r.value;
  return std::nullopt;
}

template <class E, size_t N>
std::vector<E> values_of(const Named<E> (&table)[N]) {
  std::vector<E> v;
  for (const Named<E>& r : table) v.push_back(r.value);
  return v;
}

template <class E, size_t N>
std::vector<std::string> names_of(const Named<E> (&table)[N]) {
  std::vector<std::string> v;
  for (const Named<E>& r : table) v.emplace_back(r.name);
  return v;
}

// The older spellings and the names they stand for ({"seed", "original"}).
template <class E, size_t N>
std::vector<std::pair<std::string, std::string>> aliases_of(const Named<E> (&table)[N]) {
  std::vector<std::pair<std::string, std::string>> v;
  for (const Named<E>& r : table)
    if (*r.alias) v.emplace_back(r.alias, r.name);
  return v;
}

// The row of v (its combo index), -1 when absent.
template <class E, size_t N>
int index_of(const Named<E> (&table)[N], E v) {
  for (size_t i = 0; i < N; ++i)
    if (table[i].value == v) return static_cast<int>(i);
  return -1;
}

// "name (description)\0..." in table order, for ImGui::Combo's item string.
template <class E, size_t N>
std::string combo_items(const Named<E> (&table)[N]) {
  std::string items;
  for (const Named<E>& r : table) {
    items += r.name;
    if (*r.description) items += std::string(" (") + r.description + ")";
    items += '\0';
  }
  return items;
}

}  // namespace cv

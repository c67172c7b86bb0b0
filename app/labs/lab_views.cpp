#include "labs/lab_views.h"

#include <map>

namespace cv::labs {
namespace {

// Filled during static initialisation by the ViewsRegistrars, read-only after.
std::map<std::string, Views>& registry() {
  static std::map<std::string, Views> views;
  return views;
}

}  // namespace

ViewsRegistrar::ViewsRegistrar(const std::string& lab, Views views) {
  registry()[lab] = std::move(views);
}

const Views* find_views(const std::string& lab) {
  const auto it = registry().find(lab);
  return it == registry().end() ? nullptr : &it->second;
}

std::vector<std::string> labs_with_views() {
  std::vector<std::string> names;
  for (const auto& [name, views] : registry()) names.push_back(name);
  return names;
}

}  // namespace cv::labs

#pragma once
// A student's display name on the leaderboard: checked, never cleaned up
// silently. A refusal says which part of the rule the name breaks, then the
// whole rule (short enough to print); it never echoes the name.
#include <optional>
#include <string>

namespace cv::classvote {

constexpr size_t kMaxNameChars = 20;
inline constexpr const char* kNameRule =
    "a name has 1 to 20 characters: letters A-Z, digits, spaces, '-', '_' and '.', "
    "starting with a letter or digit";

// Why `name` is refused, or nullopt when it is a valid name.
inline std::optional<std::string> name_problem(const std::string& name) {
  auto alnum = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  auto refuse = [](const std::string& what) { return what + " (" + kNameRule + ")"; };
  if (name.empty()) return refuse("the name is empty");
  if (name.size() > kMaxNameChars)
    return refuse("the name has " + std::to_string(name.size()) + " bytes, over " +
                  std::to_string(kMaxNameChars));
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (!alnum(c) && c != ' ' && c != '-' && c != '_' && c != '.')
      return refuse("character " + std::to_string(i + 1) + " is not allowed");
  }
  if (!alnum(name.front())) return refuse("the first character is not a letter or digit");
  if (name.back() == ' ' || name.find("  ") != std::string::npos)
    return refuse("no space at the end and no two in a row");
  return std::nullopt;
}

// Two names the board would show alike ("Ada" and "ada"): one student may
// not pass for another.
inline bool same_name(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

}  // namespace cv::classvote

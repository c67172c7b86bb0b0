#pragma once
// A student's display name on the leaderboard: checked, never cleaned up
// silently. The rule is short enough to print in the refusal.
#include <optional>
#include <string>

namespace cv::classvote {

constexpr size_t kMaxNameChars = 20;
inline constexpr const char* kNameRule =
    "a name has 1 to 20 characters: letters A-Z, digits, spaces, '-', '_' and '.', "
    "starting with a letter or digit";

// Why `name` is refused (the rule), or nullopt when it is a valid name.
inline std::optional<std::string> name_problem(const std::string& name) {
  auto alnum = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  if (name.empty() || name.size() > kMaxNameChars || !alnum(name.front()) || name.back() == ' ')
    return std::string(kNameRule);
  for (char c : name)
    if (!alnum(c) && c != ' ' && c != '-' && c != '_' && c != '.') return std::string(kNameRule);
  if (name.find("  ") != std::string::npos) return std::string(kNameRule);
  return std::nullopt;
}

}  // namespace cv::classvote

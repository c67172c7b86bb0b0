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

// What a name looks like on a projector: lower case, the letters and digits
// that a board's font draws alike folded together (I l 1 i, O 0, S 5, B 8,
// Z 2, rn m, vv w, cl d), every separator the same. Only ASCII reaches here
// (name_problem), so letters of other scripts cannot pass for these.
inline std::string name_skeleton(const std::string& name) {
  std::string low;
  for (char c : name) low += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  std::string out;
  for (size_t i = 0; i < low.size(); ++i) {
    const std::string two = low.substr(i, 2);
    if (two == "rn" || two == "vv" || two == "cl") {
      out += two == "rn" ? 'm' : two == "vv" ? 'w' : 'd';
      ++i;
      continue;
    }
    char c = low[i];
    switch (c) {
      case '1': case 'i': case '|': c = 'l'; break;
      case '0': c = 'o'; break;
      case '5': c = 's'; break;
      case '8': c = 'b'; break;
      case '2': c = 'z'; break;
      case ' ': case '_': case '.': c = '-'; break;
      default: break;
    }
    out += c;
  }
  return out;
}

// Two names the board would show alike ("Ada" and "ada", "Ali" and "A1I",
// "Mia" and "rnia"): one student may not pass for another.
inline bool same_name(const std::string& a, const std::string& b) { return name_skeleton(a) == name_skeleton(b); }

}  // namespace cv::classvote

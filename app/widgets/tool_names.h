#pragma once
// The tools of the bottom strip (ui/layout.h), written once, in strip order:
// each name is the tab's label and its spelling for --panel and a lesson's
// "panel". The tab strip (Layout::tool_names), the CLI's --panel, lessons'
// check, the areas' open_panel and each panel's tab (ui::ToolTab) read this
// list; a panel names itself by its Tool. Plain data, so the command line (a
// lower layer than the panels) can check names without them.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cv::ui {

enum class Tool {
  Classroom,
  Labs,
  Occupancy,
  Device,
  Sweep,
  Frames,
  Launch,
  Memory,
  Reduction,
  Race,
  OccupancyCurve,
  Lesson,
  Challenge,
  Kernel,
  Explain,
};

struct ToolName {
  Tool tool;
  const char* name;
  // --panel NAME opens it (the labs open with --lab, the classroom with
  // --preset, the lesson with --lesson).
  bool panel_flag;
};

inline constexpr ToolName kTools[] = {
    {Tool::Classroom, "classroom", false},
    {Tool::Labs, "labs", false},
    {Tool::Occupancy, "occupancy", true},
    {Tool::Device, "device", true},
    {Tool::Sweep, "sweep", true},
    {Tool::Frames, "frames", true},
    {Tool::Launch, "launch", true},
    {Tool::Memory, "memory", true},
    {Tool::Reduction, "reduction", true},
    {Tool::Race, "race", true},
    {Tool::OccupancyCurve, "occupancy-curve", true},
    {Tool::Lesson, "lesson", false},
    {Tool::Challenge, "challenge", true},
    {Tool::Kernel, "kernel", true},
    {Tool::Explain, "explain", true},
};

inline const char* tool_name(Tool t) {
  for (const ToolName& n : kTools)
    if (n.tool == t) return n.name;
  return "?";
}

inline std::optional<Tool> parse_tool(const std::string& name) {
  for (const ToolName& n : kTools)
    if (name == n.name) return n.tool;
  return std::nullopt;
}

// The names of `tools` (an area's own), in their order.
template <size_t N>
std::vector<std::string> tool_names_of(const Tool (&tools)[N]) {
  std::vector<std::string> names;
  for (Tool t : tools) names.emplace_back(tool_name(t));
  return names;
}

// The names --panel takes, in strip order.
inline std::vector<std::string> panel_flag_names() {
  std::vector<std::string> names;
  for (const ToolName& n : kTools)
    if (n.panel_flag) names.emplace_back(n.name);
  return names;
}

}  // namespace cv::ui

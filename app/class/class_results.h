#pragma once
// The class's votes of each step, saved with the lesson's results: one row
// per step (question, choices, counts, the measured value, the verdict), as
// CSV and JSON. Pure, for tests.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cv::classvote {

struct StepVotes {
  int step = 0;
  std::string title, question, kind, unit;  // kind: choice | number
  std::vector<std::string> choices;
  std::vector<int> counts;      // choice: votes per choice
  std::vector<double> numbers;  // number: every vote
  int voted = 0, joined = 0;
  std::string measured;                 // as shown ("12.3 ms")
  std::optional<double> measured_value;
  int correct_choice = -1;
  std::string verdict;
};

// Header row, then one row per step; fields quoted where they hold a comma, a
// quote or a line break, and text that a spreadsheet would run as a formula
// (=, +, -, @ first) starts with a quote mark.
std::string to_csv(const std::vector<StepVotes>& rows);
nlohmann::ordered_json to_json(const std::vector<StepVotes>& rows);
// The median of a step's numbers (nullopt: none).
std::optional<double> median(std::vector<double> xs);

}  // namespace cv::classvote

#pragma once
// What a step's run measured, by the names a lesson file uses, and how the
// measurement answers the class's prediction. Pure: tests feed it rows.
//
//   lab and bench rows:  VARIANT.FIELD or VARIANT@N.FIELD   ("atomic.ms_median",
//                        "shared@2000.ms_median", "shared.vs.naive", "racy.correct")
//   sweep rows:          SHAPE.FIELD                         ("16x16.ms_median")
//   scene runs:          FIELD                               ("fps", "kernel_ms", "gflops")
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lessons/lesson.h"

namespace cv::lessons {

using Values = std::map<std::string, nlohmann::json>;

// The names a scene run measures (frames or seconds of the current scene).
const std::vector<std::string>& scene_value_names();

// Why `key` cannot name a value `run` measures, or nullopt. `loose`: a
// variant the run leaves out is allowed (a GPU variant on the CPU backend).
std::optional<std::string> check_value_key(const RunSpec& run, const std::string& key,
                                           bool loose = false);

// Bench rows (as `cudaviz bench` prints them) or sweep rows (with "shape"
// added) as values; nested objects flatten with dots ("vs.naive").
void add_bench_rows(const std::vector<nlohmann::ordered_json>& rows, Values& out);
void add_sweep_row(const std::string& shape, const nlohmann::ordered_json& row, Values& out);

// The value `key` names: a measured one, or "A / B", the ratio of two
// ("naive@2000.ms_median / shared@2000.ms_median": how many times faster).
std::optional<nlohmann::json> lookup(const Values& v, const std::string& key);

// "12.3 ms", "1.23 G/s", "yes"; the unit from the key's field name.
std::string format_value(const std::string& key, const nlohmann::json& v);

struct Verdict {
  bool measured = false;      // the answer's value(s) exist
  int correct_choice = -1;    // Choice: the index the measurement picks
  double value = 0;           // Number: the measured value
  bool right = false;         // the class's prediction matches
  std::string summary;        // one line for the panel, the phones and the JSON summary: words, no keys
  std::string missing;        // the value key that was not measured ("" : none), for the JSON summary
};

// `hands`: per choice; `guess`: the class's number (Number), if given.
Verdict judge(const Prediction& p, const Values& v, const std::vector<int>& hands,
              std::optional<double> guess);

}  // namespace cv::lessons

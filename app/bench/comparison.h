#pragma once
// "Yours" against the built-ins, in words that say which way: the built-in of
// the same algorithm (bench/algorithm_families.h) and the fastest built-in,
// the spread of the reps (min, median, max) and the guard's share ("guard: +6%"
// from a guarded and an unguarded timing of the same kernel). Used by bench
// kernel's JSON, the labs table and the kernel tab; no timing happens here.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/algorithm_families.h"

namespace cv::bench {

struct Spread {
  double min_ms = 0, median_ms = 0, max_ms = 0;
  int reps = 0;
};
Spread spread_of(std::vector<double> ms);  // all zero when empty
// "0.412 ms (min 0.401, max 0.530, 200 reps)"; `unit` names what was counted.
std::string spread_words(const Spread& s, const char* unit = "reps");
nlohmann::ordered_json to_json(const Spread& s);

// "1.90x slower than the built-in tiled", "1.25x faster than ...", "as fast as ..."
// (when the ratio rounds to 1.00x). Throws std::invalid_argument for a time <= 0.
std::string speed_words(double yours_ms, double builtin_ms, const std::string& builtin_variant);

// The guard's share of the guarded time, in percent over the unguarded
// (+6 for 1.06x); nullopt when either is missing (<= 0).
std::optional<double> guard_percent(double guarded_ms, double unguarded_ms);
// "guard: +6%" ("guard: -1%" when the guarded run measured faster: noise).
std::string guard_words(double percent);

struct BuiltinTime {
  std::string variant;
  double median_ms = 0;
};

struct Comparison {
  AlgorithmMatch match;
  std::optional<std::string> same_words;     // against the same algorithm's built-in
  std::optional<std::string> fastest_words;  // against the fastest (when another, or no match)
  std::string fastest_variant;
  std::optional<std::string> guard;          // "guard: +6%"
  std::vector<std::string> lines() const;    // what the tab and the table show, in order
};

// `builtins`: the built-in variants timed beside yours (same n, block, backend).
// `guard_ratio`: yours guarded over unguarded, timed in turns (bench_kernel.cpp
// add_unguarded); <= 0: not measured.
Comparison compare(const std::string& target, const KernelTraits& yours, double yours_ms,
                   const std::vector<BuiltinTime>& builtins, double guard_ratio = 0);
nlohmann::ordered_json to_json(const Comparison& c, const KernelTraits& yours);

// A bench JSON row's cells for the labs table: "0.412 [0.401-0.530]" from
// ms_min/ms_median/ms_max ("0.412 [min 0.401]" for a row without ms_max), and the comparison's lines joined by "; " (a row
// without "compare": "" so the caller shows its vs ratios).
std::string spread_cell(const nlohmann::ordered_json& row);
std::string compare_cell(const nlohmann::ordered_json& row);

}  // namespace cv::bench

#pragma once
// The block-shape sweep shared by `cudaviz sweep` and the sweep window: the
// same plan (target, variant, backend), the same per-shape run through the
// bench target, the same rows and the same CSV, so the CLI and the UI agree.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench.h"
#include "cli.h"
#include "common/block_shape.h"
#include "common/device_info.h"

namespace cv::tuning {

// The reference documents' tables (004: fps per block shape).
inline constexpr const char* kDefaultShapes = "1x1,2x2,4x4,8x8,16x16,32x8,32x16,256x1,1x256";

// "8x8,16x16,256x1": shapes separated by commas, dimensions by 'x'. Each is
// checked against `lim` (CUDA's rules by default). Throws UsageError naming the
// bad value and the limit.
std::vector<BlockShape> parse_shape_list(const std::string& text, const BlockLimits& lim = {});

struct SweepPlan {
  const bench::Target* target = nullptr;
  std::string variant;
  Backend backend = Backend::Cpu;
  std::optional<long long> n;
  int reps = 0;
  std::string backend_flag = "auto";
  std::string note;  // why this variant, when it was not named
};

// The variant a sweep runs when none is named: the target's default, or on the
// CPU backend its multi-threaded CPU variant when the default needs CUDA.
std::string default_sweep_variant(const bench::Target& t, Backend backend);

// Resolves target, variant and backend from the options (shapes and csv are
// not looked at). Throws UsageError with what to do instead, e.g. which
// --variant runs on the CPU backend.
SweepPlan plan_sweep(const SweepOptions& opt);

struct SweepRow {
  BlockShape shape;
  bool ok = false;
  std::string error;            // refused: why (the kernel's or the device's limit)
  nlohmann::ordered_json json;  // as `cudaviz sweep` prints it (refused rows carry "refused")
  double ms_median = 0, ms_min = 0;
};

// Runs the plan's target with one block shape. A shape the device or the kernel
// refuses (a limit, a launch-configuration error) gives one refused row; other
// failures throw (CudaError, UsageError, bench::Cancelled when cancelled).
std::vector<SweepRow> run_shape(const SweepPlan& plan, const BlockShape& shape,
                                RunControl* control = nullptr);

std::string csv_header();                 // ends with '\n'
std::string csv_line(const SweepRow& r);  // ends with '\n'
// Writes header and rows to `path` through a temporary name and a rename, so
// the file is complete or absent. Returns the error (with the path) or nullopt.
std::optional<std::string> write_csv(const std::string& path, const std::vector<SweepRow>& rows);

// `cudaviz sweep` (tuning/sweep_command.cpp): runs every shape, prints JSON
// lines, writes the CSV. Returns the process exit code.
int run_sweep(const SweepOptions& opt, std::ostream& out, std::ostream& err);

}  // namespace cv::tuning

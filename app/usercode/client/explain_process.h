#pragma once
// Starting cudaviz-explain (explain_main.cpp) and reading its one JSON object:
// a crash, an abort or an endless loop in the student's kernel ends only
// that process; past the time limit it is killed and the reason says so.
#include <nlohmann/json.hpp>
#include <string>

#include "usercode/emu/explain_request.h"

namespace cv::emu {

struct ExplainOutcome {
  bool ran = false;        // the process answered with JSON
  nlohmann::json reply;    // its object (ok, error, explain, ...)
  std::string error;       // why there is no reply (not found, crashed: the signal, timed out)
};

// The helper beside the running binary, in ../lib/cudaviz, or the build's; "" when none.
std::string find_explain_helper(const std::string& build_path);
// Writes the request's files to a private directory under req.tmpdir (removed
// after) and runs `helper --request DIR/request.json --blob DIR/launch.bin`.
ExplainOutcome run_explain_process(const std::string& helper, const ExplainRequest& req);
// The helper's --sync-costs: {"barrier_ns_per_thread", "shuffle_ns_per_thread"}.
ExplainOutcome run_sync_costs_process(const std::string& helper, const std::string& cxx,
                                      const std::string& tmpdir, double time_limit_s = 30);

}  // namespace cv::emu

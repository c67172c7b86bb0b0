#pragma once
// Starting cudaviz-explain (explain/explain_main.cpp) and reading its one
// reply: a crash, an abort or an endless loop in the student's kernel ends
// only that process; past the time limit it is killed and the reason says
// so. The request and the reply are frames of wire/protocol.h on a
// socketpair (process/helper_process.h), as the runner's are.
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
// Starts `helper --socket 3`, sends the request (explain_request.h) and reads the reply.
ExplainOutcome run_explain_process(const std::string& helper, const ExplainRequest& req);
// The helper's sync-costs request: {"barrier_ns_per_thread", "shuffle_ns_per_thread"}.
ExplainOutcome run_sync_costs_process(const std::string& helper, const std::string& cxx,
                                      const std::string& tmpdir, double time_limit_s = 30);

}  // namespace cv::emu

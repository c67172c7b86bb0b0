// The replies every executor shares (runner_executor.h).
#include "usercode/runner/runner_executor.h"

namespace cv::usercode::runner {

nlohmann::json error_reply(const std::string& name, const std::string& message, bool fatal) {
  return {{"ok", false}, {"error_name", name}, {"error", message}, {"fatal", fatal}};
}

nlohmann::json out_of_range_json(const FaultRecord& r) {
  return {{"index", r.index},
          {"size", r.size},
          {"line", r.line},
          {"thread", {r.thread[0], r.thread[1], r.thread[2]}},
          {"block", {r.block[0], r.block[1], r.block[2]}}};
}

}  // namespace cv::usercode::runner

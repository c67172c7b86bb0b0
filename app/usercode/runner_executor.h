#pragma once
// Inside cudaviz-runner: what runs the student's kernel. One executor per
// backend (runner_gpu.cpp: driver API in the runtime's primary context;
// runner_cpu.cpp: the host-compiled .so on threads). Requests and replies are
// the JSON of runner_protocol.h; a reply {"ok": false, "fatal": true} means
// the CUDA context is unusable and the runner ends after sending it.
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "fountain/fountain_math.h"
#include "usercode/runner_protocol.h"

namespace cv::usercode::runner {

class Executor {
 public:
  virtual ~Executor() = default;
  virtual nlohmann::json hello() = 0;
  virtual nlohmann::json load(const wire::Frame& req) = 0;
  virtual nlohmann::json share(const wire::Frame& req) = 0;  // one fd: map buffer `id`
  virtual nlohmann::json fountain(const wire::Frame& req, std::vector<char>& blob) = 0;
  virtual nlohmann::json count3(const wire::Frame& req) = 0;
  virtual nlohmann::json pi(const wire::Frame& req) = 0;
  virtual nlohmann::json occupancy(const wire::Frame& req) = 0;
};

std::unique_ptr<Executor> make_gpu_executor();  // throws std::runtime_error: no device
std::unique_ptr<Executor> make_cpu_executor();

// Shared request decoding.
fountain::Params params_from(const nlohmann::json& a);
fountain::Frame frame_from(const nlohmann::json& a);
nlohmann::json error_reply(const std::string& name, const std::string& message, bool fatal);

// The checked-mode record the prelude's accessors fill (same layout as cv::FaultRecord).
struct FaultRecord {
  int hit, line;
  long long index, size;
  unsigned thread[3], block[3];
};
nlohmann::json out_of_range_json(const FaultRecord& r);

}  // namespace cv::usercode::runner

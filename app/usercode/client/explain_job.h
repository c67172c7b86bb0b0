#pragma once
// One explain at a time off the UI thread (the kernel tab's "explain"
// button): the request the app builds (usercode/client/explain_launch.h) is run by
// cudaviz-explain (explain_process.h); the newest finished result stays
// readable, numbered, so a view notices a new one.
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "usercode/emu/explain_request.h"
#include "usercode/emu/explain_types.h"

namespace cv::emu {

struct ExplainResult {
  uint64_t version = 0;          // 1, 2, ... per finished explain
  bool ok = false;
  std::string error;             // compile error, barrier not reached, crash, ... (a sentence)
  int error_line = 0;
  std::string template_name;
  long long n = 0;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  double compile_ms = 0, run_ms = 0;
  std::vector<std::string> printf_lines;
  std::optional<Explain> explain;
};

class ExplainJob {
 public:
  ExplainJob() = default;
  ~ExplainJob();
  ExplainJob(const ExplainJob&) = delete;
  ExplainJob& operator=(const ExplainJob&) = delete;
  // make_request runs on the job's thread (a template's first bytes take a
  // moment to make); what it throws is the result's error. helper:
  // cudaviz-explain's build-tree path, tried after find_explain_helper's places.
  void start(std::function<ExplainRequest()> make_request, std::string helper = "");
  bool busy() const { return busy_; }
  // The newest result's version, cheap (a view copies result() only when it changes).
  uint64_t version() const { return version_; }
  // The newest finished result (version 0: none yet). Any thread.
  ExplainResult result() const;

 private:
  std::thread thread_;
  std::atomic<bool> busy_{false};
  std::atomic<uint64_t> version_{0};
  mutable std::mutex m_;
  ExplainResult last_;
};

}  // namespace cv::emu

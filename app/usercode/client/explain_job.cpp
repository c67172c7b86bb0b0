#include "usercode/client/explain_job.h"

#include "usercode/emu/explain_json.h"
#include "usercode/client/explain_process.h"

namespace cv::emu {

ExplainJob::~ExplainJob() {
  if (thread_.joinable()) thread_.join();
}

void ExplainJob::start(std::function<ExplainRequest()> make_request, std::string helper) {
  if (busy_) return;  // one at a time; the button is disabled meanwhile
  if (thread_.joinable()) thread_.join();
  busy_ = true;
  thread_ = std::thread([this, make_request = std::move(make_request), helper = std::move(helper)] {
    ExplainResult r;
    try {
      const ExplainRequest q = make_request();
      r.template_name = q.template_name;
      const ExplainOutcome o = run_explain_process(find_explain_helper(helper), q);
      if (!o.ran) {
        r.error = o.error;
      } else {
        const nlohmann::json& j = o.reply;
        r.ok = j.value("ok", false);
        r.error = j.value("error", std::string());
        r.error_line = j.value("error_line", 0);
        r.n = j.value("n", 0ll);
        r.compile_ms = j.value("compile_ms", 0.0);
        r.run_ms = j.value("run_ms", 0.0);
        for (int i = 0; i < 3 && j.contains("grid"); ++i) r.grid[i] = j["grid"][i], r.block[i] = j["block"][i];
        r.printf_lines = j.value("printf", std::vector<std::string>{});
        if (j.contains("explain")) r.explain = explain_from_json(j["explain"]);
      }
    } catch (const std::exception& e) {
      r.error = e.what();
    }
    std::lock_guard<std::mutex> l(m_);
    r.version = last_.version + 1;
    last_ = std::move(r);
    version_ = last_.version;
    busy_ = false;
  });
}

ExplainResult ExplainJob::result() const {
  std::lock_guard<std::mutex> l(m_);
  return last_;
}

}  // namespace cv::emu

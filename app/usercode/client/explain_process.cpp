#include "usercode/client/explain_process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <vector>

#include "process/exit_words.h"
#include "process/find_program.h"
#include "process/helper_process.h"
#include "usercode/wire/protocol.h"

namespace cv::emu {

std::string find_explain_helper(const std::string& build_path) {
  return find_helper("cudaviz-explain", "", build_path);
}

namespace {
ExplainOutcome run_helper(const std::string& helper, const nlohmann::json& request, const std::vector<char>& blob,
                          double limit_s);
}

ExplainOutcome run_explain_process(const std::string& helper, const ExplainRequest& q) {
  ExplainOutcome o;
  try {
    // The process builds in a private folder of this call's (two explains
    // never share one), removed here after it ended: also after a crash,
    // which leaves it no time to remove its own. It maps nothing of ours:
    // the launch travels in the request's frame.
    BuildDirHandle dir(q.tmpdir);
    ExplainRequest in_dir = q;
    in_dir.tmpdir = dir.path();
    std::vector<char> blob;
    const nlohmann::json request = encode_explain_request(in_dir, blob);
    return run_helper(helper, request, blob, q.time_limit_s);
  } catch (const std::exception& e) {
    o.error = e.what();
  }
  return o;
}

ExplainOutcome run_sync_costs_process(const std::string& helper, const std::string& cxx, const std::string& tmpdir,
                                      double limit_s) {
  return run_helper(helper, {{"op", "sync_costs"}, {"cxx", cxx}, {"tmpdir", tmpdir}}, {}, limit_s);
}

namespace {

using Clock = std::chrono::steady_clock;

// No reply: how the process ended says why (it crashed, it ran too long, it gave up).
ExplainOutcome no_reply(HelperProcess& p, Clock::time_point t0, double limit_s) {
  ExplainOutcome o;
  const double left = limit_s - std::chrono::duration<double>(Clock::now() - t0).count();
  const std::optional<int> status = p.wait_for(left > 0 ? left : 0);
  if (!status) {
    p.kill_and_reap();
    o.error = "the kernel ran longer than " + std::to_string(static_cast<int>(limit_s)) +
              " s in the emulator and was stopped (an endless loop?)";
  } else if (WIFSIGNALED(*status)) {
    o.error = "the kernel crashed the emulator's process (" + signal_description(WTERMSIG(*status)) +
              "): an access outside its memory, or a stack overflow";
  } else {
    o.error = "cudaviz-explain gave no answer (exit " + std::to_string(WEXITSTATUS(*status)) + ")";
  }
  return o;
}

ExplainOutcome run_helper(const std::string& helper, const nlohmann::json& request, const std::vector<char>& blob,
                          double limit_s) {
  ExplainOutcome o;
  if (helper.empty()) {
    o.error = "cudaviz-explain (the process explain runs kernels in) was not found";
    return o;
  }
  std::unique_ptr<HelperProcess> p;
  try {
    // Its stdout is not ours: a student's kernel writing there must not reach a bench line.
    p = std::make_unique<HelperProcess>(helper, std::vector<std::string>{}, HelperProcess::Stdout::Null);
  } catch (const std::exception& e) {
    o.error = "cannot start " + helper + ": " + e.what();
    return o;
  }
  const auto t0 = Clock::now();
  // A send that fails means the process ended already: how it ended says why.
  if (!usercode::wire::send(p->socket(), request, blob).empty()) return no_reply(*p, t0, limit_s);
  usercode::wire::Frame frame;
  std::string error;
  const usercode::wire::Status s = usercode::wire::receive(p->socket(), frame, limit_s, error);
  if (s == usercode::wire::Status::Timeout) {
    p->kill_and_reap();
    o.error = "the kernel ran longer than " + std::to_string(static_cast<int>(limit_s)) +
              " s in the emulator and was stopped (an endless loop?)";
    return o;
  }
  if (s != usercode::wire::Status::Ok) return no_reply(*p, t0, limit_s);
  for (int fd : frame.fds) close(fd);
  try {
    o.reply = decode_explain_reply(frame.json, frame.blob);
    o.ran = true;
  } catch (const std::exception& e) {
    o.error = std::string("cudaviz-explain's answer does not parse: ") + e.what();
  }
  // It ends by itself after replying; within the limit it is not killed
  // (nothing of it is left behind), past it it is.
  const double left = limit_s - std::chrono::duration<double>(Clock::now() - t0).count();
  p->wait_for(left > 0 ? left : 0);
  return o;
}

}  // namespace

}  // namespace cv::emu

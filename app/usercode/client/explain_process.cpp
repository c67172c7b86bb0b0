#include "usercode/client/explain_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <vector>

#include "usercode/emu/build.h"
#include "usercode/emu/child_env.h"

namespace cv::emu {

std::string find_explain_helper(const std::string& build_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (const fs::path& p : {self.parent_path() / "cudaviz-explain",
                              self.parent_path().parent_path() / "lib" / "cudaviz" / "cudaviz-explain"})
      if (access(p.c_str(), X_OK) == 0) return p.string();
  }
  if (!build_path.empty() && access(build_path.c_str(), X_OK) == 0) return build_path;
  return "";
}

namespace {
ExplainOutcome run_helper(const std::string& helper, const std::vector<std::string>& args, double limit_s);
}

ExplainOutcome run_explain_process(const std::string& helper, const ExplainRequest& q) {
  if (helper.empty()) return run_helper(helper, {}, q.time_limit_s);  // says it was not found
  ExplainOutcome o;
  try {
    // The process maps nothing of ours: the launch travels as files, in a
    // directory of this call's own (two explains never share one).
    BuildDirHandle dir(q.tmpdir);
    const std::string json = dir.path() + "/request.json", blob = dir.path() + "/launch.bin";
    write_explain_request(q, json, blob);
    return run_helper(helper, {helper, "--request", json, "--blob", blob}, q.time_limit_s);
  } catch (const std::exception& e) {
    o.error = e.what();
  }
  return o;
}

ExplainOutcome run_sync_costs_process(const std::string& helper, const std::string& cxx, const std::string& tmpdir,
                                      double limit_s) {
  return run_helper(helper, {helper, "--sync-costs", "1", "--cxx", cxx, "--tmpdir", tmpdir}, limit_s);
}

namespace {

ExplainOutcome run_helper(const std::string& helper, const std::vector<std::string>& args, double limit_s) {
  ExplainOutcome o;
  if (helper.empty()) {
    o.error = "cudaviz-explain (the process explain runs kernels in) was not found";
    return o;
  }

  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    o.error = std::string("pipe: ") + std::strerror(errno);
    return o;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> argv;
  for (const std::string& s : args) argv.push_back(const_cast<char*>(s.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  ChildEnvironment env;  // a crash in the student's code reaches us as its signal
  const int e = posix_spawn(&pid, helper.c_str(), &fa, nullptr, argv.data(), env.get());
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (e != 0) {
    close(fds[0]);
    o.error = "cannot start " + helper + ": " + std::strerror(e);
    return o;
  }
  std::string text;
  const auto t0 = std::chrono::steady_clock::now();
  bool timed_out = false;
  for (;;) {
    const double left = limit_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (left <= 0) {
      timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left * 1000) + 1) <= 0) continue;
    char buf[65536];
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n > 0) text.append(buf, static_cast<size_t>(n));
    else if (n == 0 || errno != EINTR) break;
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (timed_out) {
    o.error = "the kernel ran longer than " + std::to_string(static_cast<int>(limit_s)) +
              " s in the emulator and was stopped (an endless loop?)";
    return o;
  }
  if (WIFSIGNALED(status)) {
    o.error = std::string("the kernel crashed the emulator's process (") + strsignal(WTERMSIG(status)) +
              "): an access outside its memory, or a stack overflow";
    return o;
  }
  try {
    o.reply = nlohmann::json::parse(text);
    o.ran = true;
  } catch (const std::exception&) {
    o.error = "cudaviz-explain gave no answer (exit " + std::to_string(WEXITSTATUS(status)) + ")";
  }
  return o;
}

}  // namespace

}  // namespace cv::emu

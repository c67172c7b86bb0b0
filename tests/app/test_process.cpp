// app/process: every child the app starts (the compiler, addr2line, the
// helpers, ffmpeg) goes through SpawnPlan and Child; their ends in words.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process/child.h"
#include "process/exit_words.h"
#include "process/find_program.h"
#include "process/helper_process.h"
#include "process/run_program.h"
#include "process/spawn.h"

namespace fs = std::filesystem;

namespace {

// A private folder (mkdtemp), removed after the test.
struct Scratch {
  fs::path path;
  Scratch() {
    std::string t = (fs::temp_directory_path() / "cudaviz-process-XXXXXX").string();
    if (!mkdtemp(t.data())) throw std::runtime_error("mkdtemp failed");
    path = t;
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string file(const std::string& name, const std::string& text, bool executable = false) const {
    const fs::path p = path / name;
    std::ofstream(p) << text;
    if (executable) fs::permissions(p, fs::perms::owner_all);
    return p.string();
  }
};

int status_of(const std::string& script) {
  cv::Child c;
  cv::SpawnPlan plan({"/bin/sh", "-c", script});
  EXPECT_EQ(plan.start(c), 0);
  const auto s = c.wait_for(30);
  EXPECT_TRUE(s) << script;
  return s.value_or(0);
}

}  // namespace

TEST(Process, ExitsAndSignalsInWords) {
  const int exit3 = status_of("exit 3");
  EXPECT_EQ(cv::ended_words(exit3), "exit 3");
  EXPECT_EQ(cv::describe_wait_status(exit3), "exit status 3");
  const int segv = status_of("kill -SEGV $$");
  EXPECT_EQ(cv::ended_words(segv), "SIGSEGV");
  EXPECT_EQ(cv::describe_wait_status(segv), "killed by signal 11 (" + cv::signal_description(SIGSEGV) + ")");
  EXPECT_EQ(cv::signal_name(SIGBUS), "SIGBUS");
  EXPECT_EQ(cv::signal_name(SIGTERM), "SIGTERM");  // what stops the app (process/stop_signal.h)
  EXPECT_EQ(cv::signal_name(SIGUSR1), "signal " + std::to_string(SIGUSR1));
}

TEST(Process, ChildIsKilledOnlyUntilReapedAndEndsWithItsOwner) {
  cv::Child c;
  cv::SpawnPlan plan({"/bin/sleep", "30"});
  ASSERT_EQ(plan.start(c), 0);
  const pid_t pid = c.pid();
  EXPECT_FALSE(c.poll());
  c.kill();
  const int s = c.wait();
  EXPECT_TRUE(WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL);
  EXPECT_EQ(c.poll(), s);  // kept, not asked again (the pid may be another process's by now)
  c.kill();                // a no-op once reaped
  {
    cv::Child owned;
    cv::SpawnPlan again({"/bin/sleep", "30"});
    ASSERT_EQ(again.start(owned), 0);
  }  // ended and reaped here: no zombie left behind
  EXPECT_NE(::kill(pid, 0), 0);
}

TEST(Process, MissingProgramIsAnErrno) {
  cv::Child c;
  cv::SpawnPlan plan({"/nonexistent/program"});
  const int e = plan.start(c);
  // glibc reports the failed exec from posix_spawn itself; exit status 127 is the other way.
  if (e == 0) EXPECT_EQ(cv::describe_wait_status(c.wait()), "exit status 127");
  else EXPECT_EQ(e, ENOENT);
}

TEST(Process, RunToLogAppendsAndStopsAtTheLimit) {
  Scratch d;
  const std::string log = (d.path / "compile.log").string();
  int status = -1;
  EXPECT_EQ(cv::run_to_log({"sh", "-c", "echo out; echo err >&2; exit 2"}, log, 30, status), "");
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2);
  EXPECT_EQ(cv::run_to_log({"sh", "-c", "echo again"}, log, 30, status), "");
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "out\nerr\nagain\n");
  EXPECT_EQ(cv::run_to_log({"sh", "-c", "sleep 30"}, log, 1, status), "sh ran longer than 1 s and was stopped");
  EXPECT_TRUE(WIFSIGNALED(status));
  const std::string missing = cv::run_to_log({"no-such-compiler-here"}, log, 30, status);
  EXPECT_EQ(missing.rfind("cannot run no-such-compiler-here: ", 0), 0u) << missing;
}

TEST(Process, RunCaptureReadsStdoutFromAFileOnStdin) {
  Scratch d;
  const std::string in = d.file("in.txt", "0x10\n0x20\n");
  std::string out;
  int status = -1;
  EXPECT_EQ(cv::run_capture({"sh", "-c", "cat; echo done; echo noise >&2"}, in, 30, out, status), "");
  EXPECT_EQ(out, "0x10\n0x20\ndone\n");  // stderr is not captured
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  out.clear();
  EXPECT_EQ(cv::run_capture({"sh", "-c", "echo partial; sleep 30"}, "", 1, out, status),
            "sh ran longer than 1 s and was stopped");
  EXPECT_EQ(out, "partial\n");
}

TEST(Process, HelperGetsOnlyItsSocketAndSaysHowItEnded) {
  Scratch d;
  // Our own descriptor without close-on-exec must not reach the helper (close_from(4)).
  const int leak = ::dup2(STDERR_FILENO, 200);
  ASSERT_EQ(leak, 200);
  const std::string helper = d.file("helper.sh",
                                    "#!/bin/sh\n"
                                    "[ \"$1\" = --socket ] && [ \"$2\" = 3 ] || exit 9\n"
                                    "if [ -e /proc/$$/fd/200 ]; then printf leaked >&3; else printf \"clean $3\" >&3; fi\n"
                                    "exit 4\n",
                                    true);
  {
    cv::HelperProcess p(helper, {"arg"});
    char buf[32] = {};
    ssize_t n = 0, got = 0;
    while ((n = ::read(p.socket(), buf + got, sizeof buf - 1 - static_cast<size_t>(got))) > 0) got += n;
    EXPECT_STREQ(buf, "clean arg");
    const auto s = p.wait_for(30);
    ASSERT_TRUE(s);
    EXPECT_EQ(p.exited(), "exit 4");
    EXPECT_EQ(p.kill_and_reap(), "exit 4");  // it had ended: how, not "killed"
  }
  ::close(leak);
  const std::string sleeper = d.file("sleeper.sh", "#!/bin/sh\nexec sleep 30\n", true);
  cv::HelperProcess p(sleeper, {});
  EXPECT_EQ(p.exited(), "");
  EXPECT_EQ(p.kill_and_reap(), "killed");
  EXPECT_EQ(p.exited(), "killed");
  EXPECT_THROW(cv::HelperProcess((d.path / "absent").string(), {}), std::runtime_error);
}

TEST(Process, FindHelperLooksWhereItIsInstalled) {
  Scratch d;
  const std::string tool = d.file("tool", "#!/bin/sh\n", true);
  const std::string plain = d.file("plain", "not executable");
  std::vector<std::string> tried;
  EXPECT_EQ(cv::find_helper("cudaviz-no-such-helper", tool, "", &tried), tool);
  EXPECT_TRUE(tried.empty());
  // A given path that cannot run is passed over; the build tree's is the last place.
  EXPECT_EQ(cv::find_helper("cudaviz-no-such-helper", plain, tool, &tried), tool);
  ASSERT_FALSE(tried.empty());
  EXPECT_EQ(tried.front(), plain);
  EXPECT_EQ(cv::find_helper("cudaviz-no-such-helper", "", "", &tried), "");
  // Beside the running binary, then ../lib/cudaviz: both looked at.
  ASSERT_EQ(tried.size(), 2u);
  EXPECT_NE(tried[0].find("cudaviz-no-such-helper"), std::string::npos);
  EXPECT_NE(tried[1].find("lib/cudaviz/cudaviz-no-such-helper"), std::string::npos);
}

#pragma once
// A challenge's judge (docs/class_server.md, "Challenge mode"): one student's
// kernel text for a template, compiled, run on the template's workload in a
// runner, checked against the template's reference and timed, then explained
// in words. It goes through the app's own "judge one kernel" path (compile,
// and `bench kernel`'s target with judge_only), so whatever that path checks
// a challenge checks too. The work is split in stages so that a queue can
// overlap them: compile (any CPU thread), run (the thread that owns the
// device's runner), explain (any CPU thread).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/device_info.h"
#include "config/config.h"
#include "usercode/compile/compile.h"
#include "worker/run_state.h"

namespace cv::usercode {
class RunnerClient;
}

namespace cv::challenge {

struct JudgeRequest {
  std::string template_name;
  std::string source;
  uint64_t seed = 1;  // the inputs drawn for this submission (where the check takes a seed)
};

struct Mark {  // a compiler message at the student's line
  int line = 0, column = 0;
  std::string severity;  // error / warning / note
  std::string message;
};

struct Verdict {
  enum class Outcome { CompileError, Wrong, Fault, Correct, Failed };
  Outcome outcome = Outcome::Failed;
  std::vector<Mark> marks;      // compile errors and warnings, at lines
  std::string message;          // in words: why it is wrong, the fault, why it could not run
  int message_line = 0;         // the line the message names (0: none)
  double ms_min = 0, ms_median = 0, ms_max = 0;
  int reps = 0;
  int audited_launches = 0;  // launches on fresh data after the timing, each answer compared (judge_audit.h)
  long long n = 0;
  std::vector<std::string> findings;  // explain's, in words
  bool racy = false;                  // explain found a race (then never correct: a GPU's answer varies)
  std::string explain_note;           // why explain said nothing ("" when it ran)
  std::string backend;                // "cuda" / "cpu"
  double judge_ms = 0;                // submit-to-verdict is the queue's; this is the work
  double compile_ms = 0, run_ms = 0, explain_ms = 0;  // each stage's own time (the queue's summary)
};
const char* to_string(Verdict::Outcome o);  // "compile error", "wrong", ...

// What the stages pass along.
struct Compiled {
  std::shared_ptr<const usercode::CompileResult> result;
  double compile_ms = 0;
};

struct JudgeSettings {
  Backend backend = Backend::Cpu;
  PathConfig paths;
  std::optional<long long> n;  // unset: the template's (the emulator's smaller n on the CPU)
  int reps = 0;                // timed launches (0: 30 on a GPU, 3 on the CPU)
  bool explain = true;
};

// The runner the judge runs a device's kernels in (`path`: find_runner's):
// quiet, since a class's kernels may printf megabytes (its stdout on /dev/null).
std::shared_ptr<usercode::RunnerClient> judge_runner(const JudgeSettings& s, const std::string& path, int device);

// The stages, each callable from any thread (run_on: the device's own thread).
Compiled compile_stage(const JudgeSettings& s, const JudgeRequest& r);
// Fills `v` from the compile: marks, and the outcome when it failed (then true).
bool compile_failed(const Compiled& c, Verdict& v);
// The kernel in `runner` (a runner of this device; shared by nothing else),
// judged and timed. `control` cancels.
void run_stage(const JudgeSettings& s, const JudgeRequest& r, const Compiled& c,
               const std::shared_ptr<usercode::RunnerClient>& runner, RunControl* control, Verdict& v);
// explain's findings in words (races, sectors per request, divergence).
// `gpu_ptx`: the GPU compile's PTX of this source ("" : explain compiles it).
void explain_stage(const JudgeSettings& s, const JudgeRequest& r, const std::string& gpu_ptx, Verdict& v);

// The built-in variants of the template's scene or lab on this backend at the
// challenge's size: {variant, median ms} (the leaderboard's reference lines).
std::vector<std::pair<std::string, double>> builtin_times(const JudgeSettings& s,
                                                          const std::string& template_name,
                                                          RunControl* control);

}  // namespace cv::challenge

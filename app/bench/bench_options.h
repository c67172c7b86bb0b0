#pragma once
// What a measurement is asked for: the command line's `cudaviz bench` flags
// (cli.h: BenchArgs) and what only callers inside the app set (the labs
// window, lessons, sweeps, tests). The in-process measurement API: run_bench,
// each target's BenchFn, lab actions and the lab runner take it.
#include <memory>
#include <optional>
#include <string>

#include "cli.h"
#include "config/config.h"
#include "worker/run_state.h"

namespace cv {
namespace usercode {
class RunnerClient;
struct CompileResult;
}

struct BenchOptions : BenchArgs {
  RunControl* control = nullptr;  // cancel and progress (worker/run_state.h); null: none
  // The labs window's "run your kernel" passes the kernel tab's text (then
  // `source` only names it) and compiles it checked.
  std::optional<std::string> source_text;
  bool checked = false;
  PathConfig paths;  // the configuration's (config/config.h)
  // The app's runner process (usercode/client/runner_client.h), so "run your kernel"
  // shares it with the scenes; unset: bench kernel starts its own.
  std::shared_ptr<usercode::RunnerClient> runner;
  // A challenge's judge (app/challenge): the kernel already compiled from the
  // same request (on another thread), and only the verdict and the kernel's
  // own time wanted: one load and first launch, no round trips, no built-ins.
  std::shared_ptr<const usercode::CompileResult> compiled;
  bool judge_only = false;
};

}  // namespace cv

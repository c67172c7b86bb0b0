// cudaviz entry point: read the environment once (config/config.h), parse the
// command line, then run the window, a bench, a sweep or the doctor, each
// handed the same configuration.
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "core/app.h"
#include "core/apply_config.h"
#include "bench/bench.h"
#include "cli.h"
#include "tuning/sweep.h"
#include "system/doctor.h"
#include "system/startup.h"

namespace {

// bench and sweep refuse a GPU they cannot use (no code for it, driver too old)
// with the sentence the window shows, rather than quietly measuring the CPU.
int refuse_blocked_cuda(const char* what, const std::string& backend) {
  if (auto why = cv::sys::cuda_blocked_sentence(backend)) {
    std::cerr << "cudaviz " << what << ": " << *why << " (--backend cpu runs the CPU variants)\n";
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // The one place the app reads its environment.
  const cv::Config config =
      cv::config_from_environment([](const char* name) { return std::getenv(name); });
  std::vector<std::string> args(argv + 1, argv + argc);
  cv::Command cmd;
  try {
    cmd = cv::parse_command_line(args);
    const auto& device = cmd.kind == cv::Command::Kind::Bench   ? cmd.bench.device
                         : cmd.kind == cv::Command::Kind::Sweep ? cmd.sweep.device
                                                                : cmd.run.device;
    cv::sys::apply_device_flag(device);  // before anything else touches CUDA
  } catch (const cv::UsageError& e) {
    std::cerr << "cudaviz: " << e.what() << "\n\n" << cv::usage_text();
    return 2;
  }
  switch (cmd.kind) {
    case cv::Command::Kind::Help:
      std::cout << cv::usage_text();
      return 0;
    case cv::Command::Kind::Doctor:
      return cv::sys::run_doctor(config, std::cout);
    case cv::Command::Kind::Bench: {
      if (int rc = refuse_blocked_cuda("bench", cmd.bench.backend)) return rc;
      cv::apply_config_to_kernels(config, std::cerr);
      cv::BenchOptions opt{cmd.bench};
      opt.paths = config.paths;
      return cv::bench::run_bench(opt, std::cout, std::cerr);
    }
    case cv::Command::Kind::Sweep:
      if (int rc = refuse_blocked_cuda("sweep", cmd.sweep.backend)) return rc;
      cv::apply_config_to_kernels(config, std::cerr);
      return cv::tuning::run_sweep(cmd.sweep, std::cout, std::cerr);
    case cv::Command::Kind::Run:
    default:
      cv::apply_config_to_kernels(config, std::cerr);
      return cv::run_app(cmd.run, config);
  }
}

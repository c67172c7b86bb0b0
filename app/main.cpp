// cudaviz entry point: parse the command line, then run the window, a bench or a sweep.
#include <iostream>
#include <string>
#include <vector>

#include "core/app.h"
#include "bench/bench.h"
#include "cli.h"
#include "tuning/sweep.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  cv::Command cmd;
  try {
    cmd = cv::parse_command_line(args);
  } catch (const cv::UsageError& e) {
    std::cerr << "cudaviz: " << e.what() << "\n\n" << cv::usage_text();
    return 2;
  }
  switch (cmd.kind) {
    case cv::Command::Kind::Help:
      std::cout << cv::usage_text();
      return 0;
    case cv::Command::Kind::Bench:
      return cv::bench::run_bench(cmd.bench, std::cout, std::cerr);
    case cv::Command::Kind::Sweep:
      return cv::tuning::run_sweep(cmd.sweep, std::cout, std::cerr);
    case cv::Command::Kind::Run:
    default:
      return cv::run_app(cmd.run);
  }
}

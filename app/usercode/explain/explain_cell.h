#pragma once
// cudaviz-explain's student part in a cell (sandbox/cell.h): the built
// module is loaded, locked in and run with explain's recording in a forked
// child; this process (which never runs student code) answers the child's
// questions about code addresses (addr2line is a program, which the cell may
// not start) and checks its answer before printing it.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "usercode/emu/emu.h"
#include "usercode/wire/launch_request.h"

namespace cv::emu {

struct CellRun {
  std::string so_path, file_name, entry;
  usercode::LaunchShape shape;
  void** params = nullptr;                  // bound in this process before the fork
  std::vector<usercode::BufferView> buffers;
  Options options;
};

// Fills `out` (ok, run_ms, fibers, printf, error, error_kind, error_line,
// explain, sandbox); returns the exit code explain's main returns, or -SIG
// when the student's code died of signal SIG (main then ends by it, as the
// app expects of a crash).
int explain_in_cell(const CellRun& job, nlohmann::ordered_json& out);

}  // namespace cv::emu

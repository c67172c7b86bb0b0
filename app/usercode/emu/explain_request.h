#pragma once
// What cudaviz-explain runs: the student's file with the build inputs the
// app's CPU compile uses for its template, and the launch the runner would get
// (usercode::wire's JSON and bytes). The app builds it from its template
// registry (usercode/client/explain_launch.h); this library only carries it, so the
// emulator knows no template. On the way to the process it is two files in a
// private directory: request.json and launch.bin (the launch's raw bytes:
// scalars, a kept span's first bytes).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "usercode/emu/build.h"

namespace cv::emu {

struct ExplainRequest {
  std::string template_name;  // for the reply
  long long n = 0;            // the size the launch was made for (the reply's "n")
  std::string source;         // the student's file
  std::string file_name = "kernel.cu";
  std::vector<TextFile> headers;      // the app's prelude headers by name
  std::vector<std::string> includes;  // included before line 1
  std::string after;                  // after the student's file (a per-item template's GPU wrapper)
  std::string entry;                  // the extern "C" __global__ kernel run
  nlohmann::json launch;              // usercode::wire::encode_launch's JSON
  std::vector<char> launch_blob;      // and its blob
  unsigned long long explain_block = 0;  // the block whose threads "who touched what" shows
  unsigned warp = 0;                     // the warp whose requests are drawn
  std::string cxx = "c++", tmpdir = "/tmp";
  double time_limit_s = 10;  // the caller's limit on the process (not written)
};

// The two files; throws std::runtime_error naming a path that cannot be written.
void write_explain_request(const ExplainRequest& q, const std::string& json_path, const std::string& blob_path);
// Back again; throws std::runtime_error naming the file or the field that is wrong.
ExplainRequest read_explain_request(const std::string& json_path, const std::string& blob_path);

}  // namespace cv::emu

#pragma once
// What cudaviz-explain runs: the student's file with the build inputs the
// app's CPU compile uses for its template, and the launch the runner would get
// (usercode::wire's JSON and bytes). The app builds it from its template
// registry (usercode/client/explain_launch.h); this library only carries it, so the
// emulator knows no template. On the way to the process it is one frame of
// wire/protocol.h: a small JSON header pointing into the blob, which holds
// the request's JSON text and then the launch's raw bytes (scalars, a kept
// span's first bytes). The reply comes back the same way: its JSON text in
// the blob, so no size of explain's document meets the frame's JSON limit.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "usercode/emu/build.h"
#include "usercode/emu/explain_types.h"

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
  // The loops the GPU's compiler unrolled (from NVRTC's PTX: the app reads it;
  // empty where NVRTC is not: then lanes meet in the source's order).
  std::vector<UnrolledLoop> unrolled;
  std::string cxx = "c++", tmpdir = "/tmp";
  double time_limit_s = 10;  // the caller's limit on the process (not written)
};

// The request's frame header ({"op": "explain", "request": [o, b], "launch":
// [o, b]}), its bytes appended to `blob`.
nlohmann::json encode_explain_request(const ExplainRequest& q, std::vector<char>& blob);
// Back again; throws std::runtime_error naming the field that is wrong (never
// reads outside `blob`).
ExplainRequest decode_explain_request(const nlohmann::json& header, const std::vector<char>& blob);

// A reply's JSON text as a frame header ({"reply": [o, b]}) and its blob; back again (throws).
nlohmann::json encode_explain_reply(const std::string& json_text, std::vector<char>& blob);
nlohmann::json decode_explain_reply(const nlohmann::json& header, const std::vector<char>& blob);

}  // namespace cv::emu

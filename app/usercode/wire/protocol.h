#pragma once
// The wire between the app and its helper processes (cudaviz-runner,
// cudaviz-explain; each started by process/helper_process.h on a socketpair):
// a Unix stream socket carrying frames of {magic, JSON length, blob length}
// + JSON + blob, with file descriptors (shared particle memory) attached to
// the header by SCM_RIGHTS. Reads wait with a deadline, so a helper stuck in
// a kernel is noticed.
//
// cudaviz-explain takes one request and replies once (emu/explain_request.h;
// the JSON texts travel in the blob, so no size of theirs meets kMaxJson):
//   {"op":"explain", "request":[o,b], "launch":[o,b]}  ->  {"reply":[o,b]}
//   {"op":"sync_costs", "cxx":C, "tmpdir":D}            ->  {"reply":[o,b]}
//
// The runner's requests (JSON; "at": [offset, bytes] points into the frame's blob):
//   {"op":"hello"}  ->  {"ok":true, "backend":"cuda"|"cpu", "device":..., "cc":"9.0"}
//   {"op":"share", "id":U64, "bytes":N, "kind":"cuda_vmm"|"memfd"} + one fd  ->  {"ok":true}
//   {"op":"load", "module":"editor", "entry":"count3", "form":"kernel"|"items",
//    "checked":bool, "guard":bool, "shared_object":PATH (CPU)} + blob: cubin or PTX (GPU)
//     ->  {"ok":true, "resources":{"registers","shared_bytes","local_bytes","max_threads"}}
//   {"op":"launch", "module":"editor", "request":[o,b]} + blob: the LaunchRequest
//    (launch_request.h: module, grid, block, shared bytes, reps, CPU items, the
//    arguments (scalar bytes; spans with their element size, count, access and
//    source: shared ID, generator, zeros or kept state and how it starts) and
//    the swaps) in launch_wire.cpp's binary layout, sent every frame
//     ->  {"ok":true, "kernel_ms":[...], "kernel":"count3", "runner_ms":T,
//          "read_back":[{"name":"count","at":[o,b]}]} + blob
//   {"op":"occupancy", "module":"editor", "block":[x,y,z], "shared_bytes":N}
//     ->  {"ok":true, "blocks_per_sm":B}
//   {"op":"exit"}
// Any failure: {"ok":false, "error_name":"cudaErrorIllegalAddress"|"out of range"|...,
//   "error":TEXT, "fatal":bool (the runner ends after sending it), "kernel", "grid", "block",
//   "out_of_range":{"index","size","line","thread":[3],"block":[3]}}.
// launch_request.h holds the launch's C++ form and its encoder/decoder.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cv::usercode::wire {

constexpr uint32_t kMagic = 0x31525643;  // "CVR1"
constexpr size_t kMaxJson = 1 << 20;      // a frame's JSON (1 MiB)
constexpr size_t kMaxBlob = 256u << 20;   // a frame's blob (cubin, positions: 256 MiB)
constexpr int kMaxFds = 4;

struct Frame {
  nlohmann::json json;
  std::vector<char> blob;
  std::vector<int> fds;  // received descriptors; the receiver owns (closes) them
};

enum class Status { Ok, Timeout, Closed, Error };

// Sends one frame; returns "" or why it failed (the call and errno).
std::string send(int sock, const nlohmann::json& json, const std::vector<char>& blob = {},
                 const std::vector<int>& fds = {});
// When a reply is expected soon (a kernel of known length): sleep `sleep_s`,
// then watch the socket without sleeping for at most `spin_s` before blocking
// again. Waking a thread that slept for milliseconds costs tens of
// microseconds on its own, as much as the whole request -> reply of a short
// kernel.
struct Expect {
  double sleep_s = 0, spin_s = 0;
};
// Receives one frame; timeout_s < 0 waits for ever. `error` says why when not Ok.
Status receive(int sock, Frame& out, double timeout_s, std::string& error, Expect expect = {});

}  // namespace cv::usercode::wire

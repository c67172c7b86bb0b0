#pragma once
// The wire between the app and cudaviz-runner: a Unix stream socket carrying
// frames of {magic, JSON length, blob length} + JSON + blob, with file
// descriptors (shared particle memory) attached to the header by SCM_RIGHTS.
// Reads wait with a deadline, so a runner stuck in a kernel is noticed.
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
// Receives one frame; timeout_s < 0 waits for ever. `error` says why when not Ok.
Status receive(int sock, Frame& out, double timeout_s, std::string& error);

}  // namespace cv::usercode::wire

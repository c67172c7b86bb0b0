#pragma once
// One launch of a student's kernel as the app asks for it and the runner
// receives it (wire/protocol.h shows the JSON): the shape, the ordered
// kernel arguments (cv::Span buffers and scalar bytes) and how many times.
// Encoded and decoded in launch_wire.cpp (a binary layout in the frame's
// blob), which both processes link, so the two sides cannot disagree.
#include <cstdint>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "usercode/wire/launch_abi.h"

namespace cv::usercode {

// Memory the app shares with the runner: CUDA VMM memory exported as a POSIX
// fd (the scene's vertex buffers) or a memfd of host memory (CPU backend).
struct SharedBuffer {
  enum class Kind { CudaVmm, HostMemfd } kind = Kind::HostMemfd;
  uint64_t id = 0;   // the app's name for it; the runner maps each id once
  int fd = -1;       // borrowed: sent with SCM_RIGHTS (the runner gets its own copy)
  size_t bytes = 0;  // the mapped size (VMM: the rounded allocation size)
};

// One cv::Span argument: {T* data; unsigned long long size;} in the kernel's
// parameter list, then `tail` bytes when the parameter is a struct that
// starts with a span (cv::Ids: the span, then the colour mode).
struct SpanArg {
  unsigned elem_bytes = 1;
  unsigned long long count = 0;  // elements
  bool writable = true;          // false for cv::Span<const T>
  bool read_back = false;        // the reply carries its bytes after the last rep
  // Where the bytes come from.
  enum class From {
    Shared,    // a buffer the app shares (shared_id), written in place
    Generate,  // the runner's named generator (generator, gen_n, seed), cached
    Zero,      // runner memory, zero-filled before every rep (counters)
    State,     // runner memory kept across launches under `state`
  } from = From::Zero;
  uint64_t shared_id = 0;
  std::optional<SharedBuffer> shared;  // with an fd when this runner has not mapped it yet
  std::string generator;
  unsigned long long gen_n = 0;
  uint64_t seed = 0;
  std::string state;
  // State only: how it starts. None keeps it (zero-filled when new or resized).
  enum class Init { None, Bytes, Generate, Zero } init = Init::None;
  std::vector<char> init_bytes;  // Init::Bytes: the whole buffer, sent once
  std::vector<char> tail;
};

struct LaunchArg {
  std::string name;  // the parameter's name ("data", "count", "p")
  bool is_span = false;
  SpanArg span;
  std::vector<char> scalar;  // a POD parameter's raw bytes (cv::Params, unsigned long long n)
};

// How the CPU emulator runs a whole kernel's blocks (docs/emulator.md); the
// GPU and per-item entries ignore it.
enum class Schedule : uint8_t {
  Fast = 0,     // the fast path (loop fission) where the kernel has one, else fibers or loops
  Fibers = 1,   // every block as fibers (the fast path's reference, in tests)
  Verdict = 2,  // a correctness check: fibers switched at every store to shared or
                // writable memory, blocks interleaved, so lost updates happen as on a GPU
};

struct LaunchRequest {
  std::string module = "editor";  // which loaded kernel (runner_client.h)
  Schedule schedule = Schedule::Fast;
  LaunchShape shape;
  std::vector<LaunchArg> args;
  int reps = 1;  // launches, each timed; zero buffers are zeroed before each
  // States swapped after every rep (ping-pong buffers: the next rep reads what this one wrote).
  std::vector<std::pair<std::string, std::string>> swaps;
  // CPU per-item entries (a per-particle function): the items split over threads.
  unsigned long long cpu_items = 0;
};

// The spans a launch read back, by name.
using ReadBack = std::map<std::string, std::vector<char>>;

// A raw-bytes helper for scalar arguments.
template <class T>
std::vector<char> bytes_of(const T& v) {
  const char* p = reinterpret_cast<const char*>(&v);
  return std::vector<char>(p, p + sizeof(T));
}
// The same for a vector's elements (a runner-kept span's first bytes).
template <class T>
std::vector<char> bytes_of_all(const std::vector<T>& v) {
  std::vector<char> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}
// And back: bytes as values of T (a trailing part of one dropped).
template <class T>
std::vector<T> values_of_bytes(const std::vector<char>& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

namespace wire {
// The launch as a request frame: the JSON header, the request appended to `blob`.
nlohmann::json encode_launch(const LaunchRequest& r, std::vector<char>& blob);
// Back again; throws std::runtime_error naming the bad field (never reads
// outside `blob`).
LaunchRequest decode_launch(const nlohmann::json& j, const std::vector<char>& blob);
}  // namespace wire

}  // namespace cv::usercode

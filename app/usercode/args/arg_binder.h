#pragma once
// Inside cudaviz-runner: a launch request's arguments turned into what a
// kernel launch takes, the same way on both backends. Each span becomes
// {T* data; unsigned long long size;} (+ its tail bytes) in its own slot,
// each scalar its bytes; `params` points at the slots (cuLaunchKernel's
// kernelParams, the emulator's thunk), `buffers` lists the spans for the
// guard's table and the emulator's checks. The memory behind the spans (the
// app's shared buffers, generated data, zeroed counters, kept state) lives
// here between requests; each executor supplies how to allocate and copy.
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "usercode/wire/launch_abi.h"
#include "usercode/wire/launch_request.h"

namespace cv::usercode::runner {

// The executor's memory: device memory (GPU) or host memory (CPU). Throw on failure.
class Memory {
 public:
  virtual ~Memory() = default;
  virtual void* allocate(size_t bytes) = 0;
  virtual void release(void* p) = 0;
  virtual void upload(void* dst, const void* src, size_t bytes) = 0;
  virtual void download(void* dst, const void* src, size_t bytes) = 0;
  virtual void zero(void* dst, size_t bytes) = 0;
  // Whether this memory draws generator `name`'s n values (`bytes` of them)
  // itself (a GPU draws the lab data); else the binder makes them on the host
  // and uploads them.
  virtual bool generates(const std::string& name, unsigned long long n, size_t bytes) const {
    (void)name, (void)n, (void)bytes;
    return false;
  }
  // Writes them at dst (only where generates() said so).
  virtual void generate(void* dst, const std::string& name, unsigned long long n, uint64_t seed) {
    (void)dst, (void)name, (void)n, (void)seed;
  }
};

// One allocation of a Memory.
class Block {
 public:
  Block() = default;
  Block(Memory& m, size_t bytes) : m_(&m), bytes_(bytes), p_(bytes ? m.allocate(bytes) : nullptr) {}
  ~Block() { reset(); }
  Block(Block&& o) noexcept : m_(o.m_), bytes_(o.bytes_), p_(o.p_) { o.p_ = nullptr, o.bytes_ = 0; }
  Block& operator=(Block&& o) noexcept {
    if (this != &o) reset(), m_ = o.m_, bytes_ = o.bytes_, p_ = o.p_, o.p_ = nullptr, o.bytes_ = 0;
    return *this;
  }
  void* get() const { return p_; }
  size_t bytes() const { return bytes_; }

 private:
  void reset() {
    if (p_) m_->release(p_);
    p_ = nullptr;
  }
  Memory* m_ = nullptr;
  size_t bytes_ = 0;
  void* p_ = nullptr;
};

struct BoundArgs {
  std::vector<void*> params;        // one per argument, in order
  std::vector<BufferView> buffers;  // one per span argument
};

class ArgBinder {
 public:
  explicit ArgBinder(Memory& m) : m_(m) {}
  // The app's shared buffer `id`: {base, bytes}, {nullptr, 0} when unknown.
  using SharedLookup = std::function<std::pair<void*, size_t>(uint64_t id)>;
  // Takes a request: generates data, initialises state. Returns "" or why it cannot run.
  std::string prepare(LaunchRequest request, const SharedLookup& shared);
  // Before each rep: zeroes the counters, restores written generated data, binds.
  const BoundArgs& bind_rep();
  // After the last rep's launch: the read-back spans into `blob`, listed for the reply.
  nlohmann::json read_back(std::vector<char>& blob);
  // After each rep: the request's state swaps.
  void after_rep();
  const LaunchRequest& request() const { return req_; }

 private:
  struct Generated {
    std::string generator;
    unsigned long long n = 0;
    uint64_t seed = 0;
    std::vector<char> host;  // empty when the memory generated them in place
    bool in_place = false;
    size_t bytes = 0;  // the span's (the block may be larger)
    Block block;
  };
  void* resolve(const LaunchArg& a, const SharedLookup& shared, std::string& error);
  Block& state(const std::string& key, size_t bytes, bool& fresh);
  Generated& generated(const std::string& slot, const std::string& generator, unsigned long long n,
                       uint64_t seed, size_t bytes);

  Memory& m_;
  LaunchRequest req_;
  std::map<std::string, Block> states_;        // by state name, kept across requests
  std::map<std::string, Generated> generated_;  // by argument name (one data set each)
  std::map<std::string, Block> zeros_;          // by argument name
  std::vector<void*> base_;                     // each argument's memory this request
  std::vector<std::vector<char>> slots_;        // each argument's parameter bytes
  BoundArgs bound_;
};

}  // namespace cv::usercode::runner

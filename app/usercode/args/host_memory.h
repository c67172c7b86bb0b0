#pragma once
// Host memory as the runner's argument binder allocates it (args/arg_binder.h):
// the CPU runner's launches and cudaviz-explain's bind a launch request's
// spans over it, so both lay arguments out the same way.
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "usercode/args/arg_binder.h"

namespace cv::usercode::runner {

class HostMemory : public Memory {
 public:
  void* allocate(size_t bytes) override {
    // 64-byte aligned, so every element type's alignment holds.
    void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!p) throw std::runtime_error("cannot allocate " + std::to_string(bytes) + " bytes");
    return p;
  }
  void release(void* p) override { std::free(p); }
  void upload(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); }
  void download(void* dst, const void* src, size_t bytes) override { std::memcpy(dst, src, bytes); }
  void zero(void* dst, size_t bytes) override { std::memset(dst, 0, bytes); }
};

}  // namespace cv::usercode::runner

#pragma once
// NVTX v3 ranges and marks in the "cudaviz" domain, so Nsight Systems shows each
// frame's phases and each launch by name and block shape (docs/performance.md).
//
// With no tool attached (no NVTX_INJECTION64_PATH; Nsight sets it) NVTX hands
// out a null domain: then a range is one branch on a cached pointer, and no
// message is formatted and no NVTX call is made (measured: docs/performance.md).
//
//   CV_NVTX_RANGE("simulate");                         // a fixed name, registered once
//   nvtx::Range r([&] { return "fountain " + ...; });  // a message built only for a tool
#include <nvtx3/nvToolsExt.h>

#include <string>
#include <type_traits>
#include <utility>

namespace cv::nvtx {

namespace detail {
nvtxDomainHandle_t create_domain() noexcept;
nvtxDomainHandle_t push(nvtxStringHandle_t name) noexcept;  // the domain pushed to
void pop(nvtxDomainHandle_t d) noexcept;
}  // namespace detail

// The "cudaviz" domain, created on first use; nullptr when no tool is attached.
// Inline, like the checks below: without a tool a range never leaves this header.
inline nvtxDomainHandle_t domain() noexcept {
  static const nvtxDomainHandle_t d = detail::create_domain();
  return d;
}
inline bool enabled() noexcept { return domain() != nullptr; }

// A string registered with the tool (cheaper to pass than text); nullptr without one.
nvtxStringHandle_t registered(const char* text) noexcept;

// A push/pop range on this thread, popped when it goes out of scope.
class Range {
 public:
  explicit Range(nvtxStringHandle_t name) noexcept {
    if (name) open_ = detail::push(name);  // null: no tool when it was registered
  }
  // `make` returns the message (std::string); it runs only when a tool listens.
  template <class Make, class = std::enable_if_t<std::is_invocable_r_v<std::string, Make>>>
  explicit Range(Make&& make) {
    if (nvtxDomainHandle_t d = domain()) push(d, std::forward<Make>(make)());
  }
  ~Range() {
    if (open_) detail::pop(open_);
  }
  Range(const Range&) = delete;
  Range& operator=(const Range&) = delete;

 private:
  void push(nvtxDomainHandle_t d, const std::string& message) noexcept;
  nvtxDomainHandle_t open_ = nullptr;  // the domain pushed to; nullptr: nothing to pop
};

// An instant event (a launch's exact kernel name, right after the launch).
void mark(const char* message) noexcept;

}  // namespace cv::nvtx

#define CV_NVTX_CAT2(a, b) a##b
#define CV_NVTX_CAT(a, b) CV_NVTX_CAT2(a, b)
// A range named by a string literal, registered with the tool on first use.
#define CV_NVTX_RANGE(literal)                                                         \
  static const nvtxStringHandle_t CV_NVTX_CAT(cv_nvtx_name_, __LINE__) =               \
      ::cv::nvtx::registered(literal);                                                 \
  const ::cv::nvtx::Range CV_NVTX_CAT(cv_nvtx_range_, __LINE__)(                       \
      CV_NVTX_CAT(cv_nvtx_name_, __LINE__))

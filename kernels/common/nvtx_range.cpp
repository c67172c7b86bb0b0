#include "common/nvtx_range.h"

namespace cv::nvtx {

// NVTX loads the tool on its first call (this one); without a tool it returns nullptr.
nvtxDomainHandle_t detail::create_domain() noexcept { return nvtxDomainCreateA("cudaviz"); }

nvtxStringHandle_t registered(const char* text) noexcept {
  nvtxDomainHandle_t d = domain();
  return d ? nvtxDomainRegisterStringA(d, text) : nullptr;
}

namespace {
nvtxEventAttributes_t attributes() {
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  return a;
}
}  // namespace

nvtxDomainHandle_t detail::push(nvtxStringHandle_t name) noexcept {
  nvtxDomainHandle_t d = domain();
  nvtxEventAttributes_t a = attributes();
  a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  a.message.registered = name;
  nvtxDomainRangePushEx(d, &a);
  return d;
}

void detail::pop(nvtxDomainHandle_t d) noexcept { nvtxDomainRangePop(d); }

void Range::push(nvtxDomainHandle_t d, const std::string& message) noexcept {
  nvtxEventAttributes_t a = attributes();
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = message.c_str();
  nvtxDomainRangePushEx(d, &a);
  open_ = d;
}

void mark(const char* message) noexcept {
  nvtxDomainHandle_t d = domain();
  if (!d) return;
  nvtxEventAttributes_t a = attributes();
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = message;
  nvtxDomainMarkEx(d, &a);
}

}  // namespace cv::nvtx

#include "gl/vertex_target.h"

#include <stdexcept>
#include <utility>

#include "common/cuda_check.h"
#include "gl/host_target.h"
#include "gl/interop_target.h"

namespace cv {

const char* to_string(TransferMode m) {
  switch (m) {
    case TransferMode::External:
      return "external memory";
    case TransferMode::Interop:
      return "interop";
    case TransferMode::CopyFallback:
      return "copy fallback";
    default:
      return "host upload";
  }
}

VertexWrite VertexTarget::write(cudaStream_t stream) {
  if (open_) throw std::logic_error("VertexTarget::write while another access is open");
  const Opened o = open(stream, false);
  open_ = true;
  return VertexWrite(this, o.device, o.source, stream, false);
}

VertexWrite VertexTarget::read(cudaStream_t stream) {
  if (open_) throw std::logic_error("VertexTarget::read while another access is open");
  const Opened o = open(stream, true);
  open_ = true;
  return VertexWrite(this, o.device, o.source, stream, true);
}

VertexWrite::VertexWrite(VertexWrite&& o) noexcept
    : owner_(std::exchange(o.owner_, nullptr)),
      device_(o.device_),
      source_(o.source_),
      stream_(o.stream_),
      read_only_(o.read_only_),
      host_(o.host_),
      host_bytes_(o.host_bytes_) {}

void VertexWrite::put(const void* host, size_t bytes) {
  if (!owner_) throw std::logic_error("VertexWrite::put after close");
  if (read_only_) throw std::logic_error("VertexWrite::put on a read-only access");
  if (bytes > owner_->bytes())
    throw std::invalid_argument("VertexWrite::put: " + std::to_string(bytes) +
                                " bytes into a vertex buffer of " +
                                std::to_string(owner_->bytes()));
  if (device_) {
    CV_CUDA(cudaMemcpyAsync(device_, host, bytes, cudaMemcpyHostToDevice, stream_));
    return;
  }
  host_ = host;
  host_bytes_ = bytes;
}

void VertexWrite::close() {
  if (!owner_) return;
  VertexTarget* owner = std::exchange(owner_, nullptr);
  owner->open_ = false;
  owner->close(stream_, read_only_ ? nullptr : host_, host_bytes_);
}

VertexWrite::~VertexWrite() {
  try {
    close();
  } catch (...) {
    // Errors are reported by an explicit close(); a scope left by an
    // exception must not throw again.
  }
}

std::unique_ptr<VertexTarget> make_vertex_target(size_t bytes, Backend backend,
                                                 const InteropConfig& interop, bool ping_pong) {
  if (backend == Backend::Cpu) return std::make_unique<HostTarget>(bytes);
  return std::make_unique<InteropTarget>(bytes, interop.start, ping_pong && !interop.single);
}

}  // namespace cv

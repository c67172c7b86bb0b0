#include "gl/interop_buffer.h"

#include <cuda_gl_interop.h>

#include <chrono>
#include <stdexcept>

#include "common/cuda_check.h"
#include "gl/gl_check.h"

namespace cv {

namespace {

GlBuffer allocate_vbo(size_t bytes) {
  GlBuffer vbo = make_buffer();
  glBindBuffer(GL_ARRAY_BUFFER, vbo.get());
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("glBufferData(vertex buffer)");
  return vbo;
}

}  // namespace

InteropBuffer::InteropBuffer(size_t bytes, Backend backend, InteropPath start, bool double_buffer)
    : bytes_(bytes) {
  if (backend == Backend::Cpu)
    throw std::logic_error("InteropBuffer on the CPU backend (its vertices are a HostTarget's)");
  if (start == InteropPath::External) {
    external_error_ = try_external(bytes, double_buffer);
    if (external_error_.empty()) return;
  }
  vbo_[0] = allocate_vbo(bytes);
  if (start != InteropPath::Copy) map_error_ = try_map(double_buffer);
  const InteropChoice choice = choose_interop_path(start, external_error_, map_error_);
  fallback_reason_ = choice.reason;
  if (choice.path == InteropPath::Map) return;
  mode_ = TransferMode::CopyFallback;
  staging_ = DeviceBuffer<unsigned char>(bytes);
  pinned_ = PinnedBuffer<unsigned char>(bytes);
}

std::string InteropBuffer::try_external(size_t bytes, bool double_buffer) {
  if (!GLAD_GL_EXT_memory_object || !GLAD_GL_EXT_memory_object_fd)
    return "GL_EXT_memory_object_fd not supported by this GL";
  try {
    int device = 0;
    CV_CUDA(cudaGetDevice(&device));
    // The driver calls below need the runtime's primary context current.
    CV_CUDA(cudaFree(nullptr));
    const std::string mismatch = gl_cuda_device_mismatch(device);
    if (!mismatch.empty()) return mismatch;
    const CudaVmmApi api = CudaVmmApi::load();
    for (int k = 0; k < (double_buffer ? 2 : 1); ++k) {
      ext_[k] = std::make_unique<ExternalBuffer>(api, device, bytes);
      written_[k].emplace(cudaEventDisableTiming);
    }
    mode_ = TransferMode::External;
    return "";
  } catch (const std::exception& e) {
    for (auto& x : ext_) x.reset();
    for (auto& w : written_) w.reset();
    cudaGetLastError();  // sticky errors must not reach the next path
    return e.what();
  }
}

std::string InteropBuffer::try_map(bool double_buffer) {
  cudaError_t e =
      cudaGraphicsGLRegisterBuffer(&resource_[0], vbo_[0].get(), cudaGraphicsRegisterFlagsNone);
  if (e != cudaSuccess) {
    resource_[0] = nullptr;
    cudaGetLastError();  // registration failures are sticky until read
    return std::string("cudaGraphicsGLRegisterBuffer: ") + cudaGetErrorName(e);
  }
  mode_ = TransferMode::Interop;
  if (double_buffer) {
    vbo_[1] = allocate_vbo(bytes_);
    e = cudaGraphicsGLRegisterBuffer(&resource_[1], vbo_[1].get(), cudaGraphicsRegisterFlagsNone);
    if (e != cudaSuccess) {
      resource_[1] = nullptr;
      cudaGraphicsUnregisterResource(resource_[0]);
      throw CudaError("cudaGraphicsGLRegisterBuffer(second vertex buffer)", e);
    }
  }
  return "";
}

InteropBuffer::~InteropBuffer() {
  for (cudaGraphicsResource* r : resource_)
    if (r) cudaGraphicsUnregisterResource(r);
}

void InteropBuffer::wait_for_gpu() {
  if (!ext_[front_] || !gl_must_wait_[front_]) return;
  const auto t0 = std::chrono::steady_clock::now();
  CV_CUDA(cudaEventSynchronize(written_[front_]->get()));
  sync_wait_ms_ +=
      std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
  gl_must_wait_[front_] = false;
}

GLuint InteropBuffer::vbo() const {
  return ext_[front_] ? ext_[front_]->buffer.get() : vbo_[front_].get();
}

// Map flags are a promise to the driver: read-only lets it skip writing back,
// write-discard lets it skip preserving (and waiting to preserve) the contents.
void InteropBuffer::set_map_flags(int k, unsigned flags) {
  if (map_flags_[k] == flags) return;
  CV_CUDA(cudaGraphicsResourceSetMapFlags(resource_[k], flags));
  map_flags_[k] = flags;
}

void* InteropBuffer::mapped_pointer(int k) {
  void* ptr = nullptr;
  size_t size = 0;
  CV_CUDA(cudaGraphicsResourceGetMappedPointer(&ptr, &size, resource_[k]));
  return ptr;
}

InteropBuffer::Mapping InteropBuffer::map(cudaStream_t stream, Access access) {
  if (mode_ == TransferMode::HostUpload)
    throw std::logic_error("InteropBuffer::map on the CPU backend");
  if (mode_ == TransferMode::CopyFallback)
    return Mapping(this, staging_.get(), staging_.get(), stream, access, false);
  if (mode_ == TransferMode::External) return map_external(stream, access);
  set_map_flags(
      front_, access == Access::ReadOnly ? cudaGraphicsMapFlagsReadOnly : cudaGraphicsMapFlagsNone);
  CV_CUDA(cudaGraphicsMapResources(1, &resource_[front_], stream));
  try {
    void* ptr = mapped_pointer(front_);
    return Mapping(this, ptr, ptr, stream, access, false);
  } catch (...) {
    cudaGraphicsUnmapResources(1, &resource_[front_], stream);
    throw;
  }
}

InteropBuffer::Mapping InteropBuffer::map_next(cudaStream_t stream) {
  if (!double_buffered()) return map(stream);
  if (mode_ == TransferMode::External) return map_next_external(stream);
  const int back = 1 - front_;
  set_map_flags(front_, cudaGraphicsMapFlagsReadOnly);
  set_map_flags(back, cudaGraphicsMapFlagsWriteDiscard);
  cudaGraphicsResource* both[2] = {resource_[front_], resource_[back]};
  CV_CUDA(cudaGraphicsMapResources(2, both, stream));
  try {
    const void* source = mapped_pointer(front_);
    return Mapping(this, mapped_pointer(back), source, stream, Access::ReadWrite, true);
  } catch (...) {
    cudaGraphicsUnmapResources(2, both, stream);
    throw;
  }
}

void InteropBuffer::close(cudaStream_t stream, Access access, bool advance) {
  if (mode_ == TransferMode::External) return close_external(stream, access, advance);
  if (mode_ == TransferMode::Interop) {
    if (advance) {
      cudaGraphicsResource* both[2] = {resource_[front_], resource_[1 - front_]};
      CV_CUDA(cudaGraphicsUnmapResources(2, both, stream));
      front_ = 1 - front_;
    } else {
      CV_CUDA(cudaGraphicsUnmapResources(1, &resource_[front_], stream));
    }
    return;
  }
  if (access == Access::ReadOnly) return;
  // Copy fallback: bring the frame to the host, then into the VBO.
  CV_CUDA(cudaMemcpyAsync(pinned_.get(), staging_.get(), bytes_, cudaMemcpyDeviceToHost, stream));
  CV_CUDA(cudaStreamSynchronize(stream));
  upload(pinned_.get(), bytes_);
}

// Waits (CPU) until GL has finished the work fenced on buffer k.
void InteropBuffer::wait_fence(int k) {
  if (!fence_[k].get()) return;
  const auto t0 = std::chrono::steady_clock::now();
  const GLenum r = glClientWaitSync(fence_[k].get(), GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull);
  fence_[k].reset();
  sync_wait_ms_ +=
      std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (r == GL_WAIT_FAILED || r == GL_TIMEOUT_EXPIRED)
    throw GlError(std::string("glClientWaitSync(before CUDA writes a GL buffer): ") +
                  (r == GL_WAIT_FAILED ? "GL_WAIT_FAILED" : "not signalled after 1 s"));
}

InteropBuffer::Mapping InteropBuffer::map_external(cudaStream_t stream, Access access) {
  // Readers on another stream than the last writer's must wait for it.
  CV_CUDA(cudaStreamWaitEvent(stream, written_[front_]->get(), 0));
  if (access == Access::ReadWrite) {
    // In place: GL may still read this buffer; wait for all GL work so far.
    fence_[front_].set();
    wait_fence(front_);
  }
  void* ptr = ext_[front_]->memory.get();
  return Mapping(this, ptr, ptr, stream, access, false);
}

std::optional<InteropBuffer::Exported> InteropBuffer::export_allocation(const void* device_ptr,
                                                                        bool want_fd) const {
  for (int k = 0; k < 2; ++k) {
    if (!ext_[k] || ext_[k]->memory.get() != device_ptr) continue;
    Exported e;
    e.index = k;
    e.bytes = ext_[k]->memory.size();
    if (want_fd) e.fd = ext_[k]->memory.export_fd();
    return e;
  }
  return std::nullopt;
}

InteropBuffer::Mapping InteropBuffer::map_next_external(cudaStream_t stream) {
  const int back = 1 - front_;
  wait_fence(back);  // GL's reads of `back`, fenced one frame ago
  // GL's reads of the front so far (this frame's draw of it is still to come,
  // but it is the source now, only read by CUDA): fenced now, waited for when
  // it is handed out to write next frame.
  fence_[front_].set();
  check_gl("glFenceSync(external buffer)");
  CV_CUDA(cudaStreamWaitEvent(stream, written_[front_]->get(), 0));
  return Mapping(this, ext_[back]->memory.get(), ext_[front_]->memory.get(), stream,
                 Access::ReadWrite, true);
}

void InteropBuffer::close_external(cudaStream_t stream, Access access, bool advance) {
  if (access == Access::ReadOnly) return;
  const int written = advance ? 1 - front_ : front_;
  written_[written]->record(stream);
  gl_must_wait_[written] = true;
  if (advance) front_ = written;
}

void InteropBuffer::upload(const void* host, size_t bytes) {
  glBindBuffer(GL_ARRAY_BUFFER, vbo_[front_].get());
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), host);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("glBufferSubData(vertex buffer)");
}

InteropBuffer::Mapping::Mapping(Mapping&& o) noexcept
    : owner_(std::exchange(o.owner_, nullptr)),
      ptr_(o.ptr_),
      source_(o.source_),
      stream_(o.stream_),
      access_(o.access_),
      advance_(o.advance_) {}

void InteropBuffer::Mapping::unmap() {
  if (!owner_) return;
  InteropBuffer* owner = std::exchange(owner_, nullptr);
  owner->close(stream_, access_, advance_);
}

InteropBuffer::Mapping::~Mapping() {
  try {
    unmap();
  } catch (...) {
    // Errors are reported by an explicit unmap(); a scope left by an exception
    // must not throw again.
  }
}

}  // namespace cv

#pragma once
// CUDA-allocated device memory that GL imports once (GL_EXT_memory_object_fd),
// so kernels write a GL buffer's storage directly with no per-frame map.
//
// CudaExportableMemory: cuMemCreate (POSIX fd handle requested) +
// cuMemAddressReserve + cuMemMap + cuMemSetAccess, size rounded up to the
// allocation granularity, through the driver API table (common/cuda_driver.h).
// GlImportedBuffer: the GL memory object imported from the
// exported fd (GL owns the fd after a successful import) and a buffer whose
// storage is that memory object. ExternalBuffer holds both, GL first so GL's
// names go before the CUDA memory they alias.
//
// There is no synchronisation here: the owner (InteropBuffer) orders CUDA's
// writes and GL's reads explicitly (see interop_buffer.h).
#include "common/cuda_driver.h"

#include <cstddef>
#include <stdexcept>
#include <string>

#include "gl/gl_objects.h"

namespace cv {

// Why the external path cannot be used; InteropBuffer falls back on it.
class ExternalMemoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The driver entry points (common/cuda_driver.h, the one loader), with this
// path's error type: load() and check() throw ExternalMemoryError.
struct CudaVmmApi : CudaDriver {
  static CudaVmmApi load();
  void check(CUresult r, const char* call) const;
};

class CudaExportableMemory {
 public:
  CudaExportableMemory(const CudaVmmApi& api, int device, size_t bytes);
  ~CudaExportableMemory();
  CudaExportableMemory(const CudaExportableMemory&) = delete;
  CudaExportableMemory& operator=(const CudaExportableMemory&) = delete;
  void* get() const { return reinterpret_cast<void*>(ptr_); }
  size_t size() const { return size_; }  // the rounded-up allocation size
  int export_fd() const;                 // a new fd; the caller owns it

 private:
  void release();
  CudaVmmApi api_;
  CUmemGenericAllocationHandle handle_ = 0;
  CUdeviceptr ptr_ = 0;
  size_t size_ = 0;
  bool mapped_ = false;
};

class GlMemoryObject {
 public:
  // Imports `size` bytes from `fd`; on success GL owns the fd, on failure it
  // is closed here. Throws ExternalMemoryError.
  GlMemoryObject(int fd, size_t size);
  ~GlMemoryObject();
  GlMemoryObject(const GlMemoryObject&) = delete;
  GlMemoryObject& operator=(const GlMemoryObject&) = delete;
  GLuint get() const { return id_; }

 private:
  GLuint id_ = 0;
};

// "" when GL's device (GL_DEVICE_UUID_EXT) is CUDA's `device`, else why not.
std::string gl_cuda_device_mismatch(int device);

struct ExternalBuffer {
  ExternalBuffer(const CudaVmmApi& api, int device, size_t bytes);
  CudaExportableMemory memory;  // declared first: destroyed last
  GlMemoryObject object;
  GlBuffer buffer;
};

}  // namespace cv

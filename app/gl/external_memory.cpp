#include "gl/external_memory.h"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace cv {

namespace {

// The GL error after an external-memory call, as ExternalMemoryError.
void check_gl_import(const char* call) {
  const GLenum e = glGetError();
  if (e == GL_NO_ERROR) return;
  while (glGetError() != GL_NO_ERROR) {
  }
  char code[16];
  std::snprintf(code, sizeof code, "0x%04X", e);
  throw ExternalMemoryError(std::string(call) + " failed with GL error " + code);
}

}  // namespace

CudaVmmApi CudaVmmApi::load() {
  try {
    CudaVmmApi a;
    static_cast<CudaDriver&>(a) = CudaDriver::load();
    return a;
  } catch (const std::runtime_error& e) {
    throw ExternalMemoryError(e.what());
  }
}

void CudaVmmApi::check(CUresult r, const char* call) const {
  if (r == CUDA_SUCCESS) return;
  throw ExternalMemoryError(std::string(call) + " failed: " + name(r));
}

CudaExportableMemory::CudaExportableMemory(const CudaVmmApi& api, int device, size_t bytes)
    : api_(api) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  size_t gran = 0;
  api_.check(api_.granularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED),
             "cuMemGetAllocationGranularity");
  if (gran == 0) throw ExternalMemoryError("cuMemGetAllocationGranularity returned 0");
  size_ = (bytes + gran - 1) / gran * gran;  // cuMemCreate/cuMemMap need whole granules
  api_.check(api_.create(&handle_, size_, &prop, 0), "cuMemCreate(POSIX fd exportable)");
  try {
    api_.check(api_.reserve(&ptr_, size_, gran, 0, 0), "cuMemAddressReserve");
    api_.check(api_.map(ptr_, size_, 0, handle_, 0), "cuMemMap");
    mapped_ = true;
    CUmemAccessDesc access{};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    api_.check(api_.set_access(ptr_, size_, &access, 1), "cuMemSetAccess");
  } catch (...) {
    release();
    throw;
  }
}

void CudaExportableMemory::release() {
  if (mapped_) api_.unmap(ptr_, size_);
  if (ptr_) api_.address_free(ptr_, size_);
  if (handle_) api_.release(handle_);
  mapped_ = false;
  ptr_ = 0;
  handle_ = 0;
}

CudaExportableMemory::~CudaExportableMemory() {
  // Kernels may still be writing: unmapping under them is undefined.
  cudaDeviceSynchronize();
  release();
}

int CudaExportableMemory::export_fd() const {
  int fd = -1;
  api_.check(api_.export_handle(&fd, handle_, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
             "cuMemExportToShareableHandle");
  return fd;
}

GlMemoryObject::GlMemoryObject(int fd, size_t size) {
  glCreateMemoryObjectsEXT(1, &id_);
  try {
    check_gl_import("glCreateMemoryObjectsEXT");
    // Not a dedicated allocation (GL_DEDICATED_MEMORY_OBJECT_EXT stays false):
    // cuMemCreate memory backs no particular image or buffer.
    glImportMemoryFdEXT(id_, static_cast<GLuint64>(size), GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);
    check_gl_import("glImportMemoryFdEXT(GL_HANDLE_TYPE_OPAQUE_FD_EXT)");
  } catch (...) {
    close(fd);  // only a successful import takes the fd
    if (id_) glDeleteMemoryObjectsEXT(1, &id_);
    throw;
  }
}

GlMemoryObject::~GlMemoryObject() {
  if (id_) glDeleteMemoryObjectsEXT(1, &id_);
}

std::string gl_cuda_device_mismatch(int device) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();
    return "cudaGetDeviceProperties failed";
  }
  GLint n = 0;
  glGetIntegerv(GL_NUM_DEVICE_UUIDS_EXT, &n);
  check_gl_import("glGetIntegerv(GL_NUM_DEVICE_UUIDS_EXT)");
  for (GLint i = 0; i < n; ++i) {
    GLubyte uuid[GL_UUID_SIZE_EXT] = {};
    glGetUnsignedBytei_vEXT(GL_DEVICE_UUID_EXT, static_cast<GLuint>(i), uuid);
    check_gl_import("glGetUnsignedBytei_vEXT(GL_DEVICE_UUID_EXT)");
    if (std::memcmp(uuid, prop.uuid.bytes, GL_UUID_SIZE_EXT) == 0) return "";
  }
  return "GL's device UUID (" + std::to_string(n) + " device(s)) is not CUDA device " +
         std::to_string(device) + " (" + prop.name + ")";
}

ExternalBuffer::ExternalBuffer(const CudaVmmApi& api, int device, size_t bytes)
    : memory(api, device, bytes), object(memory.export_fd(), memory.size()) {
  GLuint id = 0;
  glGenBuffers(1, &id);
  buffer = GlBuffer(id);
  glBindBuffer(GL_ARRAY_BUFFER, id);
  // Storage is the whole imported object: GL sees `bytes` and more (padding).
  glBufferStorageMemEXT(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(memory.size()), object.get(), 0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl_import("glBufferStorageMemEXT");
}

}  // namespace cv

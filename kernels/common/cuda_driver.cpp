#include "common/cuda_driver.h"

#include <cuda_runtime_api.h>

#include <stdexcept>

namespace cv {
namespace {

template <class Fn>
void entry(const char* symbol, Fn& fn) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t e = cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &q);
  if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !p) {
    cudaGetLastError();  // not sticky: the caller falls back
    throw std::runtime_error(std::string("driver entry point ") + symbol + " unavailable (" +
                             cudaGetErrorName(e) + ")");
  }
  fn = reinterpret_cast<Fn>(p);
}

}  // namespace

CudaDriver CudaDriver::load() {
  CudaDriver d;
  entry("cuGetErrorName", d.error_name);
  entry("cuGetErrorString", d.error_string);
  entry("cuMemGetAllocationGranularity", d.granularity);
  entry("cuMemCreate", d.create);
  entry("cuMemRelease", d.release);
  entry("cuMemAddressReserve", d.reserve);
  entry("cuMemAddressFree", d.address_free);
  entry("cuMemMap", d.map);
  entry("cuMemUnmap", d.unmap);
  entry("cuMemSetAccess", d.set_access);
  entry("cuMemExportToShareableHandle", d.export_handle);
  entry("cuMemImportFromShareableHandle", d.import_handle);
  entry("cuModuleLoadData", d.module_load);
  entry("cuModuleLoadDataEx", d.module_load_ex);
  entry("cuModuleUnload", d.module_unload);
  entry("cuModuleGetFunction", d.get_function);
  entry("cuModuleGetGlobal", d.get_global);
  entry("cuLaunchKernel", d.launch);
  entry("cuFuncGetAttribute", d.func_attribute);
  entry("cuOccupancyMaxActiveBlocksPerMultiprocessor", d.occupancy);
  return d;
}

std::string CudaDriver::name(CUresult r) const {
  const char* n = nullptr;
  return error_name && error_name(r, &n) == CUDA_SUCCESS && n ? n : "CUresult " + std::to_string(r);
}

std::string CudaDriver::text(CUresult r) const {
  const char* s = nullptr;
  return error_string && error_string(r, &s) == CUDA_SUCCESS && s ? s : "";
}

}  // namespace cv

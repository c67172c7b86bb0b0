#pragma once
// The CUDA driver API entry points cudaviz uses (the app's exportable vertex
// memory, the runner's modules, launches and imported memory), in one table.
// They are reached through cudaGetDriverEntryPointByVersion, never linked:
// the app must start on machines with no driver (libcuda absent), and nothing
// here runs before the runtime found a device.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <string>

namespace cv {

struct CudaDriver {
  PFN_cuGetErrorName_v6000 error_name = nullptr;
  PFN_cuGetErrorString_v6000 error_string = nullptr;
  // Virtual memory management: exportable and imported allocations.
  PFN_cuMemGetAllocationGranularity_v10020 granularity = nullptr;
  PFN_cuMemCreate_v10020 create = nullptr;
  PFN_cuMemRelease_v10020 release = nullptr;
  PFN_cuMemAddressReserve_v10020 reserve = nullptr;
  PFN_cuMemAddressFree_v10020 address_free = nullptr;
  PFN_cuMemMap_v10020 map = nullptr;
  PFN_cuMemUnmap_v10020 unmap = nullptr;
  PFN_cuMemSetAccess_v10020 set_access = nullptr;
  PFN_cuMemExportToShareableHandle_v10020 export_handle = nullptr;
  PFN_cuMemImportFromShareableHandle_v10020 import_handle = nullptr;
  // Modules and launches (the runner).
  PFN_cuModuleLoadData_v2000 module_load = nullptr;
  PFN_cuModuleLoadDataEx_v2010 module_load_ex = nullptr;  // with JIT options (a register cap)
  PFN_cuModuleUnload_v2000 module_unload = nullptr;
  PFN_cuModuleGetFunction_v2000 get_function = nullptr;
  PFN_cuModuleGetGlobal_v3020 get_global = nullptr;
  PFN_cuLaunchKernel_v4000 launch = nullptr;
  PFN_cuFuncGetAttribute_v2020 func_attribute = nullptr;
  PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor_v6050 occupancy = nullptr;

  // Every entry point; throws std::runtime_error naming the first one missing.
  static CudaDriver load();
  std::string name(CUresult r) const;  // "CUDA_ERROR_ILLEGAL_ADDRESS"
  std::string text(CUresult r) const;  // the driver's sentence, "" when none
};

}  // namespace cv

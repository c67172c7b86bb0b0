#pragma once
// One warp's global loads and stores, as the memory-access view draws them:
// each lane's address for each access of a kernel, from the kernel's own index
// function (fountain_math.h, launch_ids.h: the functions the kernels call),
// against 32-byte sectors and 128-byte lines, with sectors per request and the
// resulting efficiency.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "insight/launch_ids.h"

namespace cv::insight {

constexpr unsigned kSectorBytes = 32, kLineBytes = 128;

// One global access of the kernel: array[element_offset + i], `bytes` wide.
struct AccessSpec {
  std::string what;  // e.g. "load vbo[i] (float4)"
  bool store = false;
  unsigned bytes = 4;
  unsigned long long array_base = 0;      // bytes; allocations are 256-byte aligned
  unsigned long long element_offset = 0;  // e.g. count for the document's colours
};

// A kernel for the view: its accesses, and which element a thread touches (-1: exits early).
struct AccessKernel {
  std::string name;
  Dim3u block_dim;
  Dim3u grid;
  std::vector<AccessSpec> accesses;
  std::function<long long(const Dim3u& block, const Dim3u& thread)> element;
};

struct LaneAccess {
  bool active = false;
  unsigned long long address = 0;
};

struct WarpRequest {
  AccessSpec spec;
  std::vector<LaneAccess> lanes;  // 32
  unsigned active_lanes = 0;
  unsigned sectors = 0, lines = 0;
  unsigned long long useful_bytes = 0;  // distinct bytes the lanes ask for
  double efficiency = 0;                // useful / (sectors x 32)
};

struct WarpAccessPicture {
  std::string kernel;
  unsigned long long block = 0;
  unsigned warp = 0;
  std::vector<WarpRequest> requests;
  double sectors_per_request = 0;  // over requests with an active lane
  double efficiency = 0;           // all useful bytes / all sector bytes
};

// Warp `warp` of block `block_lin` (x fastest over the grid). Throws
// std::invalid_argument when the block or warp does not exist.
WarpAccessPicture warp_accesses(const AccessKernel& k, unsigned long long block_lin, unsigned warp);

// Distinct 32-byte sectors / 128-byte lines the active lanes' `bytes`-wide accesses touch.
unsigned count_sectors(const std::vector<LaneAccess>& lanes, unsigned bytes);
unsigned count_lines(const std::vector<LaneAccess>& lanes, unsigned bytes);

// A model's separate allocations: each starts at a distinct, 256-byte aligned address.
constexpr unsigned long long kSecondArray = 1ull << 32, kThirdArray = 2ull << 32;
Dim3u dim_of(const BlockShape& b);

// Each scene's model lives beside its kernel (fountain/fountain_access.h,
// swarm/swarm_access.h) and reaches the memory view through the scene's
// registry entry (SceneDescriptor::access_model).

}  // namespace cv::insight

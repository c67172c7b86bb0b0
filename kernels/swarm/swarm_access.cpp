#include "swarm/swarm_access.h"

#include "swarm/swarm.h"

namespace cv::insight {

AccessKernel swarm_access_kernel(unsigned count, const BlockShape& block) {
  const swarm::Grid g = swarm::make_grid(count);
  AccessKernel k;
  k.name = "swarm step_kernel";
  k.block_dim = dim_of(block);
  const unsigned rows = k.block_dim.y * k.block_dim.z;
  k.grid = {(g.width + k.block_dim.x - 1) / k.block_dim.x, (g.height + rows - 1) / rows, 1};
  const Dim3u bdim = k.block_dim;
  k.element = [g, bdim](const Dim3u& b, const Dim3u& t) -> long long {
    const Xy xy = rows_yz_xy(b, t, bdim);  // as swarm.cu's step_kernel
    if (xy.x >= g.width || xy.y >= g.height) return -1;
    const unsigned long long i = static_cast<unsigned long long>(xy.y) * g.width + xy.x;
    return i < g.count ? static_cast<long long>(i) : -1;
  };
  k.accesses = {{"load vbo[i] (float4)", false, 16, 0, 0},
                {"load state[i] (float4)", false, 16, kThirdArray, 0},
                {"store vbo[i] (float4)", true, 16, 0, 0},
                {"store state[i] (float4)", true, 16, kThirdArray, 0}};
  return k;
}

}  // namespace cv::insight

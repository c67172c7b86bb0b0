#include "fountain/fountain_access.h"

#include "fountain/fountain.h"

namespace cv::insight {

std::optional<AccessKernel> fountain_access_kernel(const std::string& variant, unsigned count,
                                                   const BlockShape& block) {
  const auto v = fountain::parse_variant(variant);
  if (!v) return std::nullopt;
  const fountain::Grid g = fountain::make_grid(count);
  AccessKernel k;
  k.block_dim = dim_of(block);
  k.grid = {(g.width + k.block_dim.x - 1) / k.block_dim.x,
            (g.height + k.block_dim.y - 1) / k.block_dim.y, 1};
  // The kernels' own index functions (fountain_math.h).
  const Dim3u bdim = k.block_dim;
  k.element = [g, bdim](const Dim3u& b, const Dim3u& t) -> long long {
    const Xy xy = fountain::thread_xy(b, t, bdim);
    const unsigned i = fountain::particle_index(xy.x, xy.y, g);
    return fountain::particle_exists(xy.x, i, g) ? static_cast<long long>(i) : -1;
  };
  if (*v == fountain::Variant::Lean) {
    k.name = "fountain step_lean";
    k.accesses = {{"load vbo[i] (float4 x, y, z, age)", false, 16, 0, 0},
                  {"load vy[i] (float)", false, 4, kSecondArray, 0},
                  {"store vbo[i] (float4)", true, 16, 0, 0},
                  {"store vy[i] (float)", true, 4, kSecondArray, 0}};
  } else {
    k.name = "fountain step_original";
    k.accesses = {{"load state[i] (float4 age, vx, vy, vz)", false, 16, kSecondArray, 0},
                  {"load vbo[i] (float4 position)", false, 16, 0, 0},
                  {"store state[i] (float4)", true, 16, kSecondArray, 0},
                  {"store vbo[count + i] (float4 colour)", true, 16, 0, count},
                  {"store vbo[i] (float4 position)", true, 16, 0, 0}};
  }
  return k;
}

}  // namespace cv::insight

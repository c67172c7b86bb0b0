#include "insight/access_model.h"

#include <set>
#include <stdexcept>

#include "fountain/fountain.h"
#include "swarm/swarm.h"

namespace cv::insight {
namespace {

// Separate allocations start at distinct, 256-byte aligned addresses.
constexpr unsigned long long kSecondArray = 1ull << 32, kThirdArray = 2ull << 32;

Dim3u dim(const BlockShape& b) {
  return {static_cast<unsigned>(b.x), static_cast<unsigned>(b.y), static_cast<unsigned>(b.z)};
}

template <class Unit>
unsigned count_units(const std::vector<LaneAccess>& lanes, unsigned bytes, Unit unit) {
  std::set<unsigned long long> seen;
  for (const LaneAccess& l : lanes)
    if (l.active)
      for (unsigned long long u = l.address / unit; u <= (l.address + bytes - 1) / unit; ++u)
        seen.insert(u);
  return static_cast<unsigned>(seen.size());
}

unsigned long long distinct_bytes(const std::vector<LaneAccess>& lanes, unsigned bytes) {
  std::set<unsigned long long> starts;  // lanes of one access are equally wide and aligned
  for (const LaneAccess& l : lanes)
    if (l.active) starts.insert(l.address);
  return starts.size() * bytes;
}

}  // namespace

unsigned count_sectors(const std::vector<LaneAccess>& lanes, unsigned bytes) {
  return count_units(lanes, bytes, kSectorBytes);
}
unsigned count_lines(const std::vector<LaneAccess>& lanes, unsigned bytes) {
  return count_units(lanes, bytes, kLineBytes);
}

WarpAccessPicture warp_accesses(const AccessKernel& k, unsigned long long block_lin,
                                unsigned warp) {
  const unsigned long long blocks = static_cast<unsigned long long>(k.grid.x) * k.grid.y * k.grid.z;
  if (block_lin >= blocks || warp >= warps_per_block(k.block_dim))
    throw std::invalid_argument("block " + std::to_string(block_lin) + " / warp " +
                                std::to_string(warp) + " is not in the launch (" +
                                std::to_string(blocks) + " blocks of " +
                                std::to_string(warps_per_block(k.block_dim)) + " warps)");
  const Dim3u b{
      static_cast<unsigned>(block_lin % k.grid.x),
      static_cast<unsigned>((block_lin / k.grid.x) % k.grid.y),
      static_cast<unsigned>(block_lin / (static_cast<unsigned long long>(k.grid.x) * k.grid.y))};
  WarpAccessPicture pic;
  pic.kernel = k.name;
  pic.block = block_lin;
  pic.warp = warp;
  const Dim3u& bd = k.block_dim;
  unsigned long long used = 0, fetched = 0, sectors = 0, requests = 0;
  for (const AccessSpec& a : k.accesses) {
    WarpRequest r;
    r.spec = a;
    r.lanes.resize(kWarpSize);
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      const unsigned t = warp * kWarpSize + lane;
      if (t >= block_threads(bd)) continue;  // a partial last warp
      const Dim3u th{t % bd.x, (t / bd.x) % bd.y, t / (bd.x * bd.y)};
      const long long i = k.element(b, th);
      if (i < 0) continue;
      r.lanes[lane] = {
          true, a.array_base + (a.element_offset + static_cast<unsigned long long>(i)) * a.bytes};
      ++r.active_lanes;
    }
    r.sectors = count_sectors(r.lanes, a.bytes);
    r.lines = count_lines(r.lanes, a.bytes);
    r.useful_bytes = distinct_bytes(r.lanes, a.bytes);
    r.efficiency = r.sectors ? static_cast<double>(r.useful_bytes) / (r.sectors * kSectorBytes) : 0;
    if (r.active_lanes) {
      ++requests;
      sectors += r.sectors;
      used += r.useful_bytes;
      fetched += r.sectors * kSectorBytes;
    }
    pic.requests.push_back(std::move(r));
  }
  pic.sectors_per_request = requests ? static_cast<double>(sectors) / requests : 0;
  pic.efficiency = fetched ? static_cast<double>(used) / fetched : 0;
  return pic;
}

std::optional<AccessKernel> fountain_access_kernel(const std::string& variant, unsigned count,
                                                   const BlockShape& block) {
  const auto v = fountain::parse_variant(variant);
  if (!v) return std::nullopt;
  const fountain::Grid g = fountain::make_grid(count);
  AccessKernel k;
  k.block_dim = dim(block);
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
    k.name = "fountain step_seed";
    k.accesses = {{"load state[i] (float4 age, vx, vy, vz)", false, 16, kSecondArray, 0},
                  {"load vbo[i] (float4 position)", false, 16, 0, 0},
                  {"store state[i] (float4)", true, 16, kSecondArray, 0},
                  {"store vbo[count + i] (float4 colour)", true, 16, 0, count},
                  {"store vbo[i] (float4 position)", true, 16, 0, 0}};
  }
  return k;
}

AccessKernel swarm_access_kernel(unsigned count, const BlockShape& block) {
  const swarm::Grid g = swarm::make_grid(count);
  AccessKernel k;
  k.name = "swarm step_kernel";
  k.block_dim = dim(block);
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

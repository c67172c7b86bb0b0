#include "insight/access_model.h"

#include <set>
#include <stdexcept>


namespace cv::insight {
namespace {

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

Dim3u dim_of(const BlockShape& b) {
  return {static_cast<unsigned>(b.x), static_cast<unsigned>(b.y), static_cast<unsigned>(b.z)};
}

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

}  // namespace cv::insight

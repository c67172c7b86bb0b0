#include "usercode/emu/explain_analysis.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "insight/access_model.h"

namespace cv::emu {
namespace {

constexpr size_t kMaxTouches = 50000, kMaxWarpRequests = 64, kPairScan = 256;

cv_emu::Dim unflatten(uint64_t i, const cv_emu::Dim& d) {
  return {static_cast<unsigned>(i % d.x), static_cast<unsigned>((i / d.x) % d.y),
          static_cast<unsigned>(i / (static_cast<uint64_t>(d.x) * d.y))};
}

const char* verb(int kind) {
  return kind == cv_emu::kWrite ? "wrote" : kind == cv_emu::kAtomic ? "updated it atomically" : "read";
}

bool conflict(const Event& a, const Event& b) {
  if (a.block == b.block && a.thread == b.thread) return false;
  if (a.kind == cv_emu::kRead && b.kind == cv_emu::kRead) return false;
  if (a.kind == cv_emu::kAtomic && b.kind == cv_emu::kAtomic) return false;
  if (a.address + a.bytes <= b.address || b.address + b.bytes <= a.address) return false;
  if (a.block == b.block) {
    if (a.bepoch != b.bepoch) return false;  // a barrier lies between them
    if (a.thread / 32 == b.thread / 32 && a.wepoch != b.wepoch) return false;  // a warp sync does
  }
  return true;
}

// Events grouped by a key of two numbers, in event order within a key (as a
// stable sort gives). The keys are made once, not per comparison, and kept
// small: a truncated explain holds 4 M events.
struct SortKey {
  uint64_t hi, lo;
};
bool same(const SortKey& x, const SortKey& y) { return x.hi == y.hi && x.lo == y.lo; }

// The events `keep` accepts, ordered by key_of.
template <class Keep, class KeyOf>
std::vector<uint32_t> sorted_by(const std::vector<Event>& events, Keep keep, KeyOf key_of) {
  struct Item {
    SortKey k;
    uint32_t i;
  };
  std::vector<Item> items;
  items.reserve(events.size());  // address space only: pages are touched as items are kept
  for (uint32_t i = 0; i < events.size(); ++i)
    if (keep(events[i])) items.push_back({key_of(events[i]), i});
  std::sort(items.begin(), items.end(), [](const Item& x, const Item& y) {
    return std::tie(x.k.hi, x.k.lo, x.i) < std::tie(y.k.hi, y.k.lo, y.i);
  });
  std::vector<uint32_t> order(items.size());
  for (size_t j = 0; j < items.size(); ++j) order[j] = items[j].i;
  return order;
}

}  // namespace

std::string race_sentence(const Race& r) {
  auto side = [&](const RaceSide& s, bool with_block) {
    std::string t = "thread " + std::string("(") + std::to_string(s.who.thread.x) + "," +
                    std::to_string(s.who.thread.y) + "," + std::to_string(s.who.thread.z) + ")";
    if (with_block)
      t += " of block (" + std::to_string(s.who.block.x) + "," + std::to_string(s.who.block.y) + "," +
           std::to_string(s.who.block.z) + ")";
    std::string v = verb(s.kind);
    if (s.kind != cv_emu::kAtomic) v += " it";
    return t + " " + v + (s.line ? " at line " + std::to_string(s.line) : " (line unknown)");
  };
  const bool same_block = r.first.who.block.x == r.second.who.block.x &&
                          r.first.who.block.y == r.second.who.block.y &&
                          r.first.who.block.z == r.second.who.block.z;
  return "race on " + r.buffer + "[" + std::to_string(r.index) + "]" + (r.shared ? " (shared memory)" : "") +
         ": " + side(r.first, true) + ", " + side(r.second, !same_block);
}

Explain analyse(std::vector<Event>& events, const BranchMap& branches,
                const AnalysisInput& in) {
  Explain x;
  const std::vector<usercode::BufferView>& bufs = *in.buffers;
  for (const usercode::BufferView& b : bufs) x.buffers.push_back(b.name);
  x.block = unflatten(in.chosen_block, in.grid);
  x.warp = in.chosen_warp;
  x.block_threads = in.block.x * in.block.y * in.block.z;
  x.events = events.size();
  x.scope =
      "Recorded: every load, store and atomic your kernel makes to the launch's buffers and to shared "
      "memory, through a cv::Span or a raw pointer; memory outside them (locals, your own arrays) is not.";

  std::unordered_map<uint64_t, int> line_cache;
  auto line_of = [&](uint64_t w) {
    auto it = line_cache.find(w);
    if (it != line_cache.end()) return it->second;
    return line_cache[w] = in.line_of ? in.line_of(w) : 0;
  };
  auto elem_bytes = [&](const Event& e) -> uint64_t {
    return e.space == kSharedSpace ? 4 : std::max(1u, bufs[e.space].elem_bytes);
  };
  auto name_of = [&](const Event& e, long long& index) -> std::string {
    if (e.space == kSharedSpace) {
      const SharedName n = in.shared_name ? in.shared_name(e.address, e.bytes) : SharedName{"shared", 0};
      index = n.index;
      return n.name;
    }
    index = static_cast<long long>(e.address / elem_bytes(e));
    return bufs[e.space].name;
  };
  auto thread_ref = [&](const Event& e) {
    return ThreadRef{unflatten(e.block, in.grid), unflatten(e.thread, in.block)};
  };

  // ---- races -----------------------------------------------------------------
  auto unit = [&](const Event& e) {
    const uint64_t shared_block = e.space == kSharedSpace ? e.block : 0;
    return SortKey{(uint64_t{e.space} << 32) | shared_block, e.address / elem_bytes(e)};
  };
  // Only memory something writes can race: a buffer only read (the data, the
  // bodies) stays out of the sort, often most of the events.
  bool written[256] = {};
  for (const Event& e : events) written[e.space] = written[e.space] || e.kind != cv_emu::kRead;
  const std::vector<uint32_t> order = sorted_by(events, [&](const Event& e) { return written[e.space]; }, unit);
  for (size_t g = 0; g < order.size();) {
    size_t end = g + 1;
    while (end < order.size() && same(unit(events[order[end]]), unit(events[order[g]]))) ++end;
    bool writes = false, reads_or_plain = false;
    for (size_t i = g; i < end; ++i) {
      const int k = events[order[i]].kind;
      writes = writes || k != cv_emu::kRead;
      reads_or_plain = reads_or_plain || k != cv_emu::kAtomic;
    }
    if (writes && reads_or_plain && end - g > 1) {
      bool found = false;
      for (size_t i = g; i < end && i < g + kPairScan && !found; ++i)
        for (size_t j = g; j < end && !found; ++j) {
          const Event &a = events[order[i]], &b = events[order[j]];
          if (i == j || a.kind == cv_emu::kRead || !conflict(a, b)) continue;
          found = true;
          ++x.racy_elements;
          if (x.races.size() >= kMaxRaces) break;
          Race r;
          r.shared = a.space == kSharedSpace;
          r.buffer = name_of(a, r.index);
          r.first = {thread_ref(a), a.kind, line_of(a.where)};
          r.second = {thread_ref(b), b.kind, line_of(b.where)};
          r.sentence = race_sentence(r);
          x.races.push_back(std::move(r));
        }
    }
    g = end;
  }

  // ---- sectors per request (global memory) -------------------------------------
  // A warp's requests of one access: (block, warp), then the code address.
  auto req_key = [&](const Event& e) { return SortKey{(uint64_t{e.block} << 6) | (e.thread / 32), e.where}; };
  const std::vector<uint32_t> glob =
      sorted_by(events, [](const Event& e) { return e.space != kSharedSpace; }, req_key);
  std::map<std::tuple<int, int, int>, SectorLine> lines;  // (line, buffer, kind)
  const uint64_t chosen_block = in.chosen_block;
  for (size_t g = 0; g < glob.size();) {
    size_t end = g + 1;
    while (end < glob.size() && same(req_key(events[glob[end]]), req_key(events[glob[g]]))) ++end;
    std::vector<std::vector<uint32_t>> per_lane(32);
    for (size_t i = g; i < end; ++i) per_lane[events[glob[i]].thread % 32].push_back(glob[i]);
    size_t reqs = 0;
    for (const auto& l : per_lane) reqs = std::max(reqs, l.size());
    const Event& first = events[glob[g]];
    const int line = line_of(first.where);
    for (size_t k = 0; k < reqs; ++k) {
      std::vector<insight::LaneAccess> lanes(32);
      unsigned bytes = 0;
      std::vector<uint64_t> distinct;
      WarpRequest wr;
      wr.lane_offset.assign(32, -1);
      for (unsigned l = 0; l < 32; ++l) {
        if (k >= per_lane[l].size()) continue;
        const Event& e = events[per_lane[l][k]];
        lanes[l].active = true;
        lanes[l].address = (static_cast<uint64_t>(e.space) << 40) + e.address;
        wr.lane_offset[l] = static_cast<long long>(e.address);
        bytes = std::max(bytes, e.bytes);
        distinct.push_back(lanes[l].address);
      }
      std::sort(distinct.begin(), distinct.end());
      const size_t useful = static_cast<size_t>(std::unique(distinct.begin(), distinct.end()) - distinct.begin());
      const unsigned sectors = insight::count_sectors(lanes, bytes);
      SectorLine& s = lines[{line, first.space, first.kind}];
      s.line = line;
      s.buffer = bufs[first.space].name;
      s.kind = first.kind;
      s.bytes = std::max(s.bytes, bytes);
      ++s.requests;
      s.sectors += sectors;
      s.efficiency += static_cast<double>(useful) * bytes;  // distinct bytes asked, divided below
      if (first.block == chosen_block && first.thread / 32 == in.chosen_warp &&
          x.warp_requests.size() < kMaxWarpRequests) {
        wr.line = line;
        wr.buffer = s.buffer;
        wr.kind = first.kind;
        wr.bytes = bytes;
        wr.sectors = sectors;
        x.warp_requests.push_back(std::move(wr));
      }
    }
    g = end;
  }
  for (auto& [key, s] : lines) {
    s.sectors_per_request = s.requests ? static_cast<double>(s.sectors) / s.requests : 0;
    s.efficiency = s.sectors ? std::min(1.0, s.efficiency / (s.sectors * 32.0)) : 0;
    x.sectors.push_back(s);
  }

  // ---- divergence ----------------------------------------------------------------
  std::map<int, Branch> by_line;
  for (const auto& [key, m] : branches) {
    Branch& b = by_line[key.line];
    b.line = key.line;
    ++b.warps;
    b.lanes_taken += static_cast<unsigned>(__builtin_popcount(m.taken));
    b.lanes_not_taken += static_cast<unsigned>(__builtin_popcount(m.not_taken));
    if (m.taken && m.not_taken) ++b.divergent_warps;
  }
  for (auto& [line, b] : by_line) x.branches.push_back(b);

  // ---- who touched what (the chosen block) ----------------------------------------
  for (const Event& e : events) {
    if (e.block != chosen_block) continue;
    if (x.touches.size() >= kMaxTouches) break;
    Touch t;
    t.shared = e.space == kSharedSpace;
    t.buffer = name_of(e, t.index);
    t.thread = e.thread;
    t.kind = e.kind;
    t.line = line_of(e.where);
    x.touches.push_back(std::move(t));
  }
  std::stable_sort(x.touches.begin(), x.touches.end(), [](const Touch& a, const Touch& b) {
    return std::tie(a.thread) < std::tie(b.thread);
  });
  return x;
}

}  // namespace cv::emu

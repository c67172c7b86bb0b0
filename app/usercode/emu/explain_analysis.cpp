#include "usercode/emu/explain_analysis.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include "insight/access_model.h"
#include "usercode/emu/explain_races.h"
#include "usercode/emu/explain_sort.h"

namespace cv::emu {
namespace {

constexpr size_t kMaxTouches = 50000, kMaxWarpRequests = 64;

cv_emu::Dim unflatten(uint64_t i, const cv_emu::Dim& d) {
  return {static_cast<unsigned>(i % d.x), static_cast<unsigned>((i / d.x) % d.y),
          static_cast<unsigned>(i / (static_cast<uint64_t>(d.x) * d.y))};
}

struct Analysis {
  const AnalysisInput& in;
  const std::vector<usercode::BufferView>& bufs;
  std::unordered_map<uint64_t, Place> place_cache;

  Place place(uint64_t w) {
    auto it = place_cache.find(w);
    if (it != place_cache.end()) return it->second;
    return place_cache[w] = in.place_of ? in.place_of(w) : Place{};
  }
  // The GPU compiler's layout of the loop around the access at `where`, if unrolled.
  const UnrolledLoop* unrolled_at(uint64_t where) {
    const int line = place(where).line;
    for (const UnrolledLoop& u : in.unrolled)
      if (u.line == line) return &u;
    return nullptr;
  }
  uint64_t elem_bytes(const Event& e) const {
    return e.space == kSharedSpace ? 4 : std::max(1u, bufs[e.space].elem_bytes);
  }
  // The array an event touched, its element (flat) and as the student writes it.
  std::string name_of(const Event& e, long long& index, std::string& element) {
    if (e.space == kSharedSpace) {
      const SharedName n = in.shared_name ? in.shared_name(e.address, e.bytes, place(e.where).line)
                                          : SharedName{"shared", static_cast<long long>(e.address / 4), ""};
      index = n.index;
      element = n.element.empty() ? n.name + "[" + std::to_string(n.index) + "]" : n.element;
      return n.name;
    }
    index = static_cast<long long>(e.address / elem_bytes(e));
    element = bufs[e.space].name + "[" + std::to_string(index) + "]";
    return bufs[e.space].name;
  }
};

// Which request a lane's k-th pass (of `passes`) through an access joins: in
// source order the k-th, with every lane's k-th. In a loop unrolled U times
// with the remainder first, a lane runs its T % U remainder passes, then the
// body's passes of U copies each; with the remainder last, the body first.
// (phase, body pass, copy) orders the requests as the warp issues them.
using RequestKey = std::tuple<int, size_t, unsigned>;
RequestKey request_key(size_t k, size_t passes, const UnrolledLoop* u) {
  if (!u || u->unroll < 2) return {0, k, 0};
  const size_t unroll = u->unroll, rest = passes % unroll;
  if (u->remainder_first)
    return k < rest ? RequestKey{0, k, 0} : RequestKey{1, (k - rest) / unroll, static_cast<unsigned>((k - rest) % unroll)};
  const size_t body = passes - rest;
  return k < body ? RequestKey{0, k / unroll, static_cast<unsigned>(k % unroll)} : RequestKey{1, k - body, 0};
}

// Loads the GPU's compiler keeps in a register: a thread's load at the same
// place of the same bytes as its last load there, with no store or atomic of
// its own in between (a loop-invariant a[i] in a loop). The host compiler
// reloads them when the loop holds a call (an atomic is one in explain
// builds); nvcc hoists them, and Nsight Compute counts no request for them.
// Not out of a loop it unrolled whose body stores or makes atomics (they may
// write what was loaded): there it loads them again in each pass of the body
// and of the remainder loop, and keeps them only within one pass of the body.
std::vector<bool> held_in_registers(const std::vector<Event>& events,
                                    const std::function<const UnrolledLoop*(uint64_t where)>& unrolled_at) {
  struct Last {
    uint64_t address;
    uint32_t bytes, stores;
    RequestKey pass;
  };
  std::unordered_map<uint64_t, const UnrolledLoop*> reloading;  // where -> its loop, when it reloads
  std::unordered_map<uint64_t, size_t> passes, seen;            // (thread, place) -> loads there: all, so far
  auto site = [](const Event& e) {
    return ((uint64_t{e.block} << 32) | e.thread) * 0x9e3779b97f4a7c15ull ^ e.where;
  };
  for (const Event& e : events) {
    if (e.space == kSharedSpace || e.kind != cv_emu::kRead) continue;
    auto [it, fresh] = reloading.try_emplace(e.where, nullptr);
    if (fresh) {
      const UnrolledLoop* u = unrolled_at(e.where);
      it->second = u && u->unroll > 1 && u->body_stores ? u : nullptr;
    }
    if (it->second) ++passes[site(e)];
  }
  std::vector<bool> held(events.size());
  std::unordered_map<uint64_t, uint32_t> stores;  // thread -> its stores and atomics so far
  std::unordered_map<uint64_t, Last> last;        // (thread, place) -> its last load there
  for (size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    if (e.space == kSharedSpace) continue;
    const uint64_t thread = (uint64_t{e.block} << 32) | e.thread;
    uint32_t& n = stores[thread];
    if (e.kind != cv_emu::kRead) {
      ++n;
      continue;
    }
    const uint64_t key = site(e);
    const UnrolledLoop* u = reloading[e.where];
    const RequestKey pass = u ? request_key(seen[key]++, passes[key], u) : RequestKey{};
    const uint64_t address = e.address + (uint64_t{e.space} << 40);
    auto [it, fresh] = last.try_emplace(key, Last{address, e.bytes, n, pass});
    if (!fresh) {
      const bool same_pass = !u || (std::get<0>(pass) == 1 && std::get<0>(it->second.pass) == 1 &&
                                    std::get<1>(pass) == std::get<1>(it->second.pass));
      held[i] = it->second.address == address && it->second.bytes == e.bytes && it->second.stores == n && same_pass;
      it->second = {address, e.bytes, n, pass};
    }
  }
  return held;
}

using SectorLines = std::map<std::tuple<Place, int, int>, SectorLine>;  // (place, buffer, kind)

// One access's requests by one warp: [g, end) of `glob`. Each lane's passes
// join requests by request_key; one request's lanes are counted together.
void warp_requests(Analysis& a, const std::vector<Event>& events, const std::vector<uint32_t>& glob, size_t g,
                   size_t end, SectorLines& lines, Explain& x) {
  std::vector<std::vector<uint32_t>> per_lane(32);
  for (size_t i = g; i < end; ++i) per_lane[events[glob[i]].thread % 32].push_back(glob[i]);
  const Event& first = events[glob[g]];
  const Place place = a.place(first.where);
  const UnrolledLoop* unrolled = a.unrolled_at(first.where);
  using Members = std::array<int64_t, 32>;  // lane -> its event, -1: not in the request
  std::vector<Members> requests;            // in the order the warp issues them
  Members none;
  none.fill(-1);
  if (!unrolled) {
    for (unsigned l = 0; l < 32; ++l) {
      if (per_lane[l].size() > requests.size()) requests.resize(per_lane[l].size(), none);
      for (size_t k = 0; k < per_lane[l].size(); ++k) requests[k][l] = per_lane[l][k];
    }
  } else {
    std::map<RequestKey, Members> by_key;
    for (unsigned l = 0; l < 32; ++l)
      for (size_t k = 0; k < per_lane[l].size(); ++k)
        by_key.try_emplace(request_key(k, per_lane[l].size(), unrolled), none).first->second[l] = per_lane[l][k];
    for (const auto& [key, members] : by_key) requests.push_back(members);
  }
  for (const Members& members : requests) {
    std::vector<insight::LaneAccess> lanes(32);
    unsigned bytes = 0;
    std::vector<uint64_t> distinct;
    WarpRequest wr;
    wr.lane_offset.assign(32, -1);
    for (unsigned l = 0; l < 32; ++l) {
      if (members[l] < 0) continue;
      const Event& e = events[static_cast<size_t>(members[l])];
      lanes[l].active = true;
      lanes[l].address = (static_cast<uint64_t>(e.space) << 40) + e.address;
      wr.lane_offset[l] = static_cast<long long>(e.address);
      bytes = std::max(bytes, e.bytes);
      distinct.push_back(lanes[l].address);
    }
    std::sort(distinct.begin(), distinct.end());
    const size_t useful = static_cast<size_t>(std::unique(distinct.begin(), distinct.end()) - distinct.begin());
    const unsigned n_sectors = insight::count_sectors(lanes, bytes);
    SectorLine& s = lines[{place, first.space, first.kind}];
    if (unrolled) s.unrolled = unrolled->unroll, s.remainder_first = unrolled->remainder_first;
    s.bytes = std::max(s.bytes, bytes);
    ++s.requests;
    s.sectors += n_sectors;
    s.efficiency += static_cast<double>(useful) * bytes;  // distinct bytes asked, divided below
    if (first.block == a.in.chosen_block && first.thread / 32 == a.in.chosen_warp &&
        x.warp_requests.size() < kMaxWarpRequests) {
      wr.line = place.line;
      wr.buffer = a.bufs[first.space].name;
      wr.kind = first.kind;
      wr.bytes = bytes;
      wr.sectors = n_sectors;
      x.warp_requests.push_back(std::move(wr));
    }
  }
}

void sectors(Analysis& a, std::vector<Event>& events, Explain& x) {
  // A warp's requests of one access: (block, warp), then the call stack, the
  // buffer and the kind (one call copies a float4 from one buffer to another).
  auto req_key = [&](const Event& e) {
    return SortKey{(uint64_t{e.block} << 6) | (e.thread / 32), (e.where << 16) | (uint64_t{e.space} << 8) | e.kind};
  };
  const std::vector<bool> held = held_in_registers(events, [&](uint64_t where) { return a.unrolled_at(where); });
  const std::vector<uint32_t> glob = sorted_by(
      events, [&](const Event& e) { return e.space != kSharedSpace && !held[static_cast<size_t>(&e - events.data())]; },
      req_key);
  SectorLines lines;
  for (size_t i = 0; i < events.size(); ++i)
    if (held[i]) ++lines[{a.place(events[i].where), events[i].space, events[i].kind}].repeats;
  for (size_t g = 0; g < glob.size();) {
    size_t end = g + 1;
    while (end < glob.size() && same(req_key(events[glob[end]]), req_key(events[glob[g]]))) ++end;
    warp_requests(a, events, glob, g, end, lines, x);
    g = end;
  }
  for (auto& [key, s] : lines) {
    s.line = std::get<0>(key).line, s.call_line = std::get<0>(key).call_line;
    s.buffer = a.bufs[std::get<1>(key)].name, s.kind = std::get<2>(key);
    s.sectors_per_request = s.requests ? static_cast<double>(s.sectors) / s.requests : 0;
    s.efficiency = s.sectors ? std::min(1.0, s.efficiency / (s.sectors * 32.0)) : 0;
    x.sectors.push_back(s);
  }
}

void divergence(const BranchMap& branches, Explain& x) {
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
}

}  // namespace

Explain analyse(std::vector<Event>& events, const BranchMap& branches, const AnalysisInput& in) {
  Explain x;
  Analysis a{in, *in.buffers, {}};
  for (const usercode::BufferView& b : a.bufs) x.buffers.push_back(b.name);
  x.block = unflatten(in.chosen_block, in.grid);
  x.warp = in.chosen_warp;
  x.block_threads = in.block.x * in.block.y * in.block.z;
  x.events = events.size();
  x.scope =
      "Recorded: every load, store and atomic your kernel makes to the launch's buffers and to shared "
      "memory, through a cv::Span or a raw pointer; memory outside them (locals, your own arrays) is not.";

  RaceContext rc;
  rc.block_of = [&](uint32_t b) { return unflatten(b, in.grid); };
  rc.thread_of = [&](uint32_t t) { return unflatten(t, in.block); };
  rc.place_of = [&](uint64_t w) { return a.place(w); };
  rc.name_of = [&](const Event& e, long long& index, std::string& element) { return a.name_of(e, index, element); };
  // One element: shared memory split by its variables' own element types (a
  // float4 tile by 16 bytes), global memory by the buffer's.
  rc.unit_of = [&](const Event& e) -> uint64_t {
    if (e.space != kSharedSpace) return e.address / a.elem_bytes(e);
    return in.shared_unit ? in.shared_unit(e.address, e.bytes) : e.address / 4;
  };
  find_races(events, rc, x);
  sectors(a, events, x);
  divergence(branches, x);

  // Who touched what (the chosen block).
  const uint64_t chosen_block = in.chosen_block;
  for (const Event& e : events) {
    if (e.block != chosen_block) continue;
    if (x.touches.size() >= kMaxTouches) break;
    Touch t;
    t.shared = e.space == kSharedSpace;
    std::string element;
    t.buffer = a.name_of(e, t.index, element);
    t.thread = e.thread;
    t.kind = e.kind;
    t.line = a.place(e.where).line;
    x.touches.push_back(std::move(t));
  }
  std::stable_sort(x.touches.begin(), x.touches.end(),
                   [](const Touch& p, const Touch& q) { return p.thread < q.thread; });
  return x;
}

}  // namespace cv::emu

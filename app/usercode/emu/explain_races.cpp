#include "usercode/emu/explain_races.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_set>

#include "usercode/emu/explain_sort.h"

namespace cv::emu {
namespace {

constexpr size_t kPairScan = 256;  // writers of one element paired (the rest are counted, not paired)

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

RaceCause cause_of(const Event& a, const Event& b) {
  if (a.block != b.block) return RaceCause::OtherBlocks;
  return a.thread / 32 == b.thread / 32 ? RaceCause::NoSyncwarp : RaceCause::NoBarrier;
}

uint64_t thread_id(const Event& e) { return (uint64_t{e.block} << 32) | e.thread; }

// A group: one array, one pair of places and kinds. Its cause is the widest
// its pairs show (a __syncthreads() also orders a warp; nothing but another
// design orders blocks).
struct GroupKey {
  uint8_t space;
  std::string buffer;
  Place a, b;
  int ka, kb;
  bool operator<(const GroupKey& o) const {
    return std::tie(space, buffer, a, b, ka, kb) < std::tie(o.space, o.buffer, o.a, o.b, o.ka, o.kb);
  }
};
int severity(RaceCause c) { return c == RaceCause::OtherBlocks ? 2 : c == RaceCause::NoBarrier ? 1 : 0; }

struct GroupAcc {
  RaceGroup g;
  std::unordered_set<uint64_t> a_threads, b_threads;
  unsigned long long rmw_votes = 0;  // instances whose reader also wrote the element at its place
};

std::string threads_words(unsigned long long n) { return n == 1 ? "1 thread" : std::to_string(n) + " threads"; }

std::string verb_first(int kind, const std::string& arr) {
  return kind == cv_emu::kWrite ? "wrote " + arr : kind == cv_emu::kAtomic ? "updated " + arr + " atomically" : "read " + arr;
}
std::string verb_second(int kind) {
  return kind == cv_emu::kWrite ? "wrote it" : kind == cv_emu::kAtomic ? "updated it atomically" : "read it";
}

}  // namespace

std::string place_words(int line, int call_line) {
  if (!line) return "an unknown line";
  std::string s = "line " + std::to_string(line);
  if (call_line && call_line != line) s += " (in a helper called at line " + std::to_string(call_line) + ")";
  return s;
}

std::string race_sentence(const Race& r) {
  auto side = [&](const RaceSide& s, bool with_block) {
    std::string t = "thread (" + std::to_string(s.who.thread.x) + "," + std::to_string(s.who.thread.y) + "," +
                    std::to_string(s.who.thread.z) + ")";
    if (with_block)
      t += " of block (" + std::to_string(s.who.block.x) + "," + std::to_string(s.who.block.y) + "," +
           std::to_string(s.who.block.z) + ")";
    return t + " " + verb_second(s.kind) + " at " + place_words(s.line, s.call_line);
  };
  const bool same_block = r.first.who.block.x == r.second.who.block.x &&
                          r.first.who.block.y == r.second.who.block.y &&
                          r.first.who.block.z == r.second.who.block.z;
  const std::string element = r.element.empty() ? r.buffer + "[" + std::to_string(r.index) + "]" : r.element;
  return "race on " + element + (r.shared ? " (shared memory)" : "") + ": " + side(r.first, true) + ", " +
         side(r.second, !same_block);
}

void word_group(RaceGroup& g) {
  // One element: named ("count[0]"); several: the array ("s[]").
  const std::string arr = g.elements == 1 && !g.instances.empty() ? g.instances[0].element : g.buffer + "[]";
  const std::string pa = place_words(g.first.line, g.first.call_line),
                    pb = place_words(g.second.line, g.second.call_line);
  const std::string la = std::to_string(g.first.line), lb = std::to_string(g.second.line);
  const std::string elements = g.elements == 1 ? "" : " (" + std::to_string(g.elements) + " elements)";
  const bool same_place = g.first.line == g.second.line && g.first.call_line == g.second.call_line;
  if (g.lost_update) {
    g.sentence = threads_words(g.first_threads) + " updated " + arr + " at " + pa +
                 " with a plain read and write, not an atomic: threads read the same old value and write over "
                 "each other's updates" + elements;
    g.fix = "Make the update one atomic operation (atomicAdd, atomicMax, ...) at line " + la +
            ", or let each thread add into its own element and combine them after a __syncthreads().";
    return;
  }
  const std::string head = threads_words(g.first_threads) + " " + verb_first(g.first.kind, arr) + " at " + pa;
  switch (g.cause) {
    case RaceCause::NoBarrier:
      g.sentence = head + " and others " + verb_second(g.second.kind) + " at " + pb +
                   " with no __syncthreads() between" + elements;
      g.fix = same_place ? "Put a __syncthreads() after line " + la +
                               " in the loop (where every thread of the block reaches it), so one pass's writes are "
                               "done before the next pass reads them."
                         : "Put a __syncthreads() between line " + la + " and line " + lb +
                               ", where every thread of the block reaches it.";
      break;
    case RaceCause::NoSyncwarp:
      g.sentence = head + " and other threads of their warp " + verb_second(g.second.kind) + " at " + pb +
                   " with no __syncwarp() between: a warp's threads are not in lockstep" + elements;
      g.fix = same_place ? "Put a __syncwarp() (or a __syncthreads()) after line " + la + " in the loop."
                         : "Put a __syncwarp() (or a __syncthreads()) between line " + la + " and line " + lb + ".";
      break;
    case RaceCause::OtherBlocks:
      g.sentence = head + " and threads of other blocks " + verb_second(g.second.kind) + " at " + pb +
                   ": nothing orders different blocks within one launch" + elements;
      g.fix = "Let each block touch only its own elements, make the update an atomic, or split the work into "
              "two launches.";
      break;
  }
}

namespace {

// One pass over the events sorted by element; per element, the first
// conflicting partner of each of its first writers, grouped.
class RaceFinder {
 public:
  RaceFinder(const std::vector<Event>& events, const RaceContext& c, Explain& x) : ev_(events), c_(c), x_(x) {}

  void run() {
    auto unit = [&](const Event& e) {
      const uint64_t shared_block = e.space == kSharedSpace ? e.block : 0;
      return SortKey{(uint64_t{e.space} << 32) | shared_block, c_.unit_of(e)};
    };
    // Only memory something writes can race: a buffer only read (the data, the
    // bodies) stays out of the sort, often most of the events.
    bool written[256] = {};
    for (const Event& e : ev_) written[e.space] = written[e.space] || e.kind != cv_emu::kRead;
    order_ = sorted_by(ev_, [&](const Event& e) { return written[e.space]; }, unit);
    std::vector<SortKey> keys(order_.size());
    for (size_t i = 0; i < order_.size(); ++i) keys[i] = unit(ev_[order_[i]]);
    for (size_t g = 0; g < order_.size();) {
      size_t end = g + 1;
      while (end < order_.size() && same(keys[end], keys[g])) ++end;
      element(g, end);
      g = end;
    }
    finish();
  }

 private:
  const Event& at(size_t k) const { return ev_[order_[k]]; }

  Race make_race(const Event& a, const Event& b) const {
    Race r;
    r.shared = a.space == kSharedSpace;
    r.buffer = c_.name_of(a, r.index, r.element);
    const Place pa = c_.place_of(a.where), pb = c_.place_of(b.where);
    r.first = {{c_.block_of(a.block), c_.thread_of(a.thread)}, a.kind, pa.line, pa.call_line};
    r.second = {{c_.block_of(b.block), c_.thread_of(b.thread)}, b.kind, pb.line, pb.call_line};
    r.sentence = race_sentence(r);
    return r;
  }

  // The events [g, end) of one element.
  void element(size_t g, size_t end) {
    bool writes = false, reads_or_plain = false;
    for (size_t i = g; i < end; ++i) {
      const int k = at(i).kind;
      writes = writes || k != cv_emu::kRead;
      reads_or_plain = reads_or_plain || k != cv_emu::kAtomic;
    }
    if (!writes || !reads_or_plain || end - g < 2) return;
    seen_.clear();
    bool racy = false;
    for (size_t i = g; i < end && i < g + kPairScan; ++i) {
      if (at(i).kind == cv_emu::kRead) continue;
      for (size_t j = g; j < end; ++j) {
        if (i == j || !conflict(at(i), at(j))) continue;
        // The writer first; two writers in the order of their places.
        const bool swap = at(j).kind != cv_emu::kRead && c_.place_of(at(j).where) < c_.place_of(at(i).where);
        const Race r = pair(swap ? at(j) : at(i), swap ? at(i) : at(j), g, end);
        if (!racy) {
          racy = true;
          ++x_.racy_elements;
          if (x_.races.size() < kMaxRaces) x_.races.push_back(r);
        }
        break;
      }
    }
    count_threads(g, end);
  }

  // One conflicting pair: into its group (once per element), with its cause.
  Race pair(const Event& a, const Event& b, size_t g, size_t end) {
    Race r = make_race(a, b);
    const GroupKey key{a.space, r.buffer, c_.place_of(a.where), c_.place_of(b.where), a.kind, b.kind};
    auto [it, fresh] = groups_.try_emplace(key);
    GroupAcc& acc = it->second;
    const RaceCause cause = cause_of(a, b);
    if (fresh) {
      acc.g.buffer = r.buffer, acc.g.shared = r.shared, acc.g.cause = cause;
      acc.g.first = r.first, acc.g.second = r.second;
    } else if (severity(cause) > severity(acc.g.cause)) {
      acc.g.cause = cause;
    }
    if (std::any_of(seen_.begin(), seen_.end(), [&](const auto& s) { return s.first == &acc; })) return r;
    seen_.push_back({&acc, &it->first});
    ++acc.g.elements;
    if (acc.g.instances.size() < kGroupInstances) acc.g.instances.push_back(r);
    // A lost update: one place, where the other thread read the element and wrote it too.
    bool read = false, wrote = false;
    for (size_t k = g; key.a == key.b && k < end && k < g + kPairScan * 4; ++k) {
      const Event& e = at(k);
      if (e.block != b.block || e.thread != b.thread || !(c_.place_of(e.where) == key.b)) continue;
      read = read || e.kind == cv_emu::kRead;
      wrote = wrote || e.kind == cv_emu::kWrite;
    }
    acc.rmw_votes += read && wrote;
    return r;
  }

  // Every thread of the element on either side of its groups, paired or not.
  void count_threads(size_t g, size_t end) {
    for (size_t k = g; k < end && !seen_.empty(); ++k) {
      const Event& e = at(k);
      const Place p = c_.place_of(e.where);
      for (auto& [acc, key] : seen_) {
        if (e.kind == key->ka && p == key->a) acc->a_threads.insert(thread_id(e));
        else if (e.kind == key->kb && p == key->b) acc->b_threads.insert(thread_id(e));
      }
    }
  }

  void finish() {
    for (auto& [key, acc] : groups_) {
      acc.g.first_threads = acc.a_threads.size();
      acc.g.second_threads = acc.b_threads.size();
      acc.g.lost_update = acc.rmw_votes * 2 > acc.g.elements;
      word_group(acc.g);
      x_.race_groups.push_back(std::move(acc.g));
    }
    std::stable_sort(x_.race_groups.begin(), x_.race_groups.end(),
                     [](const RaceGroup& p, const RaceGroup& q) { return p.elements > q.elements; });
    if (x_.race_groups.size() > kMaxRaceGroups) x_.race_groups.resize(kMaxRaceGroups);
  }

  const std::vector<Event>& ev_;
  const RaceContext& c_;
  Explain& x_;
  std::vector<uint32_t> order_;
  std::map<GroupKey, GroupAcc> groups_;
  std::vector<std::pair<GroupAcc*, const GroupKey*>> seen_;  // the current element's groups
};

}  // namespace

void find_races(const std::vector<Event>& events, const RaceContext& c, Explain& x) {
  RaceFinder(events, c, x).run();
}

}  // namespace cv::emu

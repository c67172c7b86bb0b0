#include "bench/algorithm_families.h"

#include <algorithm>
#include <bitset>
#include <map>

namespace cv::bench {
namespace {

using T = Trait;
constexpr TraitSet kNone = 0;
TraitSet of(std::initializer_list<Trait> ts) {
  TraitSet s = 0;
  for (Trait t : ts) s |= static_cast<unsigned>(t);
  return s;
}

BuiltinAlgorithm cpu(const std::string& v) { return {v, Family::Cpu, kNone, false, "the CPU twin"}; }

// count3 and reduce share their variants (kernels/labs/reduce).
std::vector<BuiltinAlgorithm> reduction(bool racy) {
  std::vector<BuiltinAlgorithm> v;
  if (racy) v.push_back({"racy", Family::Naive, kNone, true, "count++ on a global, no atomics"});
  v.insert(v.end(), {
      {"atomic", Family::Atomic, of({T::Atomics}), true, "one atomicAdd per element"},
      {"thrust", Family::Library, kNone, false, "a library call"},
      {"multipass", Family::Tree, of({T::Shared, T::BlockTree}), false, "several launches of halving passes"},
      {"shared_tree", Family::Tree, of({T::Shared, T::Atomics}), true,
       "a block's sum in shared memory, one atomic per block"},
      {"warp_shuffle", Family::WarpShuffle, of({T::WarpShuffle, T::Atomics}), true,
       "warp shuffles, one atomic per warp"},
      {"cub", Family::Library, kNone, false, "a library call (CUB)"},
      {"fast", Family::GridStride, of({T::GridStride, T::WarpShuffle, T::Shared, T::Atomics}), true,
       "grid-stride loop, warp shuffles, one atomic per block"},
      cpu("cpu"), cpu("cpu_threads")});
  return v;
}

const std::map<std::string, std::vector<BuiltinAlgorithm>>& table() {
  static const std::map<std::string, std::vector<BuiltinAlgorithm>> t = {
      {"count3", reduction(true)},
      {"reduce", reduction(false)},
      {"reverse",
       {{"naive", Family::Naive, kNone, true, "each thread reverses through global memory"},
        {"shared", Family::Shared, of({T::Shared}), true, "a block's slice reversed through shared memory"},
        {"copy", Family::Other, kNone, false, "a plain copy, not a reversal: the bandwidth ceiling"},
        cpu("cpu"), cpu("cpu_threads")}},
      {"sum3",
       {{"naive", Family::Naive, of({T::TwoD, T::Atomics}), true, "2D grid over (i, j), an atomic per hit"},
        {"hoisted", Family::Naive, of({T::TwoD, T::Atomics}), true, "naive with v_i, v_j in registers"},
        {"shared", Family::Shared, of({T::TwoD, T::Shared, T::Atomics}), true,
         "per-thread counts in shared memory, one atomic per block"},
        {"fast", Family::Tiled, of({T::Shared, T::TileLoop, T::Atomics}), true,
         "v_k tiles staged through shared memory, one atomic per block"},
        {"sorted", Family::Other, kNone, false, "O(n^2) after a radix sort: several launches"},
        cpu("cpu_serial"), cpu("cpu"), cpu("cpu_sorted")}},
      {"corelated",
       {{"atomic", Family::Atomic, of({T::TwoD, T::Atomics}), true, "block per row pair, an atomic per hit"},
        {"shared", Family::Tree, of({T::TwoD, T::Shared, T::Atomics}), true,
         "block per row pair, its hits summed in shared memory, one atomic per pair"},
        {"launch1d", Family::Naive, kNone, true, "one thread per pair on a 1D grid"},
        {"launch2d", Family::Naive, of({T::TwoD}), true, "one thread per pair on a 2D grid"},
        {"fast", Family::Tiled, of({T::TwoD, T::Shared, T::TileLoop}), true,
         "tiles of row bitsets staged through shared memory"},
        cpu("cpu")}},
      {"pi",
       {{"original", Family::Other, kNone, false, "cuRAND XORWOW and thrust: another generator"},
        {"one_per_block", Family::Naive, kNone, true, "one sample per 1-thread block"},
        {"warp32", Family::Naive, kNone, true, "one sample per thread, 32-thread blocks"},
        {"shared", Family::Tree, of({T::Shared}), true, "one sample per thread, a block sum in shared memory"},
        {"many", Family::Tree, of({T::Shared}), true, "many samples per thread, a block sum in shared memory"},
        {"fast", Family::GridStride, of({T::GridStride, T::WarpShuffle, T::Atomics}), true,
         "grid-stride Philox, warp-shuffle block sums, one atomic per block"},
        cpu("cpu"), cpu("cpu_threads")}},
      {"nbody",
       {{"original", Family::Naive, kNone, true, "all pairs, every body read from global memory"},
        {"tiled", Family::Tiled, of({T::Shared, T::TileLoop}), true, "shared-memory tiles of bodies"},
        {"fast", Family::Tuned, kNone, false, "each pair once, 4 bodies a lane: another plan"},
        cpu("cpu")}},
      {"fountain",
       {{"lean", Family::Naive, kNone, true, "one thread per particle, the template's 40 B layout"},
        {"original", Family::Other, kNone, false, "the document's 80 B/particle layout"}}},
      {"swarm",
       {{"swarm", Family::Naive, kNone, true, "one thread per particle, steering"},
        {"sparkler", Family::Other, kNone, false, "another behaviour"}}},
  };
  return t;
}

int count(TraitSet s) { return static_cast<int>(std::bitset<32>(s).count()); }

std::string join(const std::vector<std::string>& v, const std::string& last) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i == 0 ? "" : i + 1 == v.size() ? last : ", ") + v[i];
  return s;
}

// "uses __shared__ memory (line 12) and loops over tiles ... (line 20)"
std::string evidence(const KernelTraits& k, TraitSet s) {
  std::vector<std::string> parts;
  for (const TraitSeen& t : k.seen)
    if (has(s, t.trait)) parts.push_back(describe(t.trait) + " (line " + std::to_string(t.line) + ")");
  return parts.empty() ? "uses none of shared memory, tiles, trees, shuffles or atomics" : join(parts, " and ");
}

bool any_comparable(const std::string& target, const std::vector<std::string>& measured) {
  for (const BuiltinAlgorithm& b : builtin_algorithms(target))
    if (b.comparable && std::find(measured.begin(), measured.end(), b.variant) != measured.end()) return true;
  return false;
}

// "cpu: the CPU twin, cub: a library call (CUB)" for the variants timed.
std::string what_they_are(const std::string& target, const std::vector<std::string>& measured) {
  std::vector<std::string> parts;
  for (const std::string& v : measured) {
    const BuiltinAlgorithm* b = nullptr;
    for (const BuiltinAlgorithm& x : builtin_algorithms(target))
      if (x.variant == v) b = &x;
    parts.push_back(v + ": " + (b ? b->words : "not described"));
  }
  return parts.empty() ? "no built-in was timed" : join(parts, ", ");
}

}  // namespace

const char* to_string(Family f) {
  switch (f) {
    case Family::Naive: return "naive";
    case Family::Atomic: return "atomic";
    case Family::Shared: return "shared";
    case Family::Tiled: return "tiled";
    case Family::Tree: return "tree";
    case Family::WarpShuffle: return "warp-shuffle";
    case Family::GridStride: return "grid-stride";
    case Family::Library: return "library";
    case Family::Tuned: return "tuned";
    case Family::Cpu: return "cpu";
    case Family::Other: return "other";
  }
  return "?";
}

const std::vector<BuiltinAlgorithm>& builtin_algorithms(const std::string& target) {
  static const std::vector<BuiltinAlgorithm> none;
  auto it = table().find(target);
  return it == table().end() ? none : it->second;
}

const BuiltinAlgorithm* find_builtin(const std::string& target, const std::string& variant) {
  for (const BuiltinAlgorithm& b : builtin_algorithms(target))
    if (b.variant == variant) return &b;
  return nullptr;
}

AlgorithmMatch match_builtin(const std::string& target, const KernelTraits& yours,
                             const std::vector<std::string>& measured) {
  AlgorithmMatch m;
  std::vector<const BuiltinAlgorithm*> fit;
  int best = -1;
  for (const BuiltinAlgorithm& b : builtin_algorithms(target)) {
    if (!b.comparable || std::find(measured.begin(), measured.end(), b.variant) == measured.end()) continue;
    if ((b.traits & ~yours.set) != 0) continue;  // it does something yours does not
    if (count(b.traits) > best) fit.clear(), best = count(b.traits);
    if (count(b.traits) == best) fit.push_back(&b);
  }
  if (fit.empty() && !any_comparable(target, measured)) {
    m.why = "cannot tell which built-in is the same algorithm: none timed here can be (" + what_they_are(target, measured) +
            ")";
    return m;
  }
  if (fit.empty()) {
    m.why = "cannot tell which built-in is the same algorithm: yours " + evidence(yours, yours.set) +
            ", which no built-in timed here matches";
    return m;
  }
  if (fit.size() > 1) {
    for (const BuiltinAlgorithm* b : fit) m.tied.push_back(b->variant);
    m.why = "cannot tell whether yours is the built-in " + join(m.tied, " or ") + ": yours " +
            evidence(yours, yours.set) + ", as they do";
    return m;
  }
  // Shared memory and shuffles are what the variants teach: yours using one the
  // match does not, where a built-in here does, is another algorithm.
  for (Trait t : {Trait::Shared, Trait::WarpShuffle}) {
    if (!has(yours.set, t) || has(fit.front()->traits, t)) continue;
    for (const BuiltinAlgorithm& b : builtin_algorithms(target))
      if (b.comparable && has(b.traits, t)) {
        m.why = "cannot tell which built-in is the same algorithm: yours " + evidence(yours, yours.set) +
                "; no built-in timed here does all of that";
        return m;
      }
  }
  m.variant = fit.front()->variant;
  m.why = "the built-in " + fit.front()->variant + " (" + fit.front()->words + "): yours " +
          evidence(yours, fit.front()->traits);
  return m;
}

}  // namespace cv::bench

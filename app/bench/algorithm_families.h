#pragma once
// Which built-in variant of a lab or scene is "the same algorithm" as a
// student's kernel. Every built-in variant has a typed description here (its
// family and the traits its kernel has, bench/kernel_traits.h); a variant that
// no one-kernel student file can be (a library call, several launches, a CPU
// twin, another behaviour or buffer layout) is described but not comparable.
// The student's kernel matches the comparable variant whose traits it has,
// the most specific one; when two tie, or when it uses shared memory or warp
// shuffles that the match does not, the answer is "cannot tell" and the
// comparison is with the fastest built-in only.
#include <optional>
#include <string>
#include <vector>

#include "bench/kernel_traits.h"

namespace cv::bench {

enum class Family { Naive, Atomic, Shared, Tiled, Tree, WarpShuffle, GridStride, Library, Tuned, Cpu, Other };
const char* to_string(Family f);  // "naive", "tiled", ...

struct BuiltinAlgorithm {
  std::string variant;    // the bench variant ("tiled")
  Family family = Family::Other;
  TraitSet traits = 0;    // what its kernel does
  bool comparable = true; // a student's one-kernel file can be this algorithm
  std::string words;      // a few words: "shared-memory tiles of bodies"
};

// The built-ins of a bench target ("nbody", "count3"), empty when unknown.
const std::vector<BuiltinAlgorithm>& builtin_algorithms(const std::string& target);
const BuiltinAlgorithm* find_builtin(const std::string& target, const std::string& variant);

struct AlgorithmMatch {
  std::optional<std::string> variant;  // the same algorithm's built-in, when one is told
  std::string why;                     // the words for the match or for "cannot tell"
  std::vector<std::string> tied;       // the variants it could not tell apart
};

// `measured`: the variants timed in this run (only they can be compared with).
AlgorithmMatch match_builtin(const std::string& target, const KernelTraits& yours,
                             const std::vector<std::string>& measured);

}  // namespace cv::bench

#pragma once
// Accesses in range by their bounds, proven from the PTX alone (docs/guard.md
// "Accesses proven by their bounds"): the index of `data[i]` inside
// `if (i < data.size)` or a loop `for (...; i < data.size; ...)`, of
// `s[t]` and `s[t + h]` in a block tree where `t` is the thread's index in
// its block and `t + h < blockDim.x * blockDim.y * blockDim.z`. Such an access
// needs no code at all: no check, no fence, no loop versioning.
//
// What makes it sound, and what the proof demands of the PTX:
// - the address is a kernel parameter's span pointer (or a static __shared__
//   array) plus index x scale plus a constant, every register on the way
//   defined once in the function, at a place that comes before its use on
//   every way there (dominators);
// - the index is bounded where it is read: by a comparison on every way to
//   that place (a forward must-dataflow over the function's branches, a
//   fact dropped where either side is written), or by what it is (a thread
//   index is below blockDim, whose product is at most the device's
//   maxThreadsPerBlock);
// - a span's size is read from its parameter (`ld.param [k_param_J+8]`),
//   which a kernel cannot write, and the runner passes exactly size x
//   element bytes of buffer, at least element-aligned (args/arg_binder.cpp).
// Anything else keeps its guard; the proof only ever removes checks it can
// show are never needed.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "usercode/guard/ptx_text.h"

namespace cv::usercode::guard {

struct SharedArray {
  long long bytes = 0;  // static size (extern arrays are not listed: their size is the launch's)
  unsigned align = 1;
};

struct BoundsInput {
  std::string entry;  // the .entry's name: its parameters are ENTRY_param_J; "" proves nothing
  std::map<int, unsigned> span_elem_bytes;      // kernel parameter -> its cv::Span's element bytes
  // Kernel parameter -> the first parameter whose span always has the same
  // size (the template says so and make_launch holds it); absent: itself.
  std::map<int, int> span_size_class;
  // Fields of scalar parameters never larger than some spans' sizes (a grid's
  // count of particles; make_launch holds it): parameter -> its fields.
  struct AtMost {
    long long offset = 0;
    unsigned bytes = 4;
    std::set<int> spans;  // parameters
  };
  std::map<int, std::vector<AtMost>> scalar_at_most;
  std::map<std::string, SharedArray> shared;    // static __shared__ arrays by name
  // extern __shared__ arrays by name -> their alignment (their size is the
  // launch's), and the bytes a thread of the block has of them in every
  // launch (the template's, which make_launch gives; 0: unknown, nothing proven).
  std::map<std::string, unsigned> extern_shared;
  unsigned shared_bytes_per_thread = 0;
  unsigned max_threads_per_block = 1024;        // the device's (cudaDeviceProp::maxThreadsPerBlock)
};

// The memory instructions among pieces [begin, end) (one function's body)
// whose every run is in range and aligned. Empty when the body has { }
// blocks or indirect branches (not analysed).
std::set<size_t> proven_by_bounds(const std::vector<Piece>& pieces, size_t begin, size_t end,
                                  const BoundsInput& in);

}  // namespace cv::usercode::guard

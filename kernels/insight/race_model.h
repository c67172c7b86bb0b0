#pragma once
// The race lab's pictures as plain data: a histogram of many racy counts
// against the right count, and the read-modify-write interleaving of two
// threads that loses an update (`*acc = *acc + 1` is a load, an add and a
// store; a thread that loads between another's load and store overwrites it).
#include <string>
#include <vector>

namespace cv::insight {

struct RaceHistogram {
  long long lo = 0, hi = 0;  // the range the bins cover (hi inclusive)
  double bin_width = 1;
  std::vector<int> bins;
  int right_bin = -1;                    // the bin holding the right count (-1: outside)
  long long min_lost = 0, max_lost = 0;  // right - result over the runs
  double mean_lost = 0;
};
// Bins the results over [min(results, right), max(results, right)].
RaceHistogram race_histogram(const std::vector<long long>& results, long long right, int bins);

// One micro-operation of the two-thread picture.
struct RmwStep {
  int thread;  // 0 or 1
  enum Op { Load, Add, Store } op;
  long long value;   // what was loaded, computed or stored
  long long memory;  // the counter after this step
};
// Runs two threads' `x = x + 1` in the order given (six thread ids, three of
// each: load, add, store in program order per thread) from `start`.
// Throws std::invalid_argument on an order that is not three 0s and three 1s.
std::vector<RmwStep> interleave_rmw(const std::vector<int>& order, long long start);
const char* to_string(RmwStep::Op op);

}  // namespace cv::insight

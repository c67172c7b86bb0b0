#include "insight/race_model.h"

#include <algorithm>
#include <stdexcept>

namespace cv::insight {

RaceHistogram race_histogram(const std::vector<long long>& results, long long right, int bins) {
  if (bins < 1) throw std::invalid_argument("race_histogram: bins must be >= 1");
  RaceHistogram h;
  h.bins.assign(bins, 0);
  h.lo = h.hi = right;
  for (long long r : results) {
    h.lo = std::min(h.lo, r);
    h.hi = std::max(h.hi, r);
  }
  const long long span = h.hi - h.lo + 1;
  h.bin_width = std::max(1.0, static_cast<double>(span) / bins);
  auto bin_of = [&](long long v) {
    return std::min(bins - 1, static_cast<int>(static_cast<double>(v - h.lo) / h.bin_width));
  };
  double lost_sum = 0;
  h.min_lost = results.empty() ? 0 : right - results.front();
  h.max_lost = h.min_lost;
  for (long long r : results) {
    ++h.bins[bin_of(r)];
    h.min_lost = std::min(h.min_lost, right - r);
    h.max_lost = std::max(h.max_lost, right - r);
    lost_sum += static_cast<double>(right - r);
  }
  h.mean_lost = results.empty() ? 0 : lost_sum / static_cast<double>(results.size());
  h.right_bin = bin_of(right);
  return h;
}

std::vector<RmwStep> interleave_rmw(const std::vector<int>& order, long long start) {
  if (order.size() != 6 || std::count(order.begin(), order.end(), 0) != 3 ||
      std::count(order.begin(), order.end(), 1) != 3)
    throw std::invalid_argument("interleave_rmw: the order must hold three 0s and three 1s");
  long long memory = start, reg[2] = {0, 0};
  int next[2] = {0, 0};  // each thread's next op: load, add, store
  std::vector<RmwStep> steps;
  for (int t : order) {
    const auto op = static_cast<RmwStep::Op>(next[t]++);
    if (op == RmwStep::Load) reg[t] = memory;
    if (op == RmwStep::Add) reg[t] += 1;
    if (op == RmwStep::Store) memory = reg[t];
    steps.push_back({t, op, reg[t], memory});
  }
  return steps;
}

const char* to_string(RmwStep::Op op) {
  return op == RmwStep::Load ? "load" : op == RmwStep::Add ? "add 1" : "store";
}

}  // namespace cv::insight

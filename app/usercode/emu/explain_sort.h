#pragma once
// Events grouped by a key of two numbers, in event order within a key (as a
// stable sort gives). The keys are made once, not per comparison, and kept
// small: a truncated explain holds 4 M events. (explain_analysis.cpp,
// explain_races.cpp)
#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "usercode/emu/explain_record.h"

namespace cv::emu {

struct SortKey {
  uint64_t hi, lo;
};
inline bool same(const SortKey& x, const SortKey& y) { return x.hi == y.hi && x.lo == y.lo; }

// The indexes of the events `keep` accepts, ordered by key_of.
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

}  // namespace cv::emu

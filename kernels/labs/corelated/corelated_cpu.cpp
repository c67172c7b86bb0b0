// Host side of the co-related ids lab: variants, data, and the threaded CPU count.
#include <algorithm>
#include <atomic>
#include <random>
#include <stdexcept>
#include <unordered_set>

#include "common/parallel_for.h"
#include "labs/corelated/corelated.h"
#include "labs/corelated/corelated_math.h"

namespace cv::corelated {

const char* to_string(Variant v) { return name_of(kVariants, v); }

std::optional<Variant> parse_variant(const std::string& name) {
  return parse_name(kVariants, name);
}

const std::vector<Variant>& all_variants() {
  static const std::vector<Variant> v = values_of(kVariants);
  return v;
}

bool is_gpu(Variant v) {
  return v != Variant::Cpu;
}

uint32_t Rows::max_length() const {
  uint32_t m = 0;
  for (size_t r = 0; r < rows(); ++r) m = std::max(m, length(r));
  return m;
}

Rows make_rows(const std::vector<int32_t>& values, const std::vector<size_t>& offsets) {
  if (offsets.empty() || offsets.front() != 0 || offsets.back() != values.size())
    throw std::invalid_argument("corelated rows: offsets do not describe the values");
  if (values.size() > 0xffffffffull)
    throw std::invalid_argument("corelated rows: more than 2^32 - 1 ids");
  Rows out;
  out.ids.reserve(values.size());
  for (size_t r = 0; r + 1 < offsets.size(); ++r) {
    if (offsets[r + 1] < offsets[r])
      throw std::invalid_argument("corelated rows: offsets must not decrease");
    const size_t begin = out.ids.size();
    out.ids.insert(out.ids.end(), values.begin() + offsets[r], values.begin() + offsets[r + 1]);
    std::sort(out.ids.begin() + begin, out.ids.end());
    out.ids.erase(std::unique(out.ids.begin() + begin, out.ids.end()), out.ids.end());
    out.offsets.push_back(static_cast<uint32_t>(out.ids.size()));
  }
  return out;
}

Rows generate_rows(size_t rows, uint32_t per_row, int32_t universe, uint32_t seed) {
  if (universe < 1 || per_row > static_cast<uint32_t>(universe))
    throw std::invalid_argument("corelated data: need per_row <= universe");
  std::mt19937 gen(seed);
  std::vector<int32_t> values;
  std::vector<size_t> offsets{0};
  values.reserve(rows * per_row);
  std::unordered_set<int32_t> row;
  for (size_t r = 0; r < rows; ++r) {
    row.clear();
    while (row.size() < per_row) {
      const int32_t id = 1 + static_cast<int32_t>(gen() % static_cast<uint32_t>(universe));
      if (row.insert(id).second) values.push_back(id);
    }
    offsets.push_back(values.size());
  }
  return make_rows(values, offsets);
}

uint64_t count_cpu(const Rows& rows, int threshold, const std::atomic<bool>* cancel) {
  if (threshold < 0) throw std::invalid_argument("corelated: the threshold must be >= 0");
  const uint32_t limit = static_cast<uint32_t>(threshold);
  const size_t R = rows.rows();
  if (R < 2) return 0;
  // Row r has R - r - 1 partners: deal rows round-robin to stripes to balance.
  const size_t stripes = std::min<size_t>(256, R);
  std::vector<uint64_t> partial(stripes, 0);
  const int32_t* ids = rows.ids.data();
  parallel_for(stripes, [&](size_t b, size_t e) {
    for (size_t st = b; st < e; ++st) {
      uint64_t c = 0;
      for (size_t r = st; r < R; r += stripes) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return;
        const int32_t* a = ids + rows.offsets[r];
        const uint32_t la = rows.length(r);
        for (size_t s = r + 1; s < R; ++s) {
          // A row's partners can be tens of thousands (a second under a sanitizer):
          // a cancel is looked at every 1,024 of them too, not only between rows.
          if ((s & 1023) == 0 && cancel && cancel->load(std::memory_order_relaxed)) return;
          c += shared_sorted(a, la, ids + rows.offsets[s], rows.length(s)) > limit;
        }
      }
      partial[st] = c;
    }
  });
  uint64_t total = 0;
  for (uint64_t c : partial) total += c;
  return total;
}

namespace {

// Each id's rows, ascending, as one list: rows_of(k) = holders[starts[k], starts[k + 1]).
struct IdIndex {
  std::vector<uint32_t> starts, holders;
  std::vector<uint32_t> slot;  // per id entry of rows.ids: its id's index k
};

// Each entry's id numbered 0..k-1 in id order: through a table over the ids'
// range when it is small (generated rows: ids 1..4096), else by sorting.
std::vector<uint32_t> number_ids(const int32_t* ids, size_t m, size_t& distinct) {
  std::vector<uint32_t> slot(m);
  distinct = 0;
  if (m == 0) return slot;
  const auto [lo, hi] = std::minmax_element(ids, ids + m);
  const int64_t range = int64_t{*hi} - *lo + 1;
  if (range <= static_cast<int64_t>(8 * m + 4096)) {
    std::vector<uint32_t> number(static_cast<size_t>(range), 0);
    for (size_t i = 0; i < m; ++i) number[static_cast<size_t>(int64_t{ids[i]} - *lo)] = 1;
    for (uint32_t& x : number) x = x ? static_cast<uint32_t>(distinct++) : 0;
    for (size_t i = 0; i < m; ++i) slot[i] = number[static_cast<size_t>(int64_t{ids[i]} - *lo)];
    return slot;
  }
  std::vector<int32_t> sorted(ids, ids + m);
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  distinct = sorted.size();
  for (size_t i = 0; i < m; ++i)
    slot[i] = static_cast<uint32_t>(std::lower_bound(sorted.begin(), sorted.end(), ids[i]) - sorted.begin());
  return slot;
}

IdIndex index_ids(const Rows& rows) {
  IdIndex x;
  const size_t m = rows.offsets.back();  // the rows' ids (a span may hold more past the last row)
  size_t distinct = 0;
  x.slot = number_ids(rows.ids.data(), m, distinct);
  x.starts.assign(distinct + 1, 0);
  for (size_t i = 0; i < m; ++i) ++x.starts[x.slot[i] + 1];
  for (size_t k = 0; k < distinct; ++k) x.starts[k + 1] += x.starts[k];
  x.holders.resize(m);
  std::vector<uint32_t> next(x.starts.begin(), x.starts.end() - 1);
  for (size_t r = 0; r < rows.rows(); ++r)  // rows in order: each list ascends
    for (uint32_t i = rows.offsets[r]; i < rows.offsets[r + 1]; ++i) x.holders[next[x.slot[i]]++] = static_cast<uint32_t>(r);
  return x;
}

}  // namespace

uint64_t count_by_ids(const Rows& rows, int threshold) {
  if (threshold < 0) throw std::invalid_argument("corelated: the threshold must be >= 0");
  const uint32_t limit = static_cast<uint32_t>(threshold);
  const size_t R = rows.rows();
  if (R < 2) return 0;
  const IdIndex x = index_ids(rows);
  std::atomic<uint64_t> total{0};
  // Row r meets only rows after it: rows dealt round-robin to stripes, as in count_cpu.
  const size_t stripes = std::min<size_t>(256, R);
  parallel_for(stripes, [&](size_t b, size_t e) {
    std::vector<uint32_t> shared(R, 0), touched;  // row s's ids in common with row r
    uint64_t c = 0;
    for (size_t st = b; st < e; ++st) {
      for (size_t r = st; r < R; r += stripes) {
        for (uint32_t i = rows.offsets[r]; i < rows.offsets[r + 1]; ++i) {
          const uint32_t* first = x.holders.data() + x.starts[x.slot[i]];
          const uint32_t* last = x.holders.data() + x.starts[x.slot[i] + 1];
          for (const uint32_t* s = std::upper_bound(first, last, static_cast<uint32_t>(r)); s != last; ++s)
            if (shared[*s]++ == 0) touched.push_back(*s);
        }
        for (uint32_t s : touched) c += shared[s] > limit, shared[s] = 0;
        touched.clear();
      }
    }
    total.fetch_add(c, std::memory_order_relaxed);
  });
  return total.load();
}

uint64_t count_reference(const Rows& rows, int threshold) {
  uint64_t c = 0;
  std::vector<int32_t> both;
  for (size_t r = 0; r < rows.rows(); ++r)
    for (size_t s = r + 1; s < rows.rows(); ++s) {
      both.clear();
      std::set_intersection(rows.ids.begin() + rows.offsets[r],
                            rows.ids.begin() + rows.offsets[r + 1],
                            rows.ids.begin() + rows.offsets[s],
                            rows.ids.begin() + rows.offsets[s + 1], std::back_inserter(both));
      if (static_cast<long long>(both.size()) > threshold) ++c;
    }
  return c;
}

}  // namespace cv::corelated

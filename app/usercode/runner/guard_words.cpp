#include "usercode/runner/guard_words.h"

#include <cstdio>
#include <sstream>

namespace cv::usercode::guard {

std::string byte_words(unsigned long long b) {
  if (b == 1) return "1 byte";
  if (b < 1024) return std::to_string(b) + " bytes";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(b) / 1024.0;
  int u = 0;
  while (v >= 1024.0 && u < 5) v /= 1024.0, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, v < 10 && v != static_cast<long long>(v) ? "%.1f %s" : "%.0f %s", v, units[u]);
  return buf;
}

std::string describe(const Record& r, const std::vector<GuardSite>& sites,
                     const std::vector<BufferView>& buffers) {
  const GuardSite* s = r.site < sites.size() ? &sites[r.site] : nullptr;
  const std::string access = s ? s->access : "access";
  const unsigned width = s ? s->width : 0;
  const bool write = access == "write";
  std::ostringstream o;
  o << access << " of " << byte_words(width) << (write ? " to " : access == "read" ? " from " : " on ");
  const unsigned long long a = r.address;
  const Space space = static_cast<Space>(r.space);
  const bool misaligned = static_cast<Reason>(r.reason) == Reason::Misaligned;
  if (space == Space::Shared || space == Space::Local) {
    const bool sh = space == Space::Shared;
    const unsigned long long lo = sh ? r.shared_lo : r.local_lo, hi = sh ? r.shared_hi : r.local_hi;
    o << (sh ? "shared memory" : "a local array");
    // "the block's 8 KiB of shared memory" / "the thread's frame of 32 bytes"
    const std::string whole = sh ? "the block's " + byte_words(hi - lo) + " of shared memory"
                                 : "the thread's frame of " + byte_words(hi - lo);
    if (misaligned) {
      o << " at an address that is not a multiple of " << width;
    } else if (a >= lo && a <= hi) {
      o << " at byte " << a - lo << " of " << whole << " (" << byte_words(a + width - hi) << " past its end)";
    } else if (a < lo) {
      o << " " << byte_words(lo - a) << " before the start of " << whole;
    } else {
      o << " " << byte_words(a - hi) << " past the end of " << whole;
    }
  } else {
    // The nearest buffer, and where the address lies from it.
    const BufferView* best = nullptr;
    unsigned long long best_d = ~0ull;
    for (const BufferView& b : buffers) {
      const auto begin = reinterpret_cast<unsigned long long>(b.data), end = begin + b.bytes;
      const unsigned long long d = a < begin ? begin - a : a >= end ? a - end : 0;
      if (d < best_d) best_d = d, best = &b;
    }
    if (a < 4096) {
      o << "a null pointer (address " << a << ")";
    } else if (!best) {
      char hex[32];
      std::snprintf(hex, sizeof hex, "0x%llx", a);
      o << "address " << hex << ", outside every buffer";
    } else {
      const auto begin = reinterpret_cast<unsigned long long>(best->data), end = begin + best->bytes;
      const unsigned eb = best->elem_bytes ? best->elem_bytes : 1;
      const long long index = static_cast<long long>(a - begin) / static_cast<long long>(eb);
      o << best->name;
      if (misaligned && a >= begin && a < end) {
        o << " at byte " << a - begin << ", not a multiple of " << width
          << " (a " << width << "-byte access needs an address divisible by " << width << ")";
      } else if (a >= end) {
        o << " at " << byte_words(a - end + 0) << " past its end (index " << index << " of "
          << best->bytes / eb << ")";
      } else if (a < begin) {
        o << " at " << byte_words(begin - a) << " before its start (index " << index << " of "
          << best->bytes / eb << ")";
      } else {  // inside, but the access runs over the end
        o << " at its last bytes: index " << index << " of " << best->bytes / eb << " with a "
          << width << "-byte access runs past its end";
      }
      if (misaligned && !(a >= begin && a < end)) o << ", and not a multiple of " << width;
    }
  }
  o << " by thread (" << r.thread[0] << "," << r.thread[1] << "," << r.thread[2] << ") of block ("
    << r.block[0] << "," << r.block[1] << "," << r.block[2] << ")";
  if (s && s->line) o << " at line " << s->line;
  return o.str();
}

std::string sentence(const Record& r, const std::vector<GuardSite>& sites,
                     const std::vector<BufferView>& buffers) {
  return "the guard stopped a " + describe(r, sites, buffers) +
         ". That access was skipped (a read gives 0) and the kernel ran to its end; without the "
         "guard it would touch memory that is not your buffers' and could fault the GPU.";
}

nlohmann::json record_json(const Record& r, const std::vector<GuardSite>& sites) {
  const GuardSite* s = r.site < sites.size() ? &sites[r.site] : nullptr;
  const char* spaces[] = {"?", "global", "shared", "local"};
  return {{"site", r.site},
          {"line", s ? s->line : 0},
          {"access", s ? s->access : ""},
          {"width", s ? s->width : 0},
          {"space", spaces[r.space <= 3 ? r.space : 0]},
          {"reason", r.reason == static_cast<unsigned>(Reason::Misaligned) ? "misaligned" : "outside"},
          {"address", r.address},
          {"thread", {r.thread[0], r.thread[1], r.thread[2]}},
          {"block", {r.block[0], r.block[1], r.block[2]}}};
}

}  // namespace cv::usercode::guard

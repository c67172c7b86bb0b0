#pragma once
// What the guard can tell about an address register from the PTX alone
// (docs/guard.md "Fences"): how many of its low bits are known to be zero,
// so that an access's alignment needs no code when every value the register
// can hold at that access is a multiple of the access's width. For a
// register whose pointer comes from a kernel parameter (access_roots.h) the
// bits are those of its offset from that parameter's pointer; the runner
// vouches for the pointer's own alignment in the table (guard_abi.h).
// Sound only where the register is defined on every way to the access: a
// register read before any definition holds whatever it held, so those
// accesses keep their alignment check at run time.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "usercode/guard/ptx_text.h"

namespace cv::usercode::guard {

struct AddressFacts {
  // Register -> low bits known to be zero (0..64), over all its definitions.
  std::map<std::string, int> zeros;
  // Piece index -> the registers certainly written on every way from the
  // function's start to that piece (only for the pieces asked about).
  std::map<size_t, std::set<std::string>> defined_at;

  // Low zero bits of `reg` as read at piece `at` (0 when not known there).
  int zeros_at(const std::string& reg, size_t at) const;
};

// `roots`: register -> kernel parameter (access_roots.h); `symbol_align`:
// alignment of the module's and function's variables by name; `asked`: the
// pieces whose base registers matter (memory instructions).
AddressFacts address_facts(const std::vector<Piece>& pieces, size_t begin, size_t end,
                           const std::map<std::string, int>& roots,
                           const std::map<std::string, unsigned>& symbol_align,
                           const std::set<size_t>& asked);

}  // namespace cv::usercode::guard

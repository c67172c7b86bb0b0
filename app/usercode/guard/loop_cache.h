#pragma once
// A loop's check remembered (docs/guard.md "Loops proven once"): an inner
// loop entered once per trip of an outer one (corelated's search of a row)
// would pay its check, 30 to 60 instructions, at every entry. The check is
// a pure function of the registers it reads (the loop's start, bounds and
// bases), of the window registers set once a function and of the table,
// which no thread writes; so when those registers hold what they held the
// last time it ran, its answer is the same. The cached form compares them
// (one or two instructions each) and reuses the answer, else runs the check
// and remembers both.
#include <functional>
#include <optional>
#include <string>

namespace cv::usercode::guard {

// The remembering registers of one function: %cvc_d (64-bit), %cvc_r
// (32-bit), %cvc_p (predicates); `init` clears the "remembered" flags and
// goes in the function's prologue.
struct CacheRegs {
  unsigned d = 0, r = 0, p = 0;
  std::string init;
  std::string declarations() const;  // "" when none
};

// `check` leaves predicate `ok` true when the loop may run its proven copy
// (it may also branch to `slow` itself). Returns the code that replaces
// "check; @!ok bra slow;", or nullopt when the check reads a register of
// another width than 32 or 64 bits, or more than `max_inputs` of them.
// `reg_bytes`: bytes of a register of the function (-1: not a register).
std::optional<std::string> cached_check(const std::string& check, const std::string& ok, const std::string& slow,
                                        const std::string& prefix,
                                        const std::function<int(const std::string&)>& reg_bytes, CacheRegs& regs,
                                        size_t max_inputs = 4);

}  // namespace cv::usercode::guard

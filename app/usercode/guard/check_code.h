#pragma once
// The PTX the guard inserts (docs/guard.md), as text: the check before one
// memory access and its out-of-line failure path, the once-a-function shared
// window and local frame, the scratch registers. ptx_guard.cpp decides where.
#include <string>
#include <utility>
#include <vector>

#include "usercode/guard/access_groups.h"

namespace cv::usercode::guard {

// One memory instruction to check.
struct Access {
  unsigned site = 0;
  int line = 0;
  std::string access;  // "read", "write", "atomic" (for the comment)
  std::string space;   // "global", "shared", "local", "generic"
  unsigned width = 0;  // bytes
  std::string guard;   // its own predicate ("%p1"), "" when none
  bool guard_negated = false;
  std::string body;    // the instruction without its predicate and ';'
  enum class Base { Register, Variable, Absolute } base_kind = Base::Register;
  std::string base;    // the register or variable
  bool base32 = false;  // a 32-bit register (shared / local offsets)
  long long offset = 0;
  std::vector<std::pair<std::string, unsigned>> dests;  // registers a skipped load zeroes, bytes
  bool nested = false;  // inside a { } block: the failure path stays in line
  int root = -1;        // the kernel parameter its pointer comes from (access_roots.h), -1: none
  std::string address;  // the address operand as written ("[%rd6+8]")
  std::string copy;     // "" for the site's own check; a suffix for its labels in a copy of the code
  int zeros = 0;        // low bits of the base known to be 0 (address_facts.h; of the offset when rooted)
  long long frame_bytes = 0;  // the function's local frame (local accesses)
};

struct CheckCode {
  std::string code;  // replaces the instruction
  std::string fail;  // goes before the function's closing brace ("" when in line)
};
CheckCode check_code(const Access& a);

// What the rewriter knows of a group's base where the group starts.
struct GroupFacts {
  int root = -1;              // the kernel parameter its pointer comes from, -1: none
  int zeros = 0;              // low bits known to be 0 (address_facts.h; of the offset when rooted)
  long long frame_bytes = 0;  // the function's local frame
};

// The one check of a group (access_groups.h): its whole range and the base's
// alignment; branches to `slow` (the copy with every access guarded) when
// either fails.
std::string group_check(const AccessGroup& g, unsigned id, const std::string& slow, const GroupFacts& facts = {});

// %cvg_p0 = [reg, reg + width) lies inside the space's window (shared,
// local) or one table entry (global); `prefix` names the labels it needs
// and ends with `prefix`"guarded:" for global. Clobbers %cvg_d1..d4, %cvg_r0.
// With `root` (a parameter index), that parameter's buffer is tried first.
std::string window_check(const std::string& space, const std::string& prefix, const std::string& reg,
                         const std::string& width, int root = -1);

// Set once a function: the shared window's start %cvg_w0 and size %cvg_w1
// (32-bit), %cvg_kK = max(size - 2^K + 1, 0) for the fences, and the local
// frame [%cvg_l0, %cvg_l1).
struct SharedVar {
  std::string name;
  long long bytes;  // -1: the extern (dynamic) array, sized by %dynamic_smem_size
};
std::string window_prologue(const std::vector<SharedVar>& shared, const std::string& depot,
                            long long depot_bytes);
// The prologue without the fence rooms (%cvg_kK) that `code` never reads:
// a function with only 4-byte shared accesses computes one class, not six.
std::string without_unused_rooms(const std::string& prologue, const std::string& code);
// The %cvg_* registers, declared at the top of a function body.
std::string scratch_registers();
// The guard's two module-scope variables (after .address_size).
std::string module_declarations();

}  // namespace cv::usercode::guard

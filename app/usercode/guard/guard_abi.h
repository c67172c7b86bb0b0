#pragma once
// The two module-scope variables the guard adds to a student's PTX, as the
// host sees them: the table of memory the launch may touch (written by the
// runner before each launch) and the record of the first access that failed
// its check (read and reset after). The rewriter (ptx_guard.cpp) emits code
// against exactly these offsets; static_asserts below pin them.
#include <cstddef>

namespace cv::usercode::guard {

constexpr const char* kTableName = "cv_guard_table";    // .const
constexpr const char* kRecordName = "cv_guard_record";  // .global
// Where an access whose check failed goes instead (.global, 32 bytes): a
// load, store or atomic can then be issued before the branch to the failure
// path (docs/guard.md "Accesses through a parameter").
constexpr const char* kSinkName = "cv_guard_sink";
// The prelude's stand-in a checked s[i] reads and writes once its index was
// found out of range (cudaviz.h): not a hint of which buffer an address is in.
constexpr const char* kScratchName = "cv_scratch";
constexpr unsigned kTableEntries = 16;  // buffers first, then the module's own .global variables
constexpr unsigned kParamWindows = 16;  // by the kernel's parameter index: the buffer that argument names
// The prelude's checked s[i] stores this as its line (an inline-PTX
// `mov.b32 %r, 2080374783;` at the access, cudaviz.h Span::access); the rewriter
// replaces it with the student's line of that code. Unguarded it stays: the
// runner reads it as "no line".
constexpr int kLineMarker = 2080374783;

struct TableEntry {
  unsigned long long begin, end;  // [begin, end) in the generic/global address space
};
// Accessing through a kernel argument's pointer, the fence subtracts the
// buffer's start from the access's base register and compares the result,
// unsigned, with room[k] (docs/guard.md "Fences"): the number of offsets at
// which 2^k bytes still fit in the buffer, given only when the argument's
// pointer is aligned to 2^k; otherwise 0, which nothing passes (so does a
// table nobody wrote: all zeros).
constexpr unsigned kWidthClasses = 6;  // 1, 2, 4, 8, 16, 32 bytes
struct ParamWindow {
  unsigned long long begin, end;  // the buffer exactly ({0, 0}: none): the exact checks' window
  unsigned long long room[kWidthClasses];
};
struct Table {
  unsigned count;  // entries in use (the check loops over these only)
  unsigned pad[3];
  TableEntry entry[kTableEntries];
  // param[j]: the buffer of the kernel's argument j when it is a span. An
  // access whose address the guard traces to parameter j's pointer compares
  // this window first, at a fixed offset.
  ParamWindow param[kParamWindows];
};

// Where the failing access pointed (for generic addresses: the window it fell in).
enum class Space : unsigned { Global = 1, Shared = 2, Local = 3 };
enum class Reason : unsigned { Outside = 1, Misaligned = 2 };

struct Record {
  unsigned hit;     // 0 until the first failure (atomicCAS 0 -> 1)
  unsigned site;    // index into GuardedPtx::sites
  unsigned space;   // Space
  unsigned reason;  // Reason
  unsigned long long address;             // in the space's own window (shared: offset)
  unsigned long long shared_lo, shared_hi;  // the block's shared window, as the thread saw it
  unsigned long long local_lo, local_hi;    // the thread's frame
  unsigned thread[3], block[3];
};

static_assert(sizeof(ParamWindow) == 64 && offsetof(ParamWindow, room) == 16);
static_assert(sizeof(Table) == 16 + 16 * kTableEntries + 64 * kParamWindows);
static_assert(offsetof(Table, entry) == 16 && offsetof(Table, param) == 16 + 16 * kTableEntries);
static_assert(offsetof(Record, address) == 16 && offsetof(Record, shared_lo) == 24 &&
              offsetof(Record, local_lo) == 40 && offsetof(Record, thread) == 56 &&
              offsetof(Record, block) == 68 && sizeof(Record) == 80);

}  // namespace cv::usercode::guard

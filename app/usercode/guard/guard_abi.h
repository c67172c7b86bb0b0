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
constexpr unsigned kTableEntries = 16;  // buffers first, then the module's own .global variables
// The prelude's checked s[i] stores this as its line (an inline-PTX
// `mov.b32 %r, 2080374783;`, cudaviz.h record_out_of_range); the rewriter
// replaces it with the student's line of that code. Unguarded it stays: the
// runner reads it as "no line".
constexpr int kLineMarker = 2080374783;

struct TableEntry {
  unsigned long long begin, end;  // [begin, end) in the generic/global address space
};
struct Table {
  unsigned count;  // entries in use (the check loops over these only)
  unsigned pad[3];
  TableEntry entry[kTableEntries];
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

static_assert(sizeof(Table) == 16 + 16 * kTableEntries);
static_assert(offsetof(Table, entry) == 16);
static_assert(offsetof(Record, address) == 16 && offsetof(Record, shared_lo) == 24 &&
              offsetof(Record, local_lo) == 40 && offsetof(Record, thread) == 56 &&
              offsetof(Record, block) == 68 && sizeof(Record) == 80);

}  // namespace cv::usercode::guard

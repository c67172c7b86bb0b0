#pragma once
// What `explain` found in one emulated launch (docs/emulator.md): races,
// sectors per warp-wide access, divergent branches, and for a chosen block
// who touched what. Plain data; explain_json.h writes it out.
#include <cstdint>
#include <string>
#include <vector>

#include "usercode/emu/prelude/cudaviz_emu_abi.h"

namespace cv::emu {

struct ThreadRef {
  cv_emu::Dim block{0, 0, 0}, thread{0, 0, 0};
};

// Where in the student's file an access happened: its line, and when that
// line is inside a helper of the student's, the line that called it (the
// nearest call; 0: none). Code of the app's prelude counts as the student's
// line that called it.
struct Place {
  int line = 0;
  int call_line = 0;
  bool operator<(const Place& o) const { return line != o.line ? line < o.line : call_line < o.call_line; }
  bool operator==(const Place& o) const { return line == o.line && call_line == o.call_line; }
};

struct RaceSide {
  ThreadRef who;
  int kind = cv_emu::kRead;  // EventKind
  int line = 0;
  int call_line = 0;  // Place::call_line
};

struct Race {
  std::string buffer;   // the parameter's name, or the __shared__ variable's
  bool shared = false;  // shared memory (then both threads are of one block)
  long long index = 0;  // element (flat, in the array's own element type)
  std::string element;  // as the student writes it: "out[17]", "tile[2][5]"
  RaceSide first, second;
  std::string sentence;  // "race on out[17]: thread (3,0,0) of block (0,0,0) wrote it at line 9, ..."
};

// Why two accesses were not ordered (the cause a group's sentence names).
enum class RaceCause {
  NoBarrier,     // one block, no __syncthreads() between them
  NoSyncwarp,    // one warp, no __syncwarp() between them (independent thread scheduling)
  OtherBlocks,   // different blocks: nothing orders blocks within a launch
};

// The races of one array between one pair of places, one cause: what a
// student fixes once ("256 threads wrote s[] at line 8 and others read it at
// line 9 with no __syncthreads() between").
struct RaceGroup {
  std::string buffer;
  bool shared = false;
  RaceCause cause = RaceCause::NoBarrier;
  RaceSide first, second;             // the group's first instance (kinds and places are the group's)
  unsigned long long elements = 0;    // racy elements in the group
  unsigned long long first_threads = 0, second_threads = 0;  // distinct threads on each side
  bool lost_update = false;           // one place read and wrote it without an atomic (count += 1)
  std::string sentence;               // the cause, counted
  std::string fix;                    // what to change
  std::vector<Race> instances;        // the first few, one per element
};

// All warp-wide requests of one line to one buffer (global memory only).
struct SectorLine {
  int line = 0;
  int call_line = 0;                  // Place::call_line
  std::string buffer;
  int kind = cv_emu::kRead;
  unsigned bytes = 0;                 // per lane
  unsigned long long requests = 0;    // warp-wide accesses
  unsigned long long sectors = 0;     // 32-byte sectors, summed
  double sectors_per_request = 0;
  double efficiency = 0;              // bytes asked / bytes of the sectors
  unsigned long long repeats = 0;     // loads the GPU's compiler keeps in a register (not requests)
  unsigned unrolled = 1;              // the GPU compiler's unroll of the line's loop (UnrolledLoop), 1: none known
  bool remainder_first = false;
};

struct Branch {
  int line = 0;
  unsigned long long warps = 0;            // warp-wide evaluations (a warp in a loop counts per pass)
  unsigned long long divergent_warps = 0;  // evaluations whose lanes went both ways
  unsigned long long lanes_taken = 0, lanes_not_taken = 0;  // summed over warps
};

// How the GPU's compiler laid out the loop around one line's accesses, read
// from NVRTC's PTX (usercode/compile/unrolled_loops.h): unrolled `unroll`
// times, the remainder's passes in a loop of their own before the unrolled
// body or after it. Which passes of two lanes meet in one request follows from
// it: with the remainder first, lanes whose trip counts differ by one meet at
// the same element in the body (docs/insight.md, "Explain against Nsight Compute").
struct UnrolledLoop {
  int line = 0;
  unsigned unroll = 1;
  bool remainder_first = false;
  // The unrolled body stores or makes atomics: loads it repeats are loaded
  // again in each of its passes (they may have been written), not held.
  bool body_stores = false;
};

// One access of the chosen block (who touched what).
struct Touch {
  std::string buffer;
  bool shared = false;
  long long index = 0;
  unsigned thread = 0;  // linear in the block
  int kind = cv_emu::kRead;
  int line = 0;
};

// One warp-wide request of the chosen warp, for the memory view.
struct WarpRequest {
  int line = 0;
  std::string buffer;
  int kind = cv_emu::kRead;
  unsigned bytes = 0;
  std::vector<long long> lane_offset;  // 32 byte offsets into the buffer, -1: lane not in it
  unsigned sectors = 0;
};

struct Explain {
  std::vector<RaceGroup> race_groups;   // at most kMaxRaceGroups, most elements first
  std::vector<Race> races;              // at most kMaxRaces, one per element (all groups)
  unsigned long long racy_elements = 0;
  std::vector<SectorLine> sectors;
  std::vector<Branch> branches;         // every recorded `if`
  std::vector<Touch> touches;           // the chosen block
  std::vector<WarpRequest> warp_requests;  // the chosen warp of the chosen block
  cv_emu::Dim block{0, 0, 0};           // the chosen block
  unsigned warp = 0;
  unsigned block_threads = 0;
  unsigned long long recorded_threads = 0, events = 0;
  bool truncated = false;               // stopped recording at the event limit
  std::vector<std::string> buffers;     // the names, in parameter order
  std::string scope;                    // what is and is not recorded, a sentence
};

constexpr size_t kMaxRaces = 32;
constexpr size_t kMaxRaceGroups = 16;
constexpr size_t kGroupInstances = 8;   // instances kept per group

}  // namespace cv::emu

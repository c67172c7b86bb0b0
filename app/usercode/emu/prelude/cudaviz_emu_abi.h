// cudaviz emulator ABI: what a host-compiled kernel (.so) and the emulator
// that runs it (app/usercode/emu/) share. Plain structs only: both sides are
// built by different compilers at different times.
#pragma once

namespace cv_emu {

constexpr unsigned kAbiVersion = 3;

struct Dim {
  unsigned x, y, z;
};

// Kinds of a recorded event (explain builds only).
enum EventKind : int { kRead = 0, kWrite = 1, kAtomic = 2 };

// A warp collective: each lane fills its slot, calls hooks->warp(), reads result.
enum WarpOp : int {
  kShfl = 0,
  kShflUp,
  kShflDown,
  kShflXor,
  kBallot,
  kAny,
  kAll,
  kSyncWarp,
  kActiveMask,
};

struct LaneSlot {
  unsigned long long value;   // the lane's operand (raw bytes, up to 8)
  unsigned long long result;  // what the collective gives back
  unsigned mask;              // the member mask the lane passed
  int op;                     // WarpOp
  int arg;                    // source lane / delta / lane mask
  int width;                  // shuffle segment width
  int line;                   // the student's line
};

// What the kernel calls back into (the emulator fills these).
struct Hooks {
  void (*barrier)(int line);                      // __syncthreads()
  void (*warp)(int line);                         // the lane's slot is filled
  void (*print)(const char* text, unsigned long long n);
  void (*trap)(const char* what, int line);       // __trap(), assert(): ends the launch
  // Explain builds: an access; pc is the code address that made it (a return
  // address in the student's code) and frame that code's frame pointer, from
  // which the emulator walks to the calls around it. A branch; calls in and out.
  void (*access)(const void* address, unsigned bytes, int kind, const void* pc, const void* frame);
  void (*branch)(int line, int taken);
  void (*enter)(const void* call_site);
  void (*leave)();
  // The fast path (loop fission): a barrier after threads may have left
  // (`done`: a flag per thread, null when none can): 1 when every thread has
  // left (the block is over), 0 to go on; ends the launch when only some
  // have. A warp operation: every thread's slot is posted; fills the results
  // or ends the launch (a bad mask).
  int (*fission_barrier)(const unsigned char* done, int line);
  void (*fission_warp)(LaneSlot* slots, const unsigned char* done, int line);
};

// Per worker thread, in the kernel module's thread-local storage: the running
// thread's coordinates. The emulator updates it at every fiber switch.
struct Ctx {
  Dim thread_idx, block_idx, block_dim, grid_dim;
  LaneSlot* slot;      // the running thread's warp slot (fibers only)
  const Hooks* hooks;
  unsigned worker;     // the worker thread's index (an "SM" for colour by SM)
  int fibers;          // 1 when barriers and warp operations can suspend
  unsigned long long* blocks_done;  // null, or a count of finished blocks the caller watches (atomic adds)
  // The fast path's block is the first / last of the worker's range: its
  // deferred atomics start there / are made there (fission_emit.cpp flushes()).
  int first_block, last_block;
};

// One entry point of a module: exported as `cv_emu_entry_<name>`.
struct Entry {
  unsigned abi;
  const char* name;
  int uses_sync;  // the source names a barrier or a warp intrinsic: run as fibers
  // Runs the kernel once as the thread ctx->thread_idx describes (fibers).
  void (*call)(void** params);
  // Runs every thread of blocks [first, last) (linear, x fastest) in order,
  // without fibers: for kernels without barriers or warp intrinsics.
  void (*loop)(void** params, Ctx* ctx, unsigned long long first, unsigned long long last);
  unsigned long long static_shared_bytes;  // 0: unknown
  // The fast path: blocks [first, last) each as loops over its threads (null:
  // the kernel could not be split; fission_note says why, at fission_line).
  void (*fission)(void** params, Ctx* ctx, unsigned long long first, unsigned long long last);
  const char* fission_note;
  int fission_line;
};

}  // namespace cv_emu

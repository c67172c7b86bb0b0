// cudaviz emulator ABI: what a host-compiled kernel (.so) and the emulator
// that runs it (app/usercode/emu/) share. Plain structs only: both sides are
// built by different compilers at different times.
#pragma once

namespace cv_emu {

constexpr unsigned kAbiVersion = 2;

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
};

// Per worker thread, in the kernel module's thread-local storage: the running
// thread's coordinates. The emulator updates it at every fiber switch.
struct Ctx {
  Dim thread_idx, block_idx, block_dim, grid_dim;
  LaneSlot* slot;      // the running thread's warp slot (fibers only)
  const Hooks* hooks;
  unsigned worker;     // the worker thread's index (an "SM" for colour by SM)
  int fibers;          // 1 when barriers and warp operations can suspend
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
};

}  // namespace cv_emu

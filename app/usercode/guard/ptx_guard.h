#pragma once
// The guard over a student's compiled kernel: rewrites NVRTC's PTX
// so that every ld / st / atom / red on global, generic, shared and local
// addresses is guarded before it runs. Global addresses must fall inside one
// entry of cv_guard_table (the launch's buffers, then the module's own
// .global variables); shared ones inside the block's shared window (the
// module's __shared__ variables and the dynamic size); local ones inside the
// function's frame; generic ones are first placed in their window with
// isspacep. Every access must also be aligned to its width. A failing access
// is not executed (a skipped load leaves 0), and the first failure is
// written to cv_guard_record (guard_abi.h). Instructions the guard cannot
// check are refused with a sentence naming the student's line.
// Pure text to text: tested on machines without a GPU.
#include <string>
#include <vector>

#include "usercode/guard/bounds_proof.h"

namespace cv::usercode::guard {

struct GuardSite {
  int line = 0;              // the student's line (from .loc), 0 when not known
  std::string access;        // "read", "write", "atomic"
  std::string space;         // as written: "global", "shared", "local", "generic"
  unsigned width = 0;        // bytes (a vector's whole width)
  std::string instruction;   // the opcode, e.g. "st.global.v4.f32"
  std::string function;      // the .entry / .func it is in
  bool proven = false;       // a named variable at a fixed offset, guarded here (no code)
  bool loop_proven = false;  // also guarded once before its loop (loop_proof.h): unguarded in the loop's fast copy
  bool bounds_proven = false;  // in range by its index's bounds (bounds_proof.h): no code at all
};

struct GuardOptions {
  // The student's file as NVRTC names it in `.file` (basename compared).
  std::string student_file = "kernel.cu";
  // What the launch guarantees (the spans' element sizes, the template's
  // size rules, the device's block limit), for accesses proven by their
  // bounds (bounds_proof.h); `entry` and `shared` are filled per function.
  // None given, none are proven that way.
  BoundsInput bounds;
};

struct GuardedPtx {
  bool ok = false;
  std::string ptx;              // the guarded PTX when ok
  std::string error;            // why it was refused: one sentence a line
  int error_line = 0;           // the first refusal's student line (0: none / unknown)
  std::vector<GuardSite> sites;  // index = Record::site
  size_t memory_instructions = 0;   // ld/st/atom/red on global/generic/shared/local in the input
  size_t guarded_instructions = 0;  // of them, guarded (= sites.size() when ok)
  size_t grouped_instructions = 0;  // of those, also guarded at once with others (access_groups.h)
  size_t loop_proven_instructions = 0;  // of those, guarded once before their loop (loop_proof.h)
  size_t loops_proven = 0;              // loops run as a proven copy when their check passes
  size_t bounds_proven_instructions = 0;  // of the guarded, in range by their bounds: no code (bounds_proof.h)
  std::vector<std::string> module_globals;  // .global variables the table admits after the buffers
  std::vector<std::string> shared_names;    // the module's __shared__ variables (for messages)
};

GuardedPtx guard_ptx(const std::string& ptx, const GuardOptions& options = {});

// An independent count of the memory instructions guard_ptx must check (a
// plain scan of the statements, sharing nothing with the rewriter).
size_t count_memory_instructions(const std::string& ptx);
// The check sites marked in guarded PTX ("// cudaviz guard: site N").
size_t count_marked_sites(const std::string& guarded_ptx);

}  // namespace cv::usercode::guard

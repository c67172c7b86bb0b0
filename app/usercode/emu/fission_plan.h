#pragma once
// The fast path's analysis of one kernel (fission.h): which values are the
// same in every thread of a block (uniform), which statements hold a barrier
// or a warp operation, and whether the kernel can run as loops over its
// threads at all (every barrier and warp operation under control flow that
// is uniform, none inside a called function, no goto, ...). Pure: a Tree in,
// an answer out.
#include <map>
#include <set>
#include <string>

#include "usercode/emu/fission_tree.h"

namespace cv::emu::fission {

// What a sync-level statement is (the statements of a block that holds a barrier or a warp operation).
enum class Role {
  Thread,   // runs in a loop over the block's threads
  Uniform,  // the same in every thread and without effects on memory: runs once
  Barrier,  // __syncthreads();
  Warp,     // holds one warp operation (a shuffle, a vote, __syncwarp, __activemask)
  Nest,     // a block, if or loop (uniform) with a barrier or a warp operation inside
};

struct Analysis {
  bool ok = false;
  std::string why;  // a sentence when not ok
  int line = 0;     // the student's line it is about
  const Node* body = nullptr;                   // the kernel's body (K::Compound)
  std::vector<const Node*> params;              // the kernel's parameters (K::Param)
  std::map<std::string, const Node*> locals;    // every local variable, by USR
  std::set<std::string> uniform;                // of them, the uniform ones
  bool thread_exits = false;  // a thread region holds a return (threads may leave early)
  bool has_sync = false;      // any barrier or warp operation
  bool nested_loops = false;  // a loop without barriers turned inside out (Analysis::turned)

  Role role(const Node& sync_level_statement) const;
  bool uniform_statement(const Node& s) const;  // runs once for the block: the same everywhere, no memory effects
  bool uniform_effect(const Node& e) const;     // an expression statement that only sets uniform locals
  bool warp_unconditional(const Node& s) const; // its warp call is evaluated by every thread that runs s
  bool params_unchanged();                      // false (why set) when the kernel changes a parameter
  bool turned(const Node& loop) const;          // a block-uniform loop run as a loop over thread loops
  bool contains_sync(const Node& n) const;
  bool is_warp_call(const Node& call) const;
  bool uniform_expr(const Node& e) const;
  // A call that only computes from its arguments (and, with thread_index, the
  // calling thread's index): no memory, nothing but its own locals changed.
  bool pure_call(const Node& call, bool thread_index) const;
  // The call may read the running thread's coordinates from the emulator's
  // context (threadIdx in a helper, __trap's words), so the loop keeps them there.
  bool touches_thread_index(const Node& call) const;
  // The warp calls a Warp statement holds, in source order (none inside another's operands).
  std::vector<const Node*> warp_calls(const Node& statement) const;

  const Tree* tree = nullptr;
  mutable std::map<const Node*, bool> sync_memo;
  mutable std::map<std::string, int> pure_memo;  // function USR -> 0 no, 1 yes, 2 in progress
  mutable std::map<std::string, int> touch_memo;
};

Analysis analyse(const Tree& tree, const std::string& kernel_usr);

// The prelude's barrier / warp function names.
bool is_barrier_name(const std::string& name);
bool is_warp_name(const std::string& name);

}  // namespace cv::emu::fission

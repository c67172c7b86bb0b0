#pragma once
// Explain's recording apart from the run (emu_run.cpp calls these): an
// access's call stack walked from the frame the prelude hands over, the
// workers' records merged after the launch, and each call stack placed at
// the student's lines.
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "usercode/emu/explain_record.h"
#include "usercode/emu/explain_types.h"

namespace cv::emu {

// The executable part of the module loaded at `load_address`: [lo, hi).
struct TextRange {
  uintptr_t lo = 0, hi = 0;
  bool contains(uintptr_t a) const { return a >= lo && a < hi; }
};
TextRange module_text(uintptr_t load_address);

// pc: a return address in the code that made the access; frame: that code's
// frame pointer. The frames are followed while their return addresses are in
// `text` (the module is built with frame pointers; nothing outside it is
// read), frames growing toward higher addresses, at most kMaxFrames.
CallStack walk_stack(const void* pc, const void* frame, TextRange text);

struct MergedRecord {
  std::vector<Event> events;  // Event::where: an index into stacks
  BranchMap branches;
  std::vector<CallStack> stacks;
  bool truncated = false;
};
// The workers' records in one (their events freed as they are taken).
MergedRecord merge_records(std::vector<std::unique_ptr<WorkerRecord>>& records);

// Each stack's place: the student's lines of its frames in order (`lines`:
// pc -> lines, innermost first, from resolve_frames); the first is the line,
// the next one the call's.
std::vector<Place> place_stacks(const std::vector<CallStack>& stacks,
                                const std::map<uint64_t, std::vector<int>>& lines);

}  // namespace cv::emu

#pragma once
// Recorded events -> what explain shows (pure over its inputs, tested):
//  races: two threads touching overlapping bytes of one element, not both
//    atomic, at least one writing, with no barrier between them (same block:
//    the same count of __syncthreads() passed; within a warp also the same
//    count of warp synchronisations) or in different blocks (global memory);
//    grouped by array, pair of places and cause (explain_races.h);
//  sectors: a warp's k-th execution of one access is one request (in a loop
//    the GPU's compiler unrolled, its lanes meet by the unrolled layout:
//    AnalysisInput::unrolled); its active
//    lanes' bytes against 32-byte sectors (buffers taken as 256-byte aligned,
//    as cudaMalloc gives), summed per line: Nsight Compute's
//    l1tex__t_sectors / l1tex__t_requests for global loads and stores;
//  divergence: per `if` line, lanes each way per warp;
//  who touched what: every access of the chosen block.
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "usercode/emu/explain_record.h"
#include "usercode/emu/explain_types.h"
#include "usercode/emu/shared_names.h"
#include "usercode/wire/launch_abi.h"

namespace cv::emu {

struct AnalysisInput {
  const std::vector<usercode::BufferView>* buffers = nullptr;
  cv_emu::Dim grid{1, 1, 1}, block{1, 1, 1};
  unsigned long long chosen_block = 0;
  unsigned chosen_warp = 0;
  std::function<Place(uint64_t where)> place_of;  // Event::where -> the student's place (line 0: unknown)
  // A shared offset, the access's width and line -> the variable and its element.
  std::function<SharedName(uint64_t offset, unsigned bytes, int line)> shared_name;
  // A shared offset -> its element (a number unique to it), for the races.
  std::function<uint64_t(uint64_t offset, unsigned bytes)> shared_unit;
  // Lines whose loop the GPU's compiler unrolled (none known: the source's order).
  std::vector<UnrolledLoop> unrolled;
};

Explain analyse(std::vector<Event>& events, const BranchMap& branches, const AnalysisInput& in);

}  // namespace cv::emu

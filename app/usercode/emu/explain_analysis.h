#pragma once
// Recorded events -> what explain shows (pure over its inputs, tested):
//  races: two threads touching overlapping bytes of one element, not both
//    atomic, at least one writing, with no barrier between them (same block:
//    the same count of __syncthreads() passed; within a warp also the same
//    count of warp synchronisations) or in different blocks (global memory);
//  sectors: a warp's k-th execution of one access is one request; its active
//    lanes' bytes against 32-byte sectors (buffers taken as 256-byte aligned,
//    as cudaMalloc gives), averaged per line;
//  divergence: per `if` line, lanes each way per warp;
//  who touched what: every access of the chosen block.
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "usercode/emu/explain_record.h"
#include "usercode/emu/explain_types.h"
#include "usercode/wire/launch_abi.h"

namespace cv::emu {

struct SharedName {
  std::string name;
  long long index = 0;
};

struct AnalysisInput {
  const std::vector<usercode::BufferView>* buffers = nullptr;
  cv_emu::Dim grid{1, 1, 1}, block{1, 1, 1};
  unsigned long long chosen_block = 0;
  unsigned chosen_warp = 0;
  std::function<int(uint64_t where)> line_of;                      // Event::where -> student line (0: unknown)
  std::function<SharedName(uint64_t offset, unsigned bytes)> shared_name;  // shared offset -> variable, element
};

Explain analyse(std::vector<Event>& events,
                const BranchMap& branches, const AnalysisInput& in);

// "race on out[17]: thread (3,0,0) of block (0,0,0) wrote it at line 9, thread (35,0,0) read it at line 11"
std::string race_sentence(const Race& r);

}  // namespace cv::emu

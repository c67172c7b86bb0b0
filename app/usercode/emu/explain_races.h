#pragma once
// Explain's races (pure, tested): every element two threads touched without
// order, the first pair of each, and the pairs grouped by array, the two
// places and the cause, each group with one sentence that says what happened
// and what to change ("256 threads wrote s[] at line 8 and others read it at
// line 9 with no __syncthreads() between").
#include <functional>
#include <string>
#include <vector>

#include "usercode/emu/explain_record.h"
#include "usercode/emu/explain_types.h"

namespace cv::emu {

// What the race finder needs of the launch (explain_analysis.cpp fills it).
struct RaceContext {
  std::function<cv_emu::Dim(uint32_t linear_block)> block_of;
  std::function<cv_emu::Dim(uint32_t linear_thread)> thread_of;
  std::function<Place(uint64_t where)> place_of;
  // The event's array, its element (flat) and its label ("tile[2][5]").
  std::function<std::string(const Event&, long long& index, std::string& element)> name_of;
  std::function<uint64_t(const Event&)> unit_of;  // the element (a number unique within its space)
};

// Fills x.races, x.racy_elements and x.race_groups.
void find_races(const std::vector<Event>& events, const RaceContext& c, Explain& x);

// "race on out[17]: thread (3,0,0) of block (0,0,0) wrote it at line 9, thread (35,0,0) read it at line 11"
std::string race_sentence(const Race& r);
// A group's sentence and fix from its counts and first instance.
void word_group(RaceGroup& g);
// "line 14 (in a helper called at line 27)"
std::string place_words(int line, int call_line);

}  // namespace cv::emu

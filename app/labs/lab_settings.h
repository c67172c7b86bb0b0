#pragma once
// The labs window's fields as plain data, for presets.
#include <optional>
#include <string>

#include "common/block_shape.h"

namespace cv {

struct LabSettings {
  std::string lab;                  // one of LabPanel::lab_names()
  std::string variant = "all";      // "all" or one of the lab's variants
  std::optional<long long> n;       // nullopt: the lab's default
  std::optional<BlockShape> block;  // nullopt: the lab's default block
  std::string input;                // data file, "" for generated data
  int reps = 0;                     // 0: the lab's default
  bool cpu_backend = false;         // run on the CPU while the app uses CUDA
  bool open = false;                // the window expanded
};

}  // namespace cv

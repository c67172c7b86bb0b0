#pragma once
// What the emulator needs to know from a kernel's text before compiling it
// (pure, tested): whether it names a barrier or a warp intrinsic (then its
// blocks run as fibers, else as plain loops), its `extern __shared__`
// arrays (the epilogue defines them with room for the launch's dynamic size),
// and what cannot run without an NVIDIA GPU, at the student's line.
#include <string>
#include <string_view>
#include <vector>

namespace cv::emu {

struct ExternShared {
  std::string type, name;  // `extern __shared__ float tile[];` -> "float", "tile"
};

struct GpuOnlyUse {
  int line = 0;
  std::string message;  // a sentence
};

struct SourceScan {
  bool uses_sync = false;  // __syncthreads, __syncwarp, shuffles, votes, __activemask
  std::vector<ExternShared> extern_shared;
  std::vector<GpuOnlyUse> gpu_only;
};

// Comments and string / character literals blanked (newlines kept), so a word
// in a comment neither counts nor errs.
std::string code_only(std::string_view source);
SourceScan scan_source(std::string_view source);

}  // namespace cv::emu

#pragma once
// The emulator's fast path, loop fission (docs/emulator.md): each kernel of a
// file is rewritten, from libclang's reading of it, as a function that runs
// one block as loops over its threads between barriers and warp operations
// (per-thread variables that live across one kept per thread), so the host
// compiler can optimise across threads and no fiber switches. A kernel that
// cannot be split (a barrier under control flow that can differ between
// threads, one inside a called function, ...) keeps running as fibers; the
// reason says why.
#include <string>
#include <vector>

namespace cv::emu::fission {

struct KernelSplit {
  std::string name;  // the entry point
  bool ok = false;   // it has a fast-path function, cv_fis_<name>
  std::string why;   // why not (a sentence)
  int line = 0;      // the student's line the reason is about
};

struct Split {
  std::string code;                  // the fast-path functions (a header the epilogue includes)
  std::vector<KernelSplit> kernels;  // per entry point, in order
  std::string why;                   // the fast path is off for the whole file (no libclang, ...)
  double ms = 0;                     // libclang's parse and the rewrite
};

// `assembled`: the file as build.cpp assembles it without the fast path
// (its headers written in `dir`); `file_name`: the student's file as #line names it;
// `checked`: the build is compiled with CV_CHECKED (bounds-checked spans).
Split split_kernels(const std::string& assembled, const std::string& dir, const std::vector<std::string>& entries,
                    const std::string& file_name, bool checked);

}  // namespace cv::emu::fission

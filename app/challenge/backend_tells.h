#pragma once
// A challenge's kernel runs twice in two compilers: timed and checked where it
// is judged (NVRTC on a GPU, or the emulator), and checked for races by
// explain in the emulator (the host compiler). A kernel that asks which
// compiler reads it (`#ifdef __CUDA_ARCH__`, `__GNUC__`, `__cplusplus`'s
// value, the emulator's own names) could race on the GPU and be clean where
// explain looks. Those names are refused in a challenge, each at its line
// (comments and string literals are skipped; line splices and the %: digraph
// are seen as the compilers see them). Pure, for tests.
#include <string_view>
#include <vector>

#include "usercode/compile/compile.h"

namespace cv::challenge {

std::vector<usercode::Diagnostic> backend_tells(std::string_view source);

}  // namespace cv::challenge

#pragma once
// The editor's syntax colouring, apart from ImGui so tests can check it: the
// text cut into runs of one kind (keyword, type, CUDA built-in, a name of the
// app's prelude, comment, string, character, number, preprocessor line, the
// rest). A C++ lexer's rules, simplified where the colour does not change:
// block comments and a backslash-continued line carry over to the next line,
// a raw string literal runs to its delimiter, a number swallows its suffix
// (1.0f, 0x1Fu, 1e-3, 1'000).
#include <cstddef>
#include <string_view>
#include <vector>

namespace cv::code {

enum class Syntax : unsigned char {
  Plain,         // names, operators, spaces
  Keyword,       // if, for, return, __global__, __shared__, const, ...
  Type,          // int, float, unsigned, size_t, float3, dim3, ...
  Builtin,       // threadIdx, blockDim, __syncthreads, atomicAdd, __shfl_sync, ...
  Prelude,       // the app's prelude: cv::Span, cv::Params, global_index, ...
  Comment,       // // ... and /* ... */
  String,        // "...", R"(...)", <header> after #include
  Char,          // 'a', '\n'
  Number,        // 42, 1.0f, 0x1F, 1e-3
  Preprocessor,  // a line starting with '#' (its comments stay comments)
  Bracket,       // ( ) [ ] { }
};
constexpr int kSyntaxKinds = static_cast<int>(Syntax::Bracket) + 1;
const char* to_string(Syntax s);

// One run of the text: [begin, end) of one kind. A run may cross lines (a
// block comment, a continued #define).
struct Run {
  size_t begin = 0, end = 0;
  Syntax kind = Syntax::Plain;
};

// The runs of the whole text, in order, covering it without gaps (adjacent
// Plain text is one run). Linear in the text's size.
std::vector<Run> highlight(std::string_view text);

// The kind of a word on its own (no context): what the tables say, or Plain.
Syntax classify_word(std::string_view word);

// The runs that overlap [from, to), clipped to it: what one line draws.
std::vector<Run> runs_in(const std::vector<Run>& runs, size_t from, size_t to);

}  // namespace cv::code

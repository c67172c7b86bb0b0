// The editor's syntax colouring (widgets/code_syntax.h): what each piece of a
// CUDA C++ kernel is coloured as, across lines too.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "widgets/code_syntax.h"

namespace {

using cv::code::highlight;
using cv::code::Run;
using cv::code::Syntax;

// The kind of the run holding the first occurrence of `piece` (after `from`),
// checking that the run covers the whole piece.
Syntax kind_of(std::string_view text, std::string_view piece, size_t from = 0) {
  const size_t at = text.find(piece, from);
  EXPECT_NE(at, std::string_view::npos) << piece;
  for (const Run& r : highlight(text))
    if (r.begin <= at && at < r.end) {
      EXPECT_GE(r.end, at + piece.size()) << "'" << piece << "' is cut at " << r.end;
      return r.kind;
    }
  ADD_FAILURE() << "no run holds " << piece;
  return Syntax::Plain;
}

TEST(CodeSyntax, RunsCoverTheTextInOrderWithoutGaps) {
  const std::string t =
      "#include <cuda.h>\n/* a\n b */ int x = 0x1F; // c\nconst char* s = \"q\\\"\";\n"
      "R\"(raw\n)\" 'c' 1.0f{}()";
  const auto runs = highlight(t);
  ASSERT_FALSE(runs.empty());
  EXPECT_EQ(runs.front().begin, 0u);
  EXPECT_EQ(runs.back().end, t.size());
  for (size_t i = 1; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i].begin, runs[i - 1].end);
    EXPECT_LT(runs[i].begin, runs[i].end);
  }
  EXPECT_TRUE(highlight("").empty());
}

TEST(CodeSyntax, KeywordsTypesBuiltinsAndPreludeNames) {
  const std::string t =
      "extern \"C\" __global__ void k(cv::Span<float3> out, const cv::Params p, dim3 g) {\n"
      "  __shared__ unsigned long long sum[256];\n"
      "  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  for (unsigned long long k = cv::global_index(); k < n; k += cv::grid_threads())\n"
      "    sum[i] += cv::sample_inside(seed, k) + __shfl_sync(0xffffffffu, v, 0);\n"
      "  __syncthreads();\n"
      "  if (i == 0) atomicAdd(&out[0].x, 1.0f); else return;\n"
      "  cv::something_new(); global_index(); mine();\n"
      "}\n";
  EXPECT_EQ(kind_of(t, "extern"), Syntax::Keyword);
  EXPECT_EQ(kind_of(t, "__global__"), Syntax::Keyword);
  EXPECT_EQ(kind_of(t, "__shared__"), Syntax::Keyword);
  EXPECT_EQ(kind_of(t, "const"), Syntax::Keyword);
  EXPECT_EQ(kind_of(t, "for"), Syntax::Keyword);
  EXPECT_EQ(kind_of(t, "return"), Syntax::Keyword);
  EXPECT_EQ(kind_of(t, "void"), Syntax::Type);
  EXPECT_EQ(kind_of(t, "float3"), Syntax::Type);
  EXPECT_EQ(kind_of(t, "dim3"), Syntax::Type);
  EXPECT_EQ(kind_of(t, "unsigned"), Syntax::Type);
  EXPECT_EQ(kind_of(t, "blockIdx"), Syntax::Builtin);
  EXPECT_EQ(kind_of(t, "threadIdx"), Syntax::Builtin);
  EXPECT_EQ(kind_of(t, "__syncthreads"), Syntax::Builtin);
  EXPECT_EQ(kind_of(t, "__shfl_sync"), Syntax::Builtin);
  EXPECT_EQ(kind_of(t, "atomicAdd"), Syntax::Builtin);
  EXPECT_EQ(kind_of(t, "Span"), Syntax::Prelude);
  EXPECT_EQ(kind_of(t, "Params"), Syntax::Prelude);
  EXPECT_EQ(kind_of(t, "global_index"), Syntax::Prelude);
  EXPECT_EQ(kind_of(t, "grid_threads"), Syntax::Prelude);
  EXPECT_EQ(kind_of(t, "sample_inside"), Syntax::Prelude);
  // Whatever the prelude's namespace adds reads as the prelude's, unqualified names by the table.
  EXPECT_EQ(kind_of(t, "something_new"), Syntax::Prelude);
  EXPECT_EQ(kind_of(t, "global_index", t.find("global_index(); mine")), Syntax::Prelude);
  EXPECT_EQ(kind_of(t, "mine"), Syntax::Plain);
  EXPECT_EQ(kind_of(t, "out,"), Syntax::Plain);
  EXPECT_EQ(kind_of(t, "\"C\""), Syntax::String);
  EXPECT_EQ(kind_of(t, "{"), Syntax::Bracket);
  EXPECT_EQ(kind_of(t, "["), Syntax::Bracket);
  // Words that only contain a keyword are names.
  EXPECT_EQ(cv::code::classify_word("format"), Syntax::Plain);
  EXPECT_EQ(cv::code::classify_word("int"), Syntax::Type);
  EXPECT_EQ(cv::code::classify_word("int5"), Syntax::Plain);
  EXPECT_EQ(cv::code::classify_word("ulonglong2"), Syntax::Type);
}

TEST(CodeSyntax, NumbersWithTheirSuffixesAndExponents) {
  const std::string t = "a = 1.0f + 0x1F + 1e-3 + .5 + 2.5E+10f + 42ull + 0b101 + 1'000'000 + 0x1p-3;";
  for (const char* n : {"1.0f", "0x1F", "1e-3", ".5", "2.5E+10f", "42ull", "0b101", "1'000'000", "0x1p-3"})
    EXPECT_EQ(kind_of(t, n), Syntax::Number) << n;
  // The sign after a hex digit 'e' is an operator (0xE - 1), not an exponent.
  const std::string h = "0xE-1";
  const auto runs = highlight(h);
  ASSERT_GE(runs.size(), 3u);
  EXPECT_EQ(h.substr(runs[0].begin, runs[0].end - runs[0].begin), "0xE");
  // A name with digits is a name.
  EXPECT_EQ(kind_of("x1 = y2;", "x1"), Syntax::Plain);
}

TEST(CodeSyntax, CommentsIncludingBlockCommentsAcrossLines) {
  const std::string t =
      "int a; // int b \"not a string\"\n"
      "/* start\n   int c;\n end */ int d;\n"
      "x = 1 / 2; /**/ y;\n"
      "/* never closed\nint e;";
  EXPECT_EQ(kind_of(t, "// int b \"not a string\""), Syntax::Comment);
  EXPECT_EQ(kind_of(t, "/* start\n   int c;\n end */"), Syntax::Comment);
  EXPECT_EQ(kind_of(t, "int", t.find("int d")), Syntax::Type);
  EXPECT_EQ(kind_of(t, " / "), Syntax::Plain);
  EXPECT_EQ(kind_of(t, "/**/"), Syntax::Comment);
  EXPECT_EQ(kind_of(t, "y;"), Syntax::Plain);
  EXPECT_EQ(kind_of(t, "int e;"), Syntax::Comment);  // to the end of the text
}

TEST(CodeSyntax, StringsAndCharactersWithEscapes) {
  const std::string t =
      "printf(\"a \\\"quoted\\\" // no comment\\n\"); c = '\\''; d = 'x'; w = L\"wide\";\n"
      "r = R\"xy(raw \" // )\" still)xy\"; u = u8\"u\";\n"
      "bad = \"never closed\nint next;";
  EXPECT_EQ(kind_of(t, "\"a \\\"quoted\\\" // no comment\\n\""), Syntax::String);
  EXPECT_EQ(kind_of(t, "'\\''"), Syntax::Char);
  EXPECT_EQ(kind_of(t, "'x'"), Syntax::Char);
  EXPECT_EQ(kind_of(t, "L\"wide\""), Syntax::String);
  EXPECT_EQ(kind_of(t, "R\"xy(raw \" // )\" still)xy\""), Syntax::String);
  EXPECT_EQ(kind_of(t, "u8\"u\""), Syntax::String);
  // An unclosed string ends with its line; the next line is code again.
  EXPECT_EQ(kind_of(t, "\"never closed"), Syntax::String);
  EXPECT_EQ(kind_of(t, "int", t.find("int next")), Syntax::Type);
}

TEST(CodeSyntax, PreprocessorLinesWithContinuationsAndComments) {
  const std::string t =
      "#include <cuda_runtime.h>\n"
      "  #define BLOCK 256 // threads\n"
      "#define SQ(x) \\\n  ((x) * (x))\n"
      "int after; a # b;\n"
      "#include \"local.h\"\n";
  EXPECT_EQ(kind_of(t, "#include"), Syntax::Preprocessor);
  EXPECT_EQ(kind_of(t, "<cuda_runtime.h>"), Syntax::String);
  EXPECT_EQ(kind_of(t, "#define BLOCK 256 "), Syntax::Preprocessor);
  EXPECT_EQ(kind_of(t, "// threads"), Syntax::Comment);
  EXPECT_EQ(kind_of(t, "#define SQ(x) \\\n  ((x) * (x))"), Syntax::Preprocessor);
  EXPECT_EQ(kind_of(t, "int", t.find("int after")), Syntax::Type);
  EXPECT_EQ(kind_of(t, "# b"), Syntax::Plain);  // not at a line's start
  EXPECT_EQ(kind_of(t, "\"local.h\""), Syntax::String);
}

TEST(CodeSyntax, RunsInClipsToALine) {
  const std::string t = "/* a\nb */ int";
  const auto runs = highlight(t);
  const auto line2 = cv::code::runs_in(runs, 5, t.size());
  ASSERT_EQ(line2.size(), 3u);
  EXPECT_EQ(line2[0].begin, 5u);
  EXPECT_EQ(line2[0].end, 9u);
  EXPECT_EQ(line2[0].kind, Syntax::Comment);
  EXPECT_EQ(line2[2].kind, Syntax::Type);
  EXPECT_TRUE(cv::code::runs_in(runs, t.size(), t.size()).empty());
}

}  // namespace

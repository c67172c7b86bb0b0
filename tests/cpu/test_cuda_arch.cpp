// The architecture list -> code-for-this-GPU rules (kernels/common/cuda_arch.h)
// on every compute capability CUDA 13 supports, and this build's own list.
#include <gtest/gtest.h>

#include "common/arch_limits.h"
#include "common/cuda_arch.h"

using namespace cv;

namespace {

CodeMatch match(const std::string& list, int major, int minor) {
  auto t = parse_architectures(list);
  EXPECT_TRUE(t.has_value()) << list;
  return t ? code_for(*t, major, minor) : CodeMatch{};
}

}  // namespace

TEST(CudaArch, ParsesCMakeSyntax) {
  std::string err;
  auto t = parse_architectures("75-real;86;90a-real;75-virtual", &err);
  ASSERT_TRUE(t) << err;
  ASSERT_EQ(t->size(), 4u);
  EXPECT_TRUE((*t)[0].sass && !(*t)[0].ptx);
  EXPECT_TRUE((*t)[1].sass && (*t)[1].ptx);  // a bare number is SASS + PTX
  EXPECT_EQ((*t)[2].suffix, 'a');
  EXPECT_EQ((*t)[2].arch, 90);
  EXPECT_TRUE(!(*t)[3].sass && (*t)[3].ptx);
  EXPECT_FALSE(parse_architectures("native", &err));
  EXPECT_NE(err.find("native"), std::string::npos);
  EXPECT_FALSE(parse_architectures("86-fast", &err));
  EXPECT_FALSE(parse_architectures("", &err));
}

TEST(CudaArch, SassRunsOnLaterMinorsOfItsMajorOnly) {
  EXPECT_EQ(match("86-real", 8, 6).kind, CodeKind::Sass);
  EXPECT_EQ(match("86-real", 8, 7).kind, CodeKind::Sass);  // Jetson Orin
  EXPECT_EQ(match("86-real", 8, 9).kind, CodeKind::Sass);
  EXPECT_EQ(match("86-real", 8, 0).kind, CodeKind::None);  // older minor
  EXPECT_EQ(match("89-real", 9, 0).kind, CodeKind::None);  // the H100 with an Ada-only build
  EXPECT_EQ(match("90a-real", 9, 0).kind, CodeKind::Sass);
  EXPECT_EQ(match("100a-real", 10, 3).kind, CodeKind::None);  // arch-specific: exactly 10.0
  EXPECT_EQ(match("100f-real", 10, 3).kind, CodeKind::Sass);  // family: 10.x from 10.0
}

TEST(CudaArch, PtxJitsOnEveryNewerGpu) {
  const CodeMatch m = match("75-virtual", 9, 0);
  EXPECT_EQ(m.kind, CodeKind::Ptx);
  EXPECT_EQ(m.arch, 75);
  EXPECT_EQ(match("75-virtual", 12, 0).kind, CodeKind::Ptx);
  EXPECT_EQ(match("80-virtual", 7, 5).kind, CodeKind::None);  // PTX never runs on older GPUs
  EXPECT_EQ(match("90a-virtual", 10, 0).kind, CodeKind::None);
  // The driver prefers SASS; among SASS the newest that fits.
  const CodeMatch best = match("75-real;80-real;86-real;75-virtual", 8, 9);
  EXPECT_EQ(best.kind, CodeKind::Sass);
  EXPECT_EQ(best.arch, 86);
}

TEST(CudaArch, PortableSetCoversEveryFamilyWithSass) {
  // cmake/cuda_architectures.cmake's default without a GPU: SASS for every row of
  // the table, and compute_75 PTX for what comes after.
  const std::string portable =
      "75-real;80-real;86-real;89-real;90-real;100-real;120-real;75-virtual";
  for (const ArchLimits& a : arch_limits_table()) {
    const CodeMatch m = match(portable, a.cc_major, a.cc_minor);
    EXPECT_EQ(m.kind, CodeKind::Sass) << a.cc_major << "." << a.cc_minor;
  }
  EXPECT_EQ(match(portable, 11, 0).kind, CodeKind::Ptx);  // Jetson Thor: JIT from compute_75
  EXPECT_EQ(match(portable, 12, 1).kind, CodeKind::Sass);
  EXPECT_EQ(match("75", 7, 5).kind, CodeKind::Sass);  // the ci preset
}

TEST(CudaArch, DescriptionsAndFix) {
  EXPECT_EQ(describe(CodeMatch{CodeKind::Sass, 90}, "90"), "sm_90 SASS");
  EXPECT_NE(describe(CodeMatch{CodeKind::Ptx, 75}, "75-virtual").find("compute_75 PTX"),
            std::string::npos);
  EXPECT_EQ(describe(CodeMatch{}, "89-real"), "no code (built for 89-real)");
  EXPECT_NE(cmake_fix_line(8, 6).find("-DCMAKE_CUDA_ARCHITECTURES=86"), std::string::npos);
  EXPECT_NE(cmake_fix_line(12, 0).find("=120"), std::string::npos);
}

TEST(CudaArch, ThisBuildsListParses) {
  // The generated constant must be numbers (native/all resolved at configure time).
  std::string err;
  EXPECT_TRUE(parse_architectures(built_architectures(), &err))
      << built_architectures() << ": " << err;
  EXPECT_GE(built_runtime_version(), 13000);
}

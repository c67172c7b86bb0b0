// On a real GPU: the per-capability table (arch_limits.h) says what the device
// itself reports, and the run-time code check agrees with the prediction from
// this build's architecture list (a 75-virtual build JITs on the H100).
#include <gtest/gtest.h>

#include "common/arch_limits.h"
#include "common/cuda_arch.h"
#include "common/device_code.h"
#include "common/device_report.h"
#include "gpu_test_util.h"

using namespace cv;

TEST(PortabilityGpu, TableMatchesThisDevice) {
  CV_REQUIRE_GPU();
  const DeviceReport& d = device_report();
  ASSERT_TRUE(d.available) << d.unavailable_reason;
  const ArchLimits* a = find_arch_limits(d.cc_major, d.cc_minor);
  if (!a)
    GTEST_SKIP() << "compute capability " << d.cc_major << "." << d.cc_minor
                 << " is not in the table";
  EXPECT_EQ(d.max_threads_per_sm, a->max_threads_per_sm);
  EXPECT_EQ(d.max_blocks_per_sm, a->max_blocks_per_sm);
  EXPECT_EQ(d.regs_per_sm, a->regs_per_sm);
  EXPECT_EQ(d.regs_per_block, a->regs_per_block);
  EXPECT_EQ(d.shared_per_sm, a->shared_per_sm);
  EXPECT_EQ(d.shared_per_block, a->shared_per_block);
  EXPECT_EQ(d.shared_per_block_optin, a->shared_per_block_optin);
  EXPECT_EQ(d.reserved_shared_per_block, a->reserved_shared_per_block);
}

TEST(PortabilityGpu, RunTimeCodeCheckAgreesWithTheArchitectureList) {
  CV_REQUIRE_GPU();
  const DeviceInfo& d = device_info();
  const auto built = parse_architectures(built_architectures());
  ASSERT_TRUE(built) << built_architectures();
  const CodeMatch predicted = code_for(*built, d.cc_major, d.cc_minor);
  const DeviceCode c = probe_device_code();
  ASSERT_TRUE(c.ok) << c.error;  // CV_REQUIRE_GPU passed, so the code check did too
  ASSERT_NE(predicted.kind, CodeKind::None);
  if (predicted.kind == CodeKind::Ptx) {
    EXPECT_EQ(c.ptx_version, predicted.arch);  // JIT-compiled from this PTX
    EXPECT_EQ(c.binary_version, d.cc_major * 10 + d.cc_minor);
  } else {
    EXPECT_EQ(c.binary_version, predicted.arch);
  }
  std::printf("code for %s (cc %d.%d): %s; binaryVersion %d, ptxVersion %d\n", d.name.c_str(),
              d.cc_major, d.cc_minor, describe(predicted, built_architectures()).c_str(),
              c.binary_version, c.ptx_version);
}

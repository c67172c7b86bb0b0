// Counts checked against a GPU's free memory before allocating (memory_fit.h).
#include <gtest/gtest.h>

#include "common/memory_fit.h"

using namespace cv;

TEST(MemoryFit, Headroom) {
  EXPECT_EQ(memory_headroom(1ll << 30), 256ll << 20);         // small GPU: 256 MiB floor
  EXPECT_EQ(memory_headroom(80ll << 30), (80ll << 30) / 10);  // big GPU: 10%
}

TEST(MemoryFit, LaptopGpuFitsTheUsualCounts) {
  // A 4 GB laptop GPU with the desktop running: about 3.2 GiB free.
  const long long free_bytes = 3200ll << 20;
  const MemoryFit f = fit_count(16ll << 20, 36, free_bytes, "particles", "RTX 3050 Laptop");
  EXPECT_TRUE(f.fits);
  EXPECT_EQ(f.max_count, 16ll << 20);
  EXPECT_TRUE(f.message.empty());
}

TEST(MemoryFit, RefusalNamesTheLimit) {
  const long long free_bytes = 3200ll << 20;
  const MemoryFit f = fit_count(64ll << 20, 80, free_bytes, "particles", "RTX 3050 Laptop");
  EXPECT_FALSE(f.fits);
  const long long usable =
      free_bytes - (free_bytes / 10 > (256ll << 20) ? free_bytes / 10 : 256ll << 20);
  EXPECT_EQ(f.usable_bytes, usable);
  EXPECT_EQ(f.max_count, usable / 80);
  EXPECT_EQ(f.need_bytes, (64ll << 20) * 80);
  EXPECT_NE(f.message.find("67108864 particles need 5.00 GiB"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("RTX 3050 Laptop has 3.12 GiB free"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("at most " + std::to_string(usable / 80) + " particles"),
            std::string::npos);
  // The limit itself fits; one more does not.
  EXPECT_TRUE(fit_count(f.max_count, 80, free_bytes, "particles", "x").fits);
  EXPECT_FALSE(fit_count(f.max_count + 1, 80, free_bytes, "particles", "x").fits);
}

TEST(MemoryFit, NothingFree) {
  const MemoryFit f = fit_count(1, 16, 100ll << 20, "bodies", "tiny");
  EXPECT_FALSE(f.fits);
  EXPECT_EQ(f.max_count, 0);
}

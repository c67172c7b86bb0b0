#include <gtest/gtest.h>

#include "common/block_shape.h"

using cv::BlockLimits;
using cv::BlockShape;

TEST(BlockShape, CudaRulesAcceptTypicalShapes) {
  for (BlockShape b : {BlockShape{1, 1, 1}, BlockShape{16, 16, 1}, BlockShape{1024, 1, 1},
                       BlockShape{1, 1024, 1}, BlockShape{8, 8, 16}, BlockShape{7, 13, 1}})
    EXPECT_FALSE(cv::validate(b)) << cv::to_string(b);
}

TEST(BlockShape, RefusesWithValueAndLimit) {
  auto e = cv::validate(BlockShape{64, 32, 1});
  ASSERT_TRUE(e);
  EXPECT_NE(e->find("2048"), std::string::npos);
  EXPECT_NE(e->find("1024"), std::string::npos);
  e = cv::validate(BlockShape{0, 1, 1});
  ASSERT_TRUE(e);
  EXPECT_NE(e->find("at least 1"), std::string::npos);
  e = cv::validate(BlockShape{1, 1, 65});
  ASSERT_TRUE(e);
  EXPECT_NE(e->find("64"), std::string::npos);
  EXPECT_TRUE(cv::validate(BlockShape{2048, 1, 1}));
  EXPECT_TRUE(cv::validate(BlockShape{-4, 1, 1}));
}

TEST(BlockShape, DeviceLimitsAndSharedMemory) {
  BlockLimits small;
  small.max_threads_per_block = 512;
  EXPECT_TRUE(cv::validate(BlockShape{32, 32, 1}, small));
  EXPECT_FALSE(cv::validate(BlockShape{32, 16, 1}, small));
  auto e = cv::validate(BlockShape{256, 1, 1}, BlockLimits{}, 64 * 1024);
  ASSERT_TRUE(e);
  EXPECT_NE(e->find("shared memory"), std::string::npos);
}

TEST(BlockShape, Parses) {
  std::string err;
  auto b = cv::parse_block_shape("32,8", &err);
  ASSERT_TRUE(b);
  EXPECT_EQ(*b, (BlockShape{32, 8, 1}));
  b = cv::parse_block_shape("8x8x4", &err);
  ASSERT_TRUE(b);
  EXPECT_EQ(*b, (BlockShape{8, 8, 4}));
  b = cv::parse_block_shape("256", &err);
  ASSERT_TRUE(b);
  EXPECT_EQ(*b, (BlockShape{256, 1, 1}));
  for (const char* bad : {"", "x", "16,", ",16", "16,,16", "a,b", "1,2,3,4", "16;16", "99999999999999999999"}) {
    err.clear();
    EXPECT_FALSE(cv::parse_block_shape(bad, &err)) << bad;
    EXPECT_FALSE(err.empty()) << bad;
  }
  b = cv::parse_block_shape("-4,2", &err);  // parses; validate() refuses it
  ASSERT_TRUE(b);
  EXPECT_TRUE(cv::validate(*b));
}

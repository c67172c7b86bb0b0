// Every GPU 3SUM variant equals the CPU count exactly, over several block
// shapes including odd ones, on small-range, full-range and edge data.
#include <gtest/gtest.h>

#include <climits>
#include <vector>

#include "common/cuda_resources.h"
#include "gpu_test_util.h"
#include "labs/sum3/sum3.h"

namespace {

using namespace cv::sum3;

const std::vector<cv::BlockShape> kShapes{{1, 1, 1},  {7, 13, 1}, {16, 16, 1},
                                          {32, 8, 1}, {33, 1, 1}, {16, 32, 1}};
const std::vector<Variant> kGpu{Variant::Naive, Variant::Hoisted, Variant::Shared, Variant::Fast,
                                Variant::Sorted};

uint64_t gpu_count(Sum3Gpu& g, Variant v, const cv::BlockShape& b) {
  cv::CudaStream s;
  g.run(v, b, s.get());
  return g.result(s.get());
}

void check_all(const std::vector<int32_t>& data, const char* what,
               const std::vector<cv::BlockShape>& shapes = kShapes) {
  const uint64_t ref = count_cpu_sorted(data.data(), data.size());
  ASSERT_EQ(ref, count_cpu(data.data(), data.size())) << what;
  Sum3Gpu g(data.data(), data.size());
  for (const auto& b : shapes)
    for (Variant v : kGpu)
      EXPECT_EQ(gpu_count(g, v, b), ref) << what << " " << to_string(v) << " " << cv::to_string(b);
}

TEST(Sum3Gpu, DefaultDataAllVariantsAllShapes) {
  CV_REQUIRE_GPU();
  // Sanitizer run: not 800 (the brute force is cubic: 800 alone is 96% of the work).
  const std::vector<size_t> sizes = cv::sanitizer_run()
                                        ? std::vector<size_t>{3, 4, 31, 100, 257}
                                        : std::vector<size_t>{3, 4, 31, 100, 257, 800};
  for (size_t n : sizes) check_all(make_data(n), "default data");
}

TEST(Sum3Gpu, FullInt32RangeAndTinyRange) {
  CV_REQUIRE_GPU();
  check_all(make_data(600, INT32_MIN, INT32_MAX, 5), "full range");
  check_all(make_data(600, -3, 3, 11), "tiny range");
}

TEST(Sum3Gpu, EdgeData) {
  CV_REQUIRE_GPU();
  check_all({}, "empty");
  check_all({0, 0}, "two");
  check_all(std::vector<int32_t>(400, 0), "zeros");
  check_all({INT32_MAX, INT32_MAX, 2, INT32_MIN, INT32_MIN, 0, 1, -1, INT32_MAX, INT32_MIN + 1},
            "wraps in 32 bits");
  std::vector<int32_t> v;
  for (int i = 0; i < 300; ++i) v.push_back(i % 3 == 0 ? INT32_MIN : (i % 3 == 1 ? INT32_MAX : 1));
  check_all(v, "min/max/1 repeated");
}

TEST(Sum3Gpu, LargerDataFastAndSorted) {
  CV_REQUIRE_GPU();
  // Sanitizer run: the O(n^3) fast kernel over 5000 values took racecheck past
  // 300 s; 1500 is 1/37 of the triples and still many blocks and tiles.
  const auto data = make_data(cv::sanitizer_run() ? 1500 : 5000);
  const uint64_t ref = count_cpu_sorted(data.data(), data.size());
  Sum3Gpu g(data.data(), data.size());
  for (const auto& b : {cv::BlockShape{16, 16, 1}, {128, 1, 1}, {1024, 1, 1}, {7, 13, 1}}) {
    EXPECT_EQ(gpu_count(g, Variant::Fast, b), ref) << cv::to_string(b);
    EXPECT_EQ(gpu_count(g, Variant::Sorted, b), ref) << cv::to_string(b);
  }
  EXPECT_EQ(gpu_count(g, Variant::Shared, {16, 16, 1}), ref);
}

TEST(Sum3Gpu, SortedOnHundredThousandArbitraryValues) {
  CV_REQUIRE_GPU();
  const size_t n = cv::sanitizer_run() ? 20000 : 100000;  // sanitizer run: 1/25 of the pairs
  const auto data = make_data(n, INT32_MIN, INT32_MAX, 77);
  Sum3Gpu g(data.data(), data.size());
  EXPECT_EQ(gpu_count(g, Variant::Sorted, {256, 1, 1}), count_cpu_sorted(data.data(), data.size()));
  const auto small = make_data(n, -1000, 1000, 78);
  Sum3Gpu h(small.data(), small.size());
  EXPECT_EQ(gpu_count(h, Variant::Sorted, {128, 1, 1}),
            count_cpu_sorted(small.data(), small.size()));
}

TEST(Sum3Gpu, BadShapesAreRefusedClearly) {
  CV_REQUIRE_GPU();
  const auto data = make_data(100);
  Sum3Gpu g(data.data(), data.size());
  cv::CudaStream s;
  EXPECT_THROW(g.run(Variant::Naive, {64, 32, 1}, s.get()), std::invalid_argument);  // 2048 threads
  EXPECT_THROW(g.run(Variant::Shared, {8, 8, 2}, s.get()), std::invalid_argument);   // not 2D
  EXPECT_THROW(g.run(Variant::Cpu, {16, 16, 1}, s.get()), std::invalid_argument);
  const auto big = make_data(70000);
  Sum3Gpu h(big.data(), big.size());
  try {
    h.run(Variant::Naive, {1024, 1, 1}, s.get());  // 70000 blocks in y
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("65535"), std::string::npos) << e.what();
  }
}

}  // namespace

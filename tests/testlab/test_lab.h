#pragma once
// The test-only lab's names (tests/testlab/test_lab.cpp), for its tests.
namespace cv::testlab {

constexpr const char* kName = "testlab";
constexpr const char* kCounts = "terms";
constexpr const char* kAction = "twice";
constexpr const char* kNotice = "A lab that exists only in the tests.";
constexpr const char* kWrongNote = "off by one on purpose";
constexpr const char* kPictureTitle = "testlab picture";
constexpr long long kDefaultN = 1000;
constexpr long long kMaxN = 1ll << 24;

}  // namespace cv::testlab

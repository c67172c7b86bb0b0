// The lab data-set parser: good files in their usual shapes, and every kind of
// bad file producing an std::invalid_argument that names the file and why.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "common/int_file.h"

namespace {

class IntFile : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/cv_int_file_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (const auto& p : written_) std::remove(p.c_str());
    rmdir(dir_.c_str());
  }
  std::string write(const std::string& name, const std::string& bytes) {
    const std::string path = dir_ + "/" + name;
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    written_.push_back(path);
    return path;
  }
  // The message of the invalid_argument thrown by `fn`, or "" (and a failure) if none.
  template <typename Fn>
  std::string error_of(Fn fn) {
    try {
      fn();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    ADD_FAILURE() << "no std::invalid_argument thrown";
    return "";
  }
  std::string dir_;
  std::vector<std::string> written_;
};

TEST_F(IntFile, ReadsSignedValuesAcrossLinesAndSpaces) {
  const auto p = write("good.txt", "1 -2\t+3\n\n  -0 007\n");
  EXPECT_EQ(cv::read_int_file(p), (std::vector<int32_t>{1, -2, 3, 0, 7}));
}

TEST_F(IntFile, CrlfAndTrailingWhitespaceAndNoFinalNewline) {
  const auto p = write("crlf.txt", "10\r\n-20 \r\n30\t \r\n40");
  EXPECT_EQ(cv::read_int_file(p), (std::vector<int32_t>{10, -20, 30, 40}));
}

TEST_F(IntFile, Int32ExtremesAreExact) {
  const auto p = write("ext.txt", "-2147483648 2147483647 -2147483647\n");
  EXPECT_EQ(cv::read_int_file(p), (std::vector<int32_t>{INT32_MIN, INT32_MAX, -INT32_MAX}));
}

TEST_F(IntFile, SkipsUtf8ByteOrderMark) {
  const auto p = write("bom.txt", "\xEF\xBB\xBF" "5 6\n");
  EXPECT_EQ(cv::read_int_file(p), (std::vector<int32_t>{5, 6}));
}

TEST_F(IntFile, TokenStraddlingChunkBoundaryIsWhole) {
  // The reader streams 1 MiB chunks: put a number across the first boundary.
  std::string s(1048576 - 3, ' ');
  s += "123456 -7\n";
  const auto p = write("straddle.txt", s);
  EXPECT_EQ(cv::read_int_file(p), (std::vector<int32_t>{123456, -7}));
}

TEST_F(IntFile, MissingFileNamesFileAndReason) {
  const std::string p = dir_ + "/nope.txt";
  const std::string msg = error_of([&] { cv::read_int_file(p); });
  EXPECT_NE(msg.find("cannot open '" + p + "'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("No such file or directory"), std::string::npos) << msg;
}

TEST_F(IntFile, DirectoryIsRefused) {
  const std::string msg = error_of([&] { cv::read_int_file(dir_); });
  EXPECT_NE(msg.find("directory"), std::string::npos) << msg;
}

TEST_F(IntFile, UnreadableFileNamesReason) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads files regardless of permissions";
  const auto p = write("locked.txt", "1 2 3\n");
  ASSERT_EQ(chmod(p.c_str(), 0), 0);
  const std::string msg = error_of([&] { cv::read_int_file(p); });
  EXPECT_NE(msg.find("Permission denied"), std::string::npos) << msg;
}

TEST_F(IntFile, EmptyAndWhitespaceOnlyFilesHoldNoNumbers) {
  for (const char* body : {"", " \n\r\n\t"}) {
    const auto p = write("empty.txt", body);
    const std::string msg = error_of([&] { cv::read_int_file(p); });
    EXPECT_NE(msg.find("holds no numbers"), std::string::npos) << msg;
    EXPECT_NE(msg.find(p), std::string::npos) << msg;
  }
}

TEST_F(IntFile, NonNumericTokenGivesLineAndToken) {
  const auto p = write("word.txt", "1 2\n3 abc 4\n");
  const std::string msg = error_of([&] { cv::read_int_file(p); });
  EXPECT_NE(msg.find("line 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\"abc\""), std::string::npos) << msg;
  EXPECT_NE(msg.find(p), std::string::npos) << msg;
}

TEST_F(IntFile, MalformedNumbersAreRejected) {
  for (const char* tok : {"-", "+", "1-2", "--3", "1e5", "0x10", "3.0", "1,2"}) {
    const auto p = write("bad.txt", std::string("7 ") + tok + "\n");
    const std::string msg = error_of([&] { cv::read_int_file(p); });
    EXPECT_NE(msg.find("is not a decimal integer"), std::string::npos) << tok << ": " << msg;
  }
}

TEST_F(IntFile, LongTokenIsTruncatedInMessage) {
  const auto p = write("long.txt", "1\n" + std::string(500, 'x') + "\n");
  const std::string msg = error_of([&] { cv::read_int_file(p); });
  EXPECT_NE(msg.find("line 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("..."), std::string::npos) << msg;
  EXPECT_LT(msg.size(), 200u) << msg;
}

TEST_F(IntFile, OutOfRangeValuesGiveLineAndValue) {
  for (const char* tok : {"2147483648", "-2147483649", "99999999999999999999999"}) {
    const auto p = write("range.txt", std::string("0\n0\n") + tok + "\n");
    const std::string msg = error_of([&] { cv::read_int_file(p); });
    EXPECT_NE(msg.find("line 3"), std::string::npos) << msg;
    EXPECT_NE(msg.find("outside the int32 range"), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::string(tok).substr(0, 10)), std::string::npos) << msg;
  }
}

TEST_F(IntFile, BinaryGarbageIsRefused) {
  const auto p = write("bin.dat", std::string("12 34\n5\0\x01\x02", 9));
  const std::string msg = error_of([&] { cv::read_int_file(p); });
  EXPECT_NE(msg.find("binary data"), std::string::npos) << msg;
  EXPECT_NE(msg.find("line 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("0x00"), std::string::npos) << msg;
}

TEST_F(IntFile, NonAsciiBytesShowAsEscapedToken) {
  const auto p = write("utf8.txt", "1 2\xC3\xA9\n");
  const std::string msg = error_of([&] { cv::read_int_file(p); });
  EXPECT_NE(msg.find("not a decimal integer"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\\xc3"), std::string::npos) << msg;
}

TEST_F(IntFile, TooManyValuesIsRefused) {
  const auto p = write("many.txt", "1 2 3\n4 5\n");
  EXPECT_EQ(cv::read_int_file(p, 5).size(), 5u);
  const std::string msg = error_of([&] { cv::read_int_file(p, 4); });
  EXPECT_NE(msg.find("more than 4 values"), std::string::npos) << msg;
  EXPECT_NE(msg.find("line 2"), std::string::npos) << msg;
}

TEST_F(IntFile, HugeFileIsRefusedBeforeReading) {
  // A sparse file: its size says 5 GiB, it occupies no disk.
  const auto p = write("huge.txt", "");
  ASSERT_EQ(truncate(p.c_str(), 5ll << 30), 0);
  const std::string msg = error_of([&] { cv::read_int_file(p); });
  EXPECT_NE(msg.find("refused"), std::string::npos) << msg;
  EXPECT_NE(msg.find("5.0 GiB"), std::string::npos) << msg;
  // The byte limit is adjustable, e.g. for the UI's file picker.
  const auto small = write("small.txt", "1 2 3 4 5 6\n");
  cv::IntFileLimits lim;
  lim.max_bytes = 8;
  EXPECT_THROW(cv::read_int_file(small, lim), std::invalid_argument);
}

TEST_F(IntFile, RowsFollowLinesAndSkipBlankOnes) {
  const auto p = write("rows.txt", "1 2 3\r\n\n  \n4\n5 6 \n");
  const cv::IntRows r = cv::read_int_rows(p);
  ASSERT_EQ(r.rows(), 3u);
  EXPECT_EQ(r.values, (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(r.offsets, (std::vector<size_t>{0, 3, 4, 6}));
}

TEST_F(IntFile, RowsLastLineWithoutNewline) {
  const auto p = write("rows2.txt", "7 8\n9");
  const cv::IntRows r = cv::read_int_rows(p);
  EXPECT_EQ(r.offsets, (std::vector<size_t>{0, 2, 3}));
}

TEST_F(IntFile, RowsShareTheErrorStyle) {
  const auto p = write("rows_bad.txt", "1 2\n3 x4\n");
  const std::string msg = error_of([&] { cv::read_int_rows(p); });
  EXPECT_NE(msg.find("line 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\"x4\""), std::string::npos) << msg;
  const auto e = write("rows_empty.txt", "\n\n");
  EXPECT_NE(error_of([&] { cv::read_int_rows(e); }).find("holds no numbers"), std::string::npos);
}

}  // namespace

// write_file_atomically: whole files or nothing, and errors that name the path.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/atomic_file.h"

namespace fs = std::filesystem;
using cv::read_file;
using cv::write_file_atomically;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("cudaviz_atomic_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
  size_t entries() const {
    return static_cast<size_t>(
        std::distance(fs::directory_iterator(path), fs::directory_iterator()));
  }
};

std::string error_of(const std::string& path, const std::string& bytes) {
  try {
    write_file_atomically(path, bytes);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(AtomicFile, WritesAndReplacesWholeFiles) {
  TempDir d;
  const std::string p = (d.path / "out.csv").string();
  write_file_atomically(p, "a,b\n1,2\n");
  EXPECT_EQ(read_file(p), "a,b\n1,2\n");
  write_file_atomically(p, "new");
  EXPECT_EQ(read_file(p), "new");
  write_file_atomically(p, "");
  EXPECT_EQ(read_file(p), "");
  EXPECT_EQ(d.entries(), 1u) << "no temporary left beside the file";
}

TEST(AtomicFile, MissingDirectoryFailsNamingPathAndErrno) {
  TempDir d;
  const std::string p = (d.path / "no" / "such" / "dir" / "x.png").string();
  const std::string e = error_of(p, "data");
  EXPECT_NE(e.find("'" + p + "'"), std::string::npos) << e;
  EXPECT_NE(e.find("No such file or directory"), std::string::npos) << e;
  EXPECT_EQ(d.entries(), 0u);
}

TEST(AtomicFile, ParentThatIsAFileFailsAndLeavesNothing) {
  TempDir d;
  const std::string blocker = (d.path / "plain").string();
  write_file_atomically(blocker, "I am a file");
  const std::string e = error_of(blocker + "/x.json", "data");
  EXPECT_NE(e.find("Not a directory"), std::string::npos) << e;
  EXPECT_EQ(read_file(blocker), "I am a file");
  EXPECT_EQ(d.entries(), 1u);
}

TEST(AtomicFile, ReadOnlyDirectoryKeepsTheOldFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into read-only directories";
  TempDir d;
  const std::string p = (d.path / "keep.json").string();
  write_file_atomically(p, "old");
  fs::permissions(d.path, fs::perms::owner_read | fs::perms::owner_exec);
  const std::string e = error_of(p, "new content");
  fs::permissions(d.path, fs::perms::owner_all);
  EXPECT_NE(e.find("Permission denied"), std::string::npos) << e;
  EXPECT_EQ(read_file(p), "old");
  EXPECT_EQ(d.entries(), 1u);
}

TEST(AtomicFile, ExistingTargetThatIsADirectoryIsNotReplaced) {
  TempDir d;
  fs::create_directories(d.path / "target");
  const std::string e = error_of((d.path / "target").string(), "x");
  EXPECT_FALSE(e.empty());
  EXPECT_TRUE(fs::is_directory(d.path / "target"));
  EXPECT_EQ(d.entries(), 1u) << "the temporary was removed";
}

TEST(AtomicFile, LargeContentArrivesWhole) {
  TempDir d;
  std::string big(8 << 20, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 131);
  const std::string p = (d.path / "big.bin").string();
  write_file_atomically(p, big);
  EXPECT_EQ(read_file(p), big);
}

TEST(AtomicFile, ReadFileNamesMissingFiles) {
  try {
    read_file("/nonexistent/cudaviz.json");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read '/nonexistent/cudaviz.json'"),
              std::string::npos)
        << e.what();
  }
}

TEST(AtomicFile, ReadFileRefusesFilesOverItsLimitBeforeReading) {
  TempDir d;
  const fs::path p = d.path / "huge.json";
  { std::ofstream(p.string()).put('x'); }
  fs::resize_file(p, 64ull << 20);  // sparse: costs no disk
  try {
    read_file(p.string(), 16u << 20);
    FAIL();
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(p.string()), std::string::npos) << m;
    EXPECT_NE(m.find("67108864 bytes is over the limit of 16777216"), std::string::npos) << m;
  }
}

// The plain helpers for private build folders (the student's source, the compiler's log).
TEST(AtomicFile, PlainWriteReplacesAndReadOrEmptyNeverThrows) {
  TempDir d;
  const std::string p = (d.path / "kernel.cpp").string();
  cv::write_file(p, "first, longer text");
  cv::write_file(p, "second");
  EXPECT_EQ(read_file(p), "second");  // truncated, not overwritten in part
  EXPECT_EQ(cv::read_file_or_empty(p), "second");
  EXPECT_EQ(cv::read_file_or_empty((d.path / "no-log").string()), "");
  EXPECT_EQ(cv::read_file_or_empty(d.path.string()), "");  // a directory
  try {
    cv::write_file((d.path / "missing" / "x").string(), "x");
    ADD_FAILURE() << "a write into a missing directory succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write '" + (d.path / "missing" / "x").string() + "'"),
              std::string::npos)
        << e.what();
  }
}

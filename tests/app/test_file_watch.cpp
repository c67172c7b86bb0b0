// Reload when the file changes on disk (io/file_watch.h): the state machine's
// every path, and real stamps from a file rewritten in place and renamed over.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "io/atomic_file.h"
#include "io/file_watch.h"

using cv::DiskChange;
using cv::FileStamp;
using cv::FileWatch;
namespace fs = std::filesystem;

namespace {
FileStamp stamp(int64_t t, int64_t size = 10) {
  FileStamp s;
  s.exists = true;
  s.mtime_ns = t;
  s.size = size;
  s.inode = 7;
  return s;
}
}  // namespace

TEST(FileWatch, PollsOncePerPeriod) {
  FileWatch w(1.0);
  EXPECT_TRUE(w.due(100.0));
  EXPECT_FALSE(w.due(100.5));
  EXPECT_TRUE(w.due(101.0));
  EXPECT_FALSE(w.due(101.9));
}

TEST(FileWatch, UnchangedIsNothingChangedCleanReloads) {
  FileWatch w;
  w.known(stamp(1));
  EXPECT_EQ(w.poll(stamp(1), false), DiskChange::None);
  EXPECT_EQ(w.poll(stamp(1), true), DiskChange::None);
  EXPECT_EQ(w.poll(stamp(2), false), DiskChange::Reload);
  EXPECT_EQ(w.poll(stamp(1, 11), false), DiskChange::Reload);  // same time, other size
}

TEST(FileWatch, UnsavedEditsAskOncePerChange) {
  FileWatch w;
  w.known(stamp(1));
  EXPECT_EQ(w.poll(stamp(2), true), DiskChange::Ask);
  EXPECT_TRUE(w.asking());
  EXPECT_EQ(w.poll(stamp(2), true), DiskChange::None);  // still asking: not again
  EXPECT_EQ(w.poll(stamp(3), true), DiskChange::Ask);   // changed again while asking
  w.keep_mine();
  EXPECT_FALSE(w.asking());
  EXPECT_EQ(w.poll(stamp(3), true), DiskChange::None);  // the change the user declined
  EXPECT_EQ(w.poll(stamp(4), true), DiskChange::Ask);   // a newer one asks again
  // The user chose the disk: the caller reloads and records it.
  w.known(stamp(4));
  EXPECT_FALSE(w.asking());
  EXPECT_EQ(w.poll(stamp(4), false), DiskChange::None);
}

TEST(FileWatch, GoneIsSaidOnceAndAReturnIsAChange) {
  FileWatch w;
  w.known(stamp(1));
  EXPECT_EQ(w.poll(FileStamp{}, true), DiskChange::Gone);
  EXPECT_EQ(w.poll(FileStamp{}, true), DiskChange::None);
  EXPECT_EQ(w.poll(stamp(5), false), DiskChange::Reload);
}

TEST(FileWatch, RealStampsSeeRewritesAndRenames) {
  const fs::path dir = fs::temp_directory_path() / ("cudaviz_watch_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string p = (dir / "k.cu").string();
  EXPECT_FALSE(cv::stamp_of(p).exists);
  { std::ofstream(p) << "first"; }
  const FileStamp a = cv::stamp_of(p);
  ASSERT_TRUE(a.exists);
  EXPECT_EQ(a.size, 5);
  { std::ofstream(p) << "second!"; }  // in place: the size differs
  const FileStamp b = cv::stamp_of(p);
  EXPECT_NE(a, b);
  cv::write_file_atomically(p, "second!");  // renamed over: a new inode, same size
  const FileStamp c = cv::stamp_of(p);
  EXPECT_NE(b.inode, c.inode);
  EXPECT_NE(b, c);
  fs::remove_all(dir);
}

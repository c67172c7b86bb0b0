// The kernel editor's document (ui/kernel_source.h) against real files: open,
// save, reload when another editor saves, the question under unsaved edits,
// and the files it refuses. The clock is passed in, so no test waits.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "io/atomic_file.h"
#include "ui/kernel_source.h"

namespace fs = std::filesystem;

namespace {

class KernelSourceFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("cudaviz_ksrc_" + std::to_string(::getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
    path = (dir / "k.cu").string();
  }
  void TearDown() override { fs::remove_all(dir); }
  void write(const std::string& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }
  std::string read(const std::string& p) { return cv::read_file(p); }

  fs::path dir;
  std::string path;
  cv::KernelSource src;
  double now = 1000;  // seconds; each watch() call below is a second later
  bool tick() { return src.watch(now += 1.0); }
};

TEST_F(KernelSourceFiles, OpenSaveAndCleanReload) {
  write(path, "// template: pi\nint a;\n");
  ASSERT_FALSE(src.open(path).has_value());
  EXPECT_EQ(src.text(), "// template: pi\nint a;\n");
  EXPECT_FALSE(src.dirty());
  EXPECT_EQ(src.file_name(), "k.cu");
  EXPECT_FALSE(tick());  // nothing changed
  cv::write_file_atomically(path, "// template: pi\nint b;\n");  // another editor saves
  EXPECT_TRUE(tick());
  EXPECT_EQ(src.text(), "// template: pi\nint b;\n");
  EXPECT_FALSE(src.dirty());
  EXPECT_FALSE(tick());  // reloaded once, not every second
  // Undo brings back the text before the reload.
  EXPECT_TRUE(src.editor().undo());
  EXPECT_EQ(src.text(), "// template: pi\nint a;\n");
}

TEST_F(KernelSourceFiles, UnsavedEditsAreNeverReplacedWithoutAsking) {
  write(path, "v1\n");
  ASSERT_FALSE(src.open(path).has_value());
  src.editor().set_text("my edits\n");
  EXPECT_TRUE(src.dirty());
  write(path, "v2 from elsewhere\n");
  EXPECT_FALSE(tick());
  EXPECT_TRUE(src.asking());
  EXPECT_EQ(src.text(), "my edits\n");
  EXPECT_FALSE(tick());  // still asking, still mine
  EXPECT_EQ(src.text(), "my edits\n");
  src.keep_mine();
  EXPECT_FALSE(src.asking());
  EXPECT_FALSE(tick());
  // Saving writes mine over the file, and the save is not seen as a change.
  ASSERT_FALSE(src.save().has_value());
  EXPECT_EQ(read(path), "my edits\n");
  EXPECT_FALSE(src.dirty());
  EXPECT_FALSE(tick());
  EXPECT_FALSE(src.asking());
}

TEST_F(KernelSourceFiles, TakingTheDiskVersionIsUndoable) {
  write(path, "v1\n");
  ASSERT_FALSE(src.open(path).has_value());
  src.editor().set_text("mine\n");
  write(path, "v2 longer\n");
  tick();
  ASSERT_TRUE(src.asking());
  EXPECT_TRUE(src.take_disk_version());
  EXPECT_EQ(src.text(), "v2 longer\n");
  EXPECT_FALSE(src.dirty());
  EXPECT_FALSE(src.asking());
  EXPECT_TRUE(src.editor().undo());
  EXPECT_EQ(src.text(), "mine\n");
}

TEST_F(KernelSourceFiles, RefusesBinaryAndHugeFilesKeepingTheText) {
  src.editor().set_text("kept\n");
  const std::string bin = (dir / "blob.cu").string();
  write(bin, std::string("ab\0cd", 5));
  auto err = src.open(bin);
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->find("binary data"), std::string::npos) << *err;
  EXPECT_NE(err->find("offset 2"), std::string::npos) << *err;
  const std::string big = (dir / "big.cu").string();
  write(big, std::string(10 << 20, 'x'));
  err = src.open(big);
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->find(big), std::string::npos) << *err;
  err = src.open((dir / "missing.cu").string());
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(src.text(), "kept\n");
}

TEST_F(KernelSourceFiles, TemplatesNeverSaveOverTheOpenFile) {
  write(path, "the student's file\n");
  ASSERT_FALSE(src.open(path).has_value());
  src.start_from("// template: pi\n", "my_pi.cu");
  EXPECT_TRUE(src.path().empty());
  EXPECT_EQ(src.file_name(), "kernel.cu");
  auto err = src.save();  // no path yet: says so
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->find("no file name"), std::string::npos);
  EXPECT_EQ(read(path), "the student's file\n");
  const std::string mine = (dir / "my_pi.cu").string();
  ASSERT_FALSE(src.save(mine).has_value());
  EXPECT_EQ(read(mine), "// template: pi\n");
  EXPECT_EQ(src.path(), mine);
}

TEST_F(KernelSourceFiles, ADeletedFileIsSaidOnceAndSaveWritesItAgain) {
  write(path, "x\n");
  ASSERT_FALSE(src.open(path).has_value());
  fs::remove(path);
  EXPECT_FALSE(tick());
  EXPECT_NE(src.note().find("deleted or moved"), std::string::npos) << src.note();
  EXPECT_EQ(src.text(), "x\n");
  ASSERT_FALSE(src.save().has_value());
  EXPECT_EQ(read(path), "x\n");
  EXPECT_FALSE(tick());
}

}  // namespace

// The recorder's GL side and its state machine with a real GL context (run
// under Xvfb) and the real ffmpeg: the PBO ring hands out every frame once, in
// order, bottom row first; the recorder reads only at the stage it was asked
// for, refuses a second clip, and ends a clip whose window changed size with
// the frames so far saved and a note.
#include <glad/gl.h>  // before GLFW
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gl/pixel_readback.h"
#include "record/recorder.h"

namespace fs = std::filesystem;
using cv::record::Recorder;
using cv::record::RecordState;

#include "../test_config.h"
#include "hidden_window.h"

namespace {


// Frame i: the bottom half red = i, the top half green = 200 (a top/bottom the
// read must keep apart).
void draw_frame(int i, int w, int h) {
  glDisable(GL_SCISSOR_TEST);
  glClearColor(static_cast<float>(i) / 255.f, 0.f, 0.f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, h / 2, w, h - h / 2);
  glClearColor(0.f, 200.f / 255.f, 0.f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
}

std::string scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("cudaviz_recorder_" + std::to_string(getpid()));
  fs::create_directories(dir);
  return (dir / name).string();
}

}  // namespace

TEST(PboRing, EveryFrameOnceInOrderBottomRowFirst) {
  HiddenWindow win("record");
  if (!win.w) GTEST_SKIP() << "no GL context (no display)";
  constexpr int kW = 32, kH = 16, kFrames = 10;
  cv::PboRing ring(kW, kH, 3);
  std::vector<std::vector<unsigned char>> got;
  auto sink = [&](const unsigned char* p, size_t n) { got.emplace_back(p, p + n); };
  for (int i = 0; i < kFrames; ++i) {
    draw_frame(10 * i, kW, kH);
    ring.read(sink);
    EXPECT_EQ(got.size(), static_cast<size_t>(i >= 3 ? i - 2 : 0)) << "after read " << i;
  }
  ring.drain(sink);
  ASSERT_EQ(got.size(), static_cast<size_t>(kFrames));
  for (int i = 0; i < kFrames; ++i) {
    ASSERT_EQ(got[i].size(), static_cast<size_t>(kW * kH * 4));
    EXPECT_EQ(got[i][0], 10 * i) << "frame " << i << ": bottom-left red";
    EXPECT_EQ(got[i][1], 0) << "frame " << i;
    const size_t top_left = static_cast<size_t>(kH - 1) * kW * 4;
    EXPECT_EQ(got[i][top_left + 1], 200) << "frame " << i << ": top row green";
  }
}

TEST(Recorder, ReadsAtItsStageAndEndsOnAResize) {
  HiddenWindow win("record");
  if (!win.w) GTEST_SKIP() << "no GL context (no display)";
  if (!cv::record::find_ffmpeg(test_config().paths)) GTEST_SKIP() << "ffmpeg not on PATH (scripts/deps.sh --test)";
  const std::string path = scratch("resize.mp4");
  Recorder rec(test_config().paths);
  ASSERT_EQ(rec.start(path, false), std::nullopt);
  EXPECT_TRUE(rec.recording());
  const auto again = rec.start(scratch("second.mp4"), false);
  ASSERT_TRUE(again);
  EXPECT_NE(again->find("still recording"), std::string::npos) << *again;
  for (int i = 0; i < 6; ++i) {
    draw_frame(20 * i, 64, 64);
    rec.capture(Recorder::Stage::Scene, 63, 48);  // odd width: cropped to 62
    rec.capture(Recorder::Stage::Ui, 63, 48);     // not this clip's stage: ignored
    rec.poll();
  }
  EXPECT_EQ(rec.status().captured, 6);
  EXPECT_EQ(rec.status().size.width, 62);
  EXPECT_EQ(rec.status().size.height, 48);
  EXPECT_TRUE(rec.status().size.cropped);
  rec.capture(Recorder::Stage::Scene, 32, 32);  // the window changed size
  EXPECT_EQ(rec.status().state, RecordState::Finishing);
  EXPECT_NE(rec.status().note.find("from 63x48 to 32x32"), std::string::npos) << rec.status().note;
  rec.finish();
  EXPECT_EQ(rec.status().state, RecordState::Saved) << rec.status().error;
  EXPECT_EQ(rec.status().written, 6);
  EXPECT_TRUE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path + ".part"));
  // A new clip can start once the last one is saved.
  EXPECT_EQ(rec.start(scratch("third.gif"), true), std::nullopt);
}

// A clip abandoned mid-way (the app ends on an error) leaves no file behind.
TEST(Recorder, AnAbandonedClipLeavesNoFile) {
  HiddenWindow win("record");
  if (!win.w) GTEST_SKIP() << "no GL context (no display)";
  if (!cv::record::find_ffmpeg(test_config().paths)) GTEST_SKIP() << "ffmpeg not on PATH (scripts/deps.sh --test)";
  const std::string path = scratch("abandoned.mp4");
  {
    Recorder rec(test_config().paths);
    ASSERT_EQ(rec.start(path, true), std::nullopt);
    EXPECT_TRUE(fs::exists(path + ".part"));  // the folder was checked by creating it
    draw_frame(0, 64, 64);
    rec.capture(Recorder::Stage::Ui, 64, 64);
    EXPECT_EQ(rec.status().captured, 1);
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path + ".part"));
}

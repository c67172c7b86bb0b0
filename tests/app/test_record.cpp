// Clips (record/): the format rules, the command line, and the child-process
// plumbing against small shell stand-ins for ffmpeg (a reader that keeps the
// bytes, one that dies, one that never reads). The real ffmpeg is exercised
// by tests/window/run_record_test.sh.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli.h"
#include "process/child_process.h"
#include "process/find_program.h"
#include "record/clip_format.h"
#include "record/frame_pipe.h"

namespace fs = std::filesystem;
using cv::record::ClipFormat;
using cv::record::FramePipe;

namespace {

std::string cli_error(std::vector<std::string> args) {
  try {
    cv::parse_command_line(args);
  } catch (const cv::UsageError& e) {
    return e.what();
  }
  return "";
}

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("cudaviz_record_" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::vector<std::string> sh(const std::string& script) { return {"/bin/sh", "-c", script}; }

}  // namespace

TEST(ClipFormat, ExtensionPicksTheContainer) {
  EXPECT_EQ(cv::record::clip_format_from_path("out.mp4"), ClipFormat::Mp4);
  EXPECT_EQ(cv::record::clip_format_from_path("dir.gif/Clip.MP4"), ClipFormat::Mp4);
  EXPECT_EQ(cv::record::clip_format_from_path("slides/a.GIF"), ClipFormat::Gif);
  EXPECT_FALSE(cv::record::clip_format_from_path("out.avi"));
  EXPECT_FALSE(cv::record::clip_format_from_path("out"));
  EXPECT_FALSE(cv::record::clip_format_from_path("my.gif/out"));
  const std::string avi = *cv::record::check_clip_path("out.avi");
  EXPECT_NE(avi.find("'.avi'"), std::string::npos) << avi;
  EXPECT_NE(avi.find(".mp4, .gif"), std::string::npos) << avi;
  EXPECT_NE(cv::record::check_clip_path("noext")->find("no extension"), std::string::npos);
}

TEST(ClipFormat, OddSizesLoseOneRowOrColumn) {
  auto s = cv::record::even_size(1280, 800);
  EXPECT_EQ(s.width, 1280);
  EXPECT_EQ(s.height, 800);
  EXPECT_FALSE(s.cropped);
  s = cv::record::even_size(641, 361);
  EXPECT_EQ(s.width, 640);
  EXPECT_EQ(s.height, 360);
  EXPECT_TRUE(s.cropped);
  s = cv::record::even_size(640, 361);
  EXPECT_EQ(s.width, 640);
  EXPECT_EQ(s.height, 360);
  EXPECT_TRUE(s.cropped);
}

TEST(ClipFormat, FfmpegCommandLines) {
  const auto mp4 = cv::record::ffmpeg_args("/usr/bin/ffmpeg", ClipFormat::Mp4, {640, 360, false},
                                           "o.mp4.part");
  const std::string joined = [&] {
    std::string j;
    for (const auto& a : mp4) j += a + " ";
    return j;
  }();
  EXPECT_EQ(mp4.front(), "/usr/bin/ffmpeg");
  EXPECT_EQ(mp4.back(), "o.mp4.part");
  for (const char* part : {"-f rawvideo -pix_fmt rgba -s 640x360 -r 60 -i - ", "-vf vflip ",
                           "-c:v libx264 -pix_fmt yuv420p -crf 20 ", "-movflags +faststart ",
                           "-f mp4 "})
    EXPECT_NE(joined.find(part), std::string::npos) << part << " in " << joined;
  const auto gif = cv::record::ffmpeg_args("ffmpeg", ClipFormat::Gif, {2, 2, false}, "o.gif");
  EXPECT_NE(std::find(gif.begin(), gif.end(), "50"), gif.end());
  EXPECT_NE(std::find(gif.begin(), gif.end(), "vflip,split[a][b];[a]palettegen[p];[b][p]paletteuse"),
            gif.end());
}

TEST(RecordCli, FlagsAndRefusals) {
  auto c = cv::parse_command_line({"--record", "clip.gif", "--record-ui", "--frames", "5"});
  EXPECT_EQ(*c.run.record, "clip.gif");
  EXPECT_TRUE(c.run.record_ui);
  c = cv::parse_command_line({"--record=a.mp4"});
  EXPECT_FALSE(c.run.record_ui);
  const std::string bad = cli_error({"--record", "clip.webm"});
  EXPECT_NE(bad.find("--record: 'clip.webm' has the extension '.webm'"), std::string::npos) << bad;
  EXPECT_NE(bad.find(".mp4, .gif"), std::string::npos) << bad;
  EXPECT_NE(cli_error({"--record-ui"}).find("needs --record"), std::string::npos);
  EXPECT_NE(cli_error({"--record-ui=1", "--record", "a.mp4"}).find("takes no value"),
            std::string::npos);
}

TEST(ChildProcess, FindsProgramsOnPath) {
  EXPECT_EQ(cv::find_on_path("sh", "/nonexistent:/bin"), "/bin/sh");
  EXPECT_FALSE(cv::find_on_path("sh", "/nonexistent"));
  EXPECT_FALSE(cv::find_on_path("sh", nullptr));
  EXPECT_FALSE(cv::find_on_path("sh", ""));  // the current directory (the test's build folder)
}

TEST(ChildProcess, ExitStatusAndStderrTail) {
  cv::ChildProcess p(sh("echo first >&2; echo 'last words' >&2; exit 3"));
  const auto status = p.wait_for(10);
  ASSERT_TRUE(status);
  EXPECT_EQ(cv::describe_wait_status(*status), "exit status 3");
  EXPECT_EQ(p.stderr_tail(), "first\nlast words");
  EXPECT_EQ(p.stderr_tail(11), "last words");  // whole lines only
}

TEST(ChildProcess, MissingProgramIsAnError) {
  try {
    cv::ChildProcess p({"/nonexistent/ffmpeg"});
    // glibc reports exec failure from posix_spawn itself; an exit status 127 is the other way.
    const auto status = p.wait_for(10);
    ASSERT_TRUE(status);
    EXPECT_EQ(cv::describe_wait_status(*status), "exit status 127");
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("posix_spawn(/nonexistent/ffmpeg)"), std::string::npos);
  }
}

TEST(FramePipe, EveryFrameReachesTheChildInOrder) {
  const fs::path out = scratch("frames.bin");
  constexpr size_t kBytes = 64 * 1024;  // larger than one socket write
  {
    FramePipe pipe(sh("cat > '" + out.string() + "'"), kBytes, 2);
    for (int i = 0; i < 20; ++i) {
      FramePipe::Frame f = pipe.buffer();
      ASSERT_EQ(f.size(), kBytes);
      std::fill(f.begin(), f.end(), static_cast<unsigned char>(i));
      ASSERT_TRUE(pipe.push(std::move(f)));
    }
    pipe.close();
    pipe.wait();
    EXPECT_TRUE(pipe.finished());
    EXPECT_FALSE(pipe.failed()) << pipe.error();
    EXPECT_EQ(pipe.written(), 20);
  }
  std::ifstream f(out, std::ios::binary);
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(f)), {});
  ASSERT_EQ(bytes.size(), 20 * kBytes);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(bytes[i * kBytes + kBytes / 2], i) << "frame " << i;
}

// A child that dies mid-stream: the app gets EPIPE (no SIGPIPE ends this test
// process) and an error with the child's exit status and its stderr.
TEST(FramePipe, ADyingChildGivesItsStderr) {
  FramePipe pipe(sh("head -c 100000 > /dev/null; echo 'Unknown encoder libx264' >&2; exit 1"),
                 256 * 1024, 2);
  bool refused = false;
  for (int i = 0; i < 200 && !refused; ++i) refused = !pipe.push(pipe.buffer());
  EXPECT_TRUE(refused);
  pipe.wait();
  EXPECT_TRUE(pipe.failed());
  const std::string e = pipe.error();
  EXPECT_NE(e.find("/bin/sh stopped after"), std::string::npos) << e;
  EXPECT_NE(e.find("exit status 1"), std::string::npos) << e;
  EXPECT_NE(e.find("Unknown encoder libx264"), std::string::npos) << e;
}

// An encoder that never reads: the full queue waits `stall` seconds, then the
// recording stops with a message and the child is killed (no hang).
TEST(FramePipe, AStuckChildEndsTheRecording) {
  const auto t0 = std::chrono::steady_clock::now();
  {
    FramePipe pipe(sh("exec sleep 60"), 4 << 20, 1, 0.3);
    bool refused = false;
    for (int i = 0; i < 50 && !refused; ++i) refused = !pipe.push(pipe.buffer());
    EXPECT_TRUE(refused);
    pipe.wait();
    EXPECT_NE(pipe.error().find("took no frame for 0.3 s"), std::string::npos) << pipe.error();
    EXPECT_NE(pipe.error().find("killed by signal 9"), std::string::npos) << pipe.error();
    EXPECT_GE(pipe.waits(), 1);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
}

// Abandoning a pipe (the app closes mid-recording) kills the child at once.
TEST(FramePipe, DestroyingAnOpenPipeStopsTheChild) {
  const auto t0 = std::chrono::steady_clock::now();
  {
    FramePipe pipe(sh("exec sleep 60"), 16, 4);
    EXPECT_TRUE(pipe.push(pipe.buffer()));
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
}

TEST(ClipFormat, GifLengthAndQueueAreBoundedByMemory) {
  EXPECT_EQ(cv::record::gif_frame_limit({1280, 720, false}), (2ll << 30) / (1280 * 720 * 4));
  EXPECT_EQ(cv::record::gif_frame_limit({1280, 720, false}), 582);  // 11.6 s at 50 fps
  EXPECT_EQ(cv::record::queue_frames({640, 360, false}), 8u);
  EXPECT_EQ(cv::record::queue_frames({3840, 2160, false}), 8u);  // 33 MB a frame: 8 = 265 MB
  EXPECT_EQ(cv::record::queue_frames({7680, 4320, false}), 2u);
}

// The frame watchdog (core/frame_watchdog.h): silent until armed, then fires
// once when no frame finishes within its limit, never while frames keep coming,
// and hands over what it was armed with.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/frame_watchdog.h"

namespace cv {
namespace {

using namespace std::chrono_literals;

struct Fired {
  std::atomic<int> count{0};
  std::atomic<double> waited{0};
  FrameWatchdog::Rescue rescue;
  std::mutex m;
};

FrameWatchdog::OnStall record(Fired& f) {
  return [&f](const FrameWatchdog::Rescue& r, double waited) {
    std::lock_guard<std::mutex> lock(f.m);
    f.rescue = r;
    f.waited = waited;
    ++f.count;
  };
}

TEST(FrameWatchdog, UnarmedNeverFires) {
  Fired f;
  {
    FrameWatchdog w(50ms, record(f));
    std::this_thread::sleep_for(250ms);  // no frames at all
    EXPECT_FALSE(w.armed());
  }
  EXPECT_EQ(f.count, 0);
}

TEST(FrameWatchdog, ArmedFiresOnceWithTheRescueAfterTheLimit) {
  Fired f;
  FrameWatchdog w(100ms, record(f));
  const auto t0 = std::chrono::steady_clock::now();
  w.arm({"your kernel's fault", "kernel text", "k.cu"});
  for (int i = 0; i < 100 && f.count == 0; ++i) std::this_thread::sleep_for(10ms);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(f.count, 1);
  EXPECT_GE(s, 0.1);
  EXPECT_GE(f.waited, 0.1);
  std::lock_guard<std::mutex> lock(f.m);
  EXPECT_EQ(f.rescue.why, "your kernel's fault");
  EXPECT_EQ(f.rescue.kernel_text, "kernel text");
  EXPECT_EQ(f.rescue.kernel_path, "k.cu");
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(f.count, 1) << "fired again";
}

TEST(FrameWatchdog, FramesInTimeKeepItQuiet) {
  Fired f;
  FrameWatchdog w(150ms, record(f));
  w.arm({"a fault", "", ""});
  for (int i = 0; i < 20; ++i) {  // 600 ms of frames, 30 ms apart
    std::this_thread::sleep_for(30ms);
    w.frame_done();
  }
  EXPECT_EQ(f.count, 0);
  std::this_thread::sleep_for(400ms);  // then the frames stop
  EXPECT_EQ(f.count, 1);
}

}  // namespace
}  // namespace cv

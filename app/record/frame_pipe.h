#pragma once
// Frames to an encoder process: a bounded queue and one writer thread that
// feeds the child's stdin (process/child_process.h), so a slow encoder costs the
// render thread a wait only when the queue is full, never an unbounded pile
// of frames. A full queue waits (every frame reaches the clip: frame-exact
// beats real time) up to kStallSeconds, then the encoder counts as stuck.
// A dedicated thread rather than worker/Worker: this is a stream of frames
// for as long as the recording runs, not a list of jobs with progress.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "process/child_process.h"

namespace cv::record {

class FramePipe {
 public:
  static constexpr double kStallSeconds = 30.0;  // a full queue waited this long: stuck
  static constexpr double kFinishSeconds = 300.0;  // after EOF: a GIF's palette pass takes a while

  using Frame = std::vector<unsigned char>;

  // Starts argv (argv[0] a path; its stderr kept in `tmpdir`) and the writer
  // thread. Throws std::runtime_error naming the call when the process cannot start.
  FramePipe(const std::vector<std::string>& argv, size_t frame_bytes, size_t capacity = 8,
            double stall_seconds = kStallSeconds, const std::string& tmpdir = "/tmp");
  // Unless close()d and finished: stops the encoder (kill) and joins.
  ~FramePipe();
  FramePipe(const FramePipe&) = delete;
  FramePipe& operator=(const FramePipe&) = delete;

  // A buffer of frame_bytes to fill (recycled from written frames).
  Frame buffer();
  // Queues a frame. Waits while the queue is full; false when the encoder has
  // failed or stalled (error() says why): the frame is not written.
  bool push(Frame frame);
  // No more frames: the writer sends what is queued, closes the encoder's
  // stdin and waits for it to finish, all on its thread.
  void close();
  bool finished() const;  // the writer thread is done (closed and the encoder ended, or failed)
  void wait();            // joins the writer
  bool failed() const;
  std::string error() const;  // why, with the encoder's stderr tail
  long long written() const;  // frames the encoder took
  long long waits() const;    // pushes that found the queue full

 private:
  void write_loop();
  void fail(const std::string& why);  // under mutex_

  size_t frame_bytes_, capacity_;
  double stall_seconds_;
  std::unique_ptr<ChildProcess> child_;
  std::string program_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Frame> queue_;
  std::vector<Frame> free_;
  bool closing_ = false, aborting_ = false;
  bool stopped_ = false;   // the writer takes no more frames
  bool finished_ = false;  // ... and the encoder has ended
  std::string error_;
  long long written_ = 0, waits_ = 0;
  std::thread writer_;  // last: started when everything above exists
};

}  // namespace cv::record

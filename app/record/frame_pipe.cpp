#include "record/frame_pipe.h"

#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace cv::record {

FramePipe::FramePipe(const std::vector<std::string>& argv, size_t frame_bytes, size_t capacity,
                     double stall_seconds, const std::string& tmpdir)
    : frame_bytes_(frame_bytes),
      capacity_(capacity),
      stall_seconds_(stall_seconds),
      child_(std::make_unique<ChildProcess>(argv, tmpdir)),
      program_(argv.at(0)),
      writer_([this] { write_loop(); }) {}

FramePipe::~FramePipe() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!finished_) {
      aborting_ = true;
      child_->kill();  // a writer blocked in send() gets EPIPE
    }
  }
  changed_.notify_all();
  wait();
}

FramePipe::Frame FramePipe::buffer() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (free_.empty()) return Frame(frame_bytes_);
  Frame f = std::move(free_.back());
  free_.pop_back();
  return f;
}

bool FramePipe::push(Frame frame) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!error_.empty() || closing_ || stopped_) return false;
  if (queue_.size() >= capacity_) {
    ++waits_;
    const bool room = changed_.wait_for(lock, std::chrono::duration<double>(stall_seconds_), [&] {
      return queue_.size() < capacity_ || !error_.empty() || stopped_;
    });
    if (!room) {
      char why[64];
      std::snprintf(why, sizeof why, " took no frame for %g s (stuck?); the recording stops",
                    stall_seconds_);
      fail(program_ + why);
      child_->kill();
    }
    if (!error_.empty() || stopped_) return false;
  }
  queue_.push_back(std::move(frame));
  lock.unlock();
  changed_.notify_all();
  return true;
}

void FramePipe::close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
  }
  changed_.notify_all();
}

bool FramePipe::finished() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return finished_;
}

void FramePipe::wait() {
  if (writer_.joinable()) writer_.join();
}

bool FramePipe::failed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !error_.empty();
}

std::string FramePipe::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

long long FramePipe::written() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return written_;
}

long long FramePipe::waits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waits_;
}

void FramePipe::fail(const std::string& why) {
  if (error_.empty()) error_ = why;
}

void FramePipe::write_loop() {
  int write_error = 0;
  for (;;) {
    Frame frame;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return !queue_.empty() || closing_ || aborting_ || !error_.empty(); });
      if (aborting_ || !error_.empty() || queue_.empty()) break;  // empty here: closing
      frame = std::move(queue_.front());
      queue_.pop_front();
    }
    changed_.notify_all();  // room in the queue
    write_error = child_->write_all(frame.data(), frame.size());
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::move(frame));
    if (write_error) break;
    ++written_;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;  // push() stops waiting for room at once
  }
  changed_.notify_all();
  child_->close_stdin();  // EOF: the encoder writes out the rest of the file
  std::optional<int> status = child_->wait_for(kFinishSeconds);
  if (!status) {
    child_->kill();
    status = child_->wait_for(10.0);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  const bool clean_exit = status && WIFEXITED(*status) && WEXITSTATUS(*status) == 0;
  if (aborting_) {
    fail("the recording was abandoned");
  } else if (write_error || !clean_exit) {
    std::string why = program_ + " stopped after " + std::to_string(written_) + " frame(s)";
    why += status ? " (" + describe_wait_status(*status) + ")" : " (did not end, killed)";
    if (write_error && write_error != EPIPE) why += "; writing to it failed: " + std::string(std::strerror(write_error));
    const std::string tail = child_->stderr_tail();
    why += tail.empty() ? ": it printed nothing" : ": " + tail;
    if (!error_.empty()) why = error_ + "; " + why;
    error_ = why;
  }
  finished_ = true;
  changed_.notify_all();
}

}  // namespace cv::record

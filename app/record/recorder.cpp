#include "record/recorder.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace cv::record {

const char* to_string(RecordState s) {
  switch (s) {
    case RecordState::Idle: return "idle";
    case RecordState::Recording: return "recording";
    case RecordState::Finishing: return "finishing";
    case RecordState::Saved: return "saved";
    case RecordState::Failed: return "failed";
  }
  return "?";
}

Recorder::~Recorder() {
  ring_.reset();
  const bool unfinished = busy();
  pipe_.reset();  // kills an ffmpeg still running
  if (unfinished) std::remove(part_path().c_str());
}

std::optional<std::string> Recorder::start(const std::string& path, bool include_ui) {
  if (busy()) return "a recording is still " + std::string(to_string(status_.state)) + " ('" +
                     status_.path + "'); stop it first";
  const auto format = clip_format_from_path(path);
  if (!format) return check_clip_path(path);
  if (!find_ffmpeg(paths_)) return std::string(kNeedsFfmpeg);
  // Find an unwritable folder now, not after the first frames went to ffmpeg.
  const std::string part = path + ".part";
  if (std::FILE* f = std::fopen(part.c_str(), "wb")) {
    std::fclose(f);
  } else {
    return "cannot write '" + part + "': " + std::strerror(errno);
  }
  status_ = RecordStatus{};
  status_.state = RecordState::Recording;
  status_.path = path;
  status_.format = *format;
  status_.include_ui = include_ui;
  return std::nullopt;
}

void Recorder::capture(Stage stage, int fb_w, int fb_h) {
  if (!recording() || (stage == Stage::Ui) != status_.include_ui) return;
  if (!pipe_) {
    begin_clip(fb_w, fb_h);
    if (!recording()) return;
  } else if (fb_w != fb_w_ || fb_h != fb_h_) {
    status_.note = "the window changed size from " + std::to_string(fb_w_) + "x" +
                   std::to_string(fb_h_) + " to " + std::to_string(fb_w) + "x" +
                   std::to_string(fb_h) + "; a video keeps one size, so the clip ends at frame " +
                   std::to_string(status_.captured);
    std::fprintf(stderr, "cudaviz: recording: %s\n", status_.note.c_str());
    stop();
    return;
  }
  try {
    ring_->read([this](const unsigned char* p, size_t n) { deliver(p, n); });
  } catch (const std::exception& e) {
    fail(e.what());
    return;
  }
  ++status_.captured;
  if (broken_) {
    pipe_broke();
  } else if (status_.format == ClipFormat::Gif &&
             status_.captured >= gif_frame_limit(status_.size)) {
    status_.note = "a GIF stops at " + std::to_string(status_.captured) + " frames of " +
                   std::to_string(status_.size.width) + "x" + std::to_string(status_.size.height) +
                   " (ffmpeg holds every frame of a GIF in memory until the end, 2 GiB at most); "
                   "record .mp4 for longer clips";
    std::fprintf(stderr, "cudaviz: recording: %s\n", status_.note.c_str());
    stop();
  }
}

void Recorder::begin_clip(int fb_w, int fb_h) {
  const ClipSize size = even_size(fb_w, fb_h);
  if (size.width < 2 || size.height < 2) {
    fail("the window is " + std::to_string(fb_w) + "x" + std::to_string(fb_h) +
         " pixels; a clip needs at least 2x2");
    return;
  }
  const auto ffmpeg = find_ffmpeg(paths_);
  if (!ffmpeg) {
    fail(kNeedsFfmpeg);
    return;
  }
  try {
    const size_t bytes = static_cast<size_t>(size.width) * size.height * 4;
    pipe_ = std::make_unique<FramePipe>(ffmpeg_args(*ffmpeg, status_.format, size, part_path()),
                                        bytes, queue_frames(size), FramePipe::kStallSeconds,
                                        paths_.tmpdir);
    ring_ = std::make_unique<PboRing>(size.width, size.height);
  } catch (const std::exception& e) {
    fail(e.what());
    return;
  }
  fb_w_ = fb_w;
  fb_h_ = fb_h;
  status_.size = size;
  std::fprintf(stderr, "recording: %s (%dx%d%s, %d fps, %s)\n", status_.path.c_str(), size.width,
               size.height, size.cropped ? ", cropped to even" : "", clip_fps(status_.format),
               status_.include_ui ? "with panels" : "scene only");
}

void Recorder::deliver(const unsigned char* rgba, size_t bytes) {
  if (broken_) return;
  FramePipe::Frame frame = pipe_->buffer();
  std::memcpy(frame.data(), rgba, bytes);
  if (!pipe_->push(std::move(frame))) broken_ = true;
}

void Recorder::stop() {
  if (!recording()) return;
  if (!pipe_) {
    fail("no frame was drawn while recording (was the window minimized?)");
    return;
  }
  try {
    ring_->drain([this](const unsigned char* p, size_t n) { deliver(p, n); });
  } catch (const std::exception& e) {
    fail(e.what());
    return;
  }
  ring_.reset();
  if (broken_) {
    pipe_broke();
    return;
  }
  pipe_->close();
  status_.state = RecordState::Finishing;
}

void Recorder::poll() {
  if (!pipe_) return;
  status_.written = pipe_->written();
  status_.encoder_waits = pipe_->waits();
  if (recording()) {
    if (pipe_->finished()) pipe_broke();  // ffmpeg ended while frames still come
    return;
  }
  if (status_.state != RecordState::Finishing || !pipe_->finished()) return;
  pipe_->wait();
  if (pipe_->failed()) {
    fail(pipe_->error());
    return;
  }
  pipe_.reset();
  if (std::rename(part_path().c_str(), status_.path.c_str()) != 0) {
    fail("cannot rename '" + part_path() + "' to '" + status_.path + "': " + std::strerror(errno));
    return;
  }
  status_.state = RecordState::Saved;
  std::fprintf(stderr, "recording: saved %s (%lld frames, %dx%d, %s)\n", status_.path.c_str(),
               status_.written, status_.size.width, status_.size.height, encoder(status_.format));
}

void Recorder::finish() {
  stop();
  if (status_.state == RecordState::Finishing) pipe_->wait();
  poll();
}

void Recorder::pipe_broke() {
  pipe_->wait();  // the writer has stopped: ffmpeg has ended or is being ended
  status_.written = pipe_->written();
  fail(pipe_->error());
}

void Recorder::fail(const std::string& why) {
  ring_.reset();
  if (pipe_) status_.written = pipe_->written();
  pipe_.reset();  // stops ffmpeg unless it already ended
  broken_ = false;
  if (!status_.path.empty()) std::remove(part_path().c_str());
  status_.state = RecordState::Failed;
  status_.error = why.empty() ? "ffmpeg failed" : why;
  std::fprintf(stderr, "cudaviz: recording '%s' failed: %s\n", status_.path.c_str(),
               status_.error.c_str());
}

}  // namespace cv::record

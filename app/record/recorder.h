#pragma once
// A frame-exact clip of the window (--record, the panel's record button): every
// frame drawn while recording is one fixed simulation step (the frame loop
// asks recording() and steps once) and one frame of the video, however long
// the frame took. Pixels come back through a PBO ring (gl/pixel_readback.h),
// go to ffmpeg through a bounded queue and a writer thread (frame_pipe.h), and
// ffmpeg writes `path`.part, renamed to `path` when it ends cleanly: a failed
// or abandoned clip leaves no half-written file. Nothing here stops the app:
// failures end the recording with a message (status().error).
#include <memory>
#include <optional>
#include <string>

#include "config/config.h"
#include "gl/pixel_readback.h"
#include "record/frame_pipe.h"
#include "record/record_status.h"

namespace cv::record {

class Recorder {
 public:
  // Where in the frame a capture() call stands: after the scene is drawn, or
  // with the panels drawn too (just before the swap).
  enum class Stage { Scene, Ui };

  // paths: PATH (ffmpeg) and TMPDIR (config/config.h).
  explicit Recorder(PathConfig paths) : paths_(std::move(paths)) {}
  ~Recorder();  // an unfinished clip is abandoned: ffmpeg stopped, the .part file removed
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Starts a clip at `path` (.mp4 or .gif); frames are read from the next
  // capture() on. Returns why not (bad extension, no ffmpeg, a folder it
  // cannot write, a clip still running); nothing changes then.
  std::optional<std::string> start(const std::string& path, bool include_ui);
  // Reads this frame when recording and `stage` is the one the clip wants.
  // The first frame fixes the size; a window that changes size ends the clip.
  void capture(Stage stage, int fb_w, int fb_h);
  // No more frames: the ring is emptied into the queue, ffmpeg finishes on the writer thread.
  void stop();
  // Once a frame: notices a dead ffmpeg, or a finished clip (then renames it into place).
  void poll();
  // Waits for ffmpeg to finish the clip (teardown, scripted runs).
  void finish();

  bool recording() const { return status_.state == RecordState::Recording; }
  bool busy() const { return recording() || status_.state == RecordState::Finishing; }
  const RecordStatus& status() const { return status_; }

 private:
  PathConfig paths_;
  void begin_clip(int fb_w, int fb_h);
  void deliver(const unsigned char* rgba, size_t bytes);
  void pipe_broke();                 // the writer stopped: its error ends the clip
  void fail(const std::string& why);
  std::string part_path() const { return status_.path + ".part"; }

  RecordStatus status_;
  int fb_w_ = 0, fb_h_ = 0;  // the framebuffer the clip started with
  bool broken_ = false;      // the pipe refused a frame this capture
  std::unique_ptr<FramePipe> pipe_;
  std::unique_ptr<PboRing> ring_;
};

}  // namespace cv::record

#pragma once
// What a recording is doing, for the panel and the --frames summary.
#include <string>

#include "record/clip_format.h"

namespace cv::record {

enum class RecordState {
  Idle,       // nothing recorded yet
  Recording,  // frames go to ffmpeg (one simulation step each)
  Finishing,  // no more frames; ffmpeg writes the rest of the file
  Saved,      // the clip is at `path`
  Failed,     // `error` says why; no file was left behind
};
const char* to_string(RecordState s);

struct RecordStatus {
  RecordState state = RecordState::Idle;
  std::string path;  // the clip asked for
  ClipFormat format = ClipFormat::Mp4;
  bool include_ui = false;        // the panels are in the picture
  ClipSize size;                  // the clip's (even) size, once the first frame is read
  long long captured = 0;         // frames read from the window
  long long written = 0;          // frames ffmpeg took
  long long encoder_waits = 0;    // frames that waited for a full queue (the app slowed, the clip did not)
  std::string note;               // why the clip ended before it was stopped (a resize)
  std::string error;              // why it failed, with ffmpeg's last words
};

}  // namespace cv::record

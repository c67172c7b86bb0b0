#pragma once
// The record button of the control panel's View section: what it asks the
// frame loop for, and the recorder's state it shows (copied each frame).
#include <string>

#include "record/record_status.h"

namespace cv {

struct RecordControls {
  bool toggle_requested = false;  // start or stop a clip at the start of the next frame
  bool include_ui = false;        // record the panels too (default: the scene only)
  int format = 0;                 // 0: mp4, 1: gif
  bool ffmpeg_found = true;       // at start-up, and again at each press
  std::string message;            // why the last press could not start a clip
  record::RecordStatus status;    // the recorder's, this frame
};

// The button, the format and "with panels" choices, and what the clip is doing.
void draw_record_controls(RecordControls& rc);

}  // namespace cv

#pragma once
// What a clip is: its container (from the file's extension), its size (even,
// as H.264 4:2:0 needs), its frame rate, and the ffmpeg command that encodes
// raw RGBA frames from stdin into it. Pure functions, tested without ffmpeg.
#include <optional>
#include <string>
#include <vector>

#include "config/config.h"

namespace cv::record {

enum class ClipFormat { Mp4, Gif };

// The extensions --record accepts, for messages.
inline constexpr const char* kClipExtensions = ".mp4, .gif";
// What the button and --record say when ffmpeg is missing.
inline constexpr const char* kNeedsFfmpeg =
    "recording needs ffmpeg, which was not found on PATH; install it with: sudo apt install ffmpeg";

// From the path's extension (case-insensitive); nullopt for anything else.
std::optional<ClipFormat> clip_format_from_path(const std::string& path);
// Why `path` cannot be a clip (names the value and the allowed extensions).
std::optional<std::string> check_clip_path(const std::string& path);
const char* extension(ClipFormat f);  // "mp4", "gif"
const char* encoder(ClipFormat f);    // "libx264", "gif"

// Frames per second of the clip. One recorded frame is one simulation step
// (1/60 s), so an MP4 plays in real time. GIF delays are whole hundredths of
// a second and browsers slow delays under 2 to 10, so a GIF keeps every step
// at 50 per second (motion at 5/6 of real time) instead of dropping steps.
int clip_fps(ClipFormat f);

// libx264 with 4:2:0 chroma needs even sizes: an odd framebuffer loses its
// top row and/or right column (the read starts at the bottom-left corner).
struct ClipSize {
  int width = 0, height = 0;
  bool cropped = false;
};
ClipSize even_size(int fb_width, int fb_height);

// The palette pass sees the whole GIF before it maps any frame, so ffmpeg
// holds every frame, raw, until the clip ends: a GIF stops (saved, with a
// note) after this many frames, 2 GiB of them. MP4 streams and has no limit.
inline constexpr long long kGifMaxBytes = 2ll << 30;
long long gif_frame_limit(ClipSize size);

// Frames queued for ffmpeg: at most 8 and at most 256 MiB of them, at least 2.
size_t queue_frames(ClipSize size);

// ffmpeg's argv (argv[0] = `ffmpeg`, a path) encoding raw RGBA frames of
// `size`, bottom row first, from stdin into `out` in `format`.
std::vector<std::string> ffmpeg_args(const std::string& ffmpeg, ClipFormat format, ClipSize size,
                                     const std::string& out);

// ffmpeg on PATH (paths.path, as main() read it), looked up now (it may be installed while the app
// runs).
std::optional<std::string> find_ffmpeg(const PathConfig& paths);

}  // namespace cv::record

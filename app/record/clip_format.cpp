#include "record/clip_format.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "process/find_program.h"

namespace cv::record {

std::optional<ClipFormat> clip_format_from_path(const std::string& path) {
  const size_t dot = path.rfind('.');
  const size_t slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return std::nullopt;
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "mp4") return ClipFormat::Mp4;
  if (ext == "gif") return ClipFormat::Gif;
  return std::nullopt;
}

std::optional<std::string> check_clip_path(const std::string& path) {
  if (clip_format_from_path(path)) return std::nullopt;
  const size_t dot = path.rfind('.');
  const size_t slash = path.rfind('/');
  const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return "'" + path + "' " +
         (has_ext ? "has the extension '" + path.substr(dot) + "'" : std::string("has no extension")) +
         "; a clip is one of " + kClipExtensions;
}

const char* extension(ClipFormat f) { return f == ClipFormat::Mp4 ? "mp4" : "gif"; }
const char* encoder(ClipFormat f) { return f == ClipFormat::Mp4 ? "libx264" : "gif"; }
int clip_fps(ClipFormat f) { return f == ClipFormat::Mp4 ? 60 : 50; }

ClipSize even_size(int fb_width, int fb_height) {
  ClipSize s;
  s.width = fb_width & ~1;
  s.height = fb_height & ~1;
  s.cropped = s.width != fb_width || s.height != fb_height;
  return s;
}

long long gif_frame_limit(ClipSize size) {
  const long long bytes = 4ll * size.width * size.height;
  return bytes > 0 ? std::max(1ll, kGifMaxBytes / bytes) : 0;
}

size_t queue_frames(ClipSize size) {
  const size_t bytes = 4ull * static_cast<size_t>(size.width) * static_cast<size_t>(size.height);
  return std::clamp<size_t>(bytes ? (size_t{256} << 20) / bytes : 8, 2, 8);
}

std::vector<std::string> ffmpeg_args(const std::string& ffmpeg, ClipFormat format, ClipSize size,
                                     const std::string& out) {
  std::vector<std::string> a = {ffmpeg, "-hide_banner", "-nostats", "-loglevel", "error", "-y",
                                // the input: raw frames as glReadPixels gives them
                                "-f", "rawvideo", "-pix_fmt", "rgba",
                                "-s", std::to_string(size.width) + "x" + std::to_string(size.height),
                                "-r", std::to_string(clip_fps(format)), "-i", "-"};
  if (format == ClipFormat::Mp4) {
    // GL's rows run bottom-up: vflip. +faststart puts the index first (plays while loading).
    a.insert(a.end(), {"-vf", "vflip", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "20",
                       "-movflags", "+faststart", "-f", "mp4"});
  } else {
    // One pass over the frames builds a 256-colour palette, a second maps them to it.
    a.insert(a.end(), {"-vf", "vflip,split[a][b];[a]palettegen[p];[b][p]paletteuse", "-f", "gif"});
  }
  a.push_back(out);
  return a;
}

std::optional<std::string> find_ffmpeg(const PathConfig& paths) {
  return find_on_path("ffmpeg", paths.path ? paths.path->c_str() : nullptr);
}

}  // namespace cv::record

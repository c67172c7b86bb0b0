#pragma once
// Screenshots: reads the default framebuffer and writes a PNG atomically
// (temporary name, then rename) so a failed write leaves nothing half-written.
#include <string>

namespace cv {

// Throws std::runtime_error naming the path and reason on failure.
void write_framebuffer_png(const std::string& path, int width, int height);

}  // namespace cv

#pragma once
// The app's whole-file reads and writes, in one place. Writing a file so that
// readers see either the old content or the whole new one, never a prefix:
// the bytes go to a temporary file in the same directory (same filesystem, so
// rename is atomic), are flushed to disk, and the temporary is renamed over
// the target. Used by presets, screenshots and CSV. A private build folder's
// files (the student's source, the compiler's log) are written plainly.
#include <cstdint>
#include <string>
#include <string_view>

namespace cv {

// Throws std::runtime_error("cannot write '<path>': <errno text>") on any
// failure (missing or read-only directory, full disk, ...); the temporary
// file is removed and an existing `path` is left as it was.
void write_file_atomically(const std::string& path, std::string_view bytes);

// Reads a whole file; throws std::runtime_error("cannot read '<path>': <errno text>"),
// or naming the size and the limit when the file is larger than max_bytes
// (checked before reading, so a huge file costs no memory).
std::string read_file(const std::string& path, size_t max_bytes = SIZE_MAX);
// The whole file, or "" when it cannot be read (a log the tool may not have made).
std::string read_file_or_empty(const std::string& path);

// Writes a whole file in place: no temporary, no flush to disk, so a reader
// may see a prefix. Only for files in a private folder nobody reads while
// they are written. Throws std::runtime_error("cannot write '<path>': ...").
void write_file(const std::string& path, std::string_view bytes);

}  // namespace cv

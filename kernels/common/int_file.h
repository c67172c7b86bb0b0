#pragma once
// Reading lab data sets: text files of whitespace-separated decimal int32s.
// Every failure throws std::invalid_argument naming the file and why (with the
// line and the offending token where there is one), so the CLI can exit 2 and
// the UI can show the message as it is.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cv {

struct IntFileLimits {
  size_t max_values = size_t{1} << 28;  // 1 GiB of int32 once parsed
  // Refused before reading a byte: a file this big is a mistake, not a data set.
  uint64_t max_bytes = uint64_t{4} << 30;
};

// All values of the file, in order. Tokens are an optional sign and decimal
// digits; any ASCII whitespace separates them (CRLF files work); a UTF-8 byte
// order mark at the start is skipped. The file is streamed in fixed chunks.
std::vector<int32_t> read_int_file(const std::string& path, const IntFileLimits& limits);
std::vector<int32_t> read_int_file(const std::string& path, size_t max_values = size_t{1} << 28);

// One row per non-blank line (blank lines are skipped), compressed: row r holds
// values[offsets[r] .. offsets[r + 1]).
struct IntRows {
  std::vector<int32_t> values;
  std::vector<size_t> offsets{0};
  size_t rows() const { return offsets.size() - 1; }
};
IntRows read_int_rows(const std::string& path, const IntFileLimits& limits = {});

}  // namespace cv

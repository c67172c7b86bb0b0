#include "int_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace cv {
namespace {

constexpr size_t kChunkBytes = size_t{1} << 20;
constexpr size_t kShownTokenChars = 24;  // longer tokens are cut with "..." in messages

[[noreturn]] void fail(const std::string& msg) { throw std::invalid_argument(msg); }

std::string quoted(const std::string& path) { return "'" + path + "'"; }

std::string hex_byte(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", c);
  return buf;
}

std::string human_bytes(uint64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
  return buf;
}

bool is_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// Control characters other than whitespace (NUL included) mean the file is not
// text. Bytes >= 0x80 are let through as token characters: a stray UTF-8
// character then shows up as a malformed token with its line.
bool is_binary(unsigned char c) { return (c < 0x20 && !is_space(c)) || c == 0x7f; }

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// Streams a file once, handing each integer and each line end to the caller.
class Scanner {
 public:
  Scanner(const std::string& path, const IntFileLimits& limits) : path_(path), limits_(limits) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
      fail("cannot open " + quoted(path) + ": " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) fail("cannot read " + quoted(path) + ": it is a directory");
    if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > limits.max_bytes)
      fail(quoted(path) + " is " + std::to_string(st.st_size) + " bytes (" +
           human_bytes(static_cast<uint64_t>(st.st_size)) + "); input files over " +
           std::to_string(limits.max_bytes) + " bytes are refused");
    file_.reset(std::fopen(path.c_str(), "rb"));
    if (!file_) fail("cannot open " + quoted(path) + ": " + std::strerror(errno));
  }

  // on_value(int32_t value, size_t line); on_line_end(). Returns the value count.
  template <typename OnValue, typename OnLineEnd>
  size_t scan(OnValue on_value, OnLineEnd on_line_end) {
    std::unique_ptr<char[]> buf(new char[kChunkBytes]);
    uint64_t offset = 0;
    bool first_chunk = true;
    for (;;) {
      const size_t got = std::fread(buf.get(), 1, kChunkBytes, file_.get());
      if (got < kChunkBytes && std::ferror(file_.get()))
        fail("error reading " + quoted(path_) + ": " + std::strerror(errno));
      size_t start = 0;
      if (first_chunk && got >= 3 && std::memcmp(buf.get(), "\xEF\xBB\xBF", 3) == 0) start = 3;
      first_chunk = false;
      for (size_t i = start; i < got; ++i) {
        const unsigned char c = static_cast<unsigned char>(buf[i]);
        if (is_space(c)) {
          if (in_token_) finish_token(on_value);
          if (c == '\n') {
            on_line_end();
            ++line_;
          }
        } else if (is_binary(c)) {
          fail(quoted(path_) + " line " + std::to_string(line_) + ": binary data (byte " +
               hex_byte(c) + " at offset " + std::to_string(offset + i) +
               "); expected text of whitespace-separated integers");
        } else {
          add_char(c);
        }
      }
      offset += got;
      if (got < kChunkBytes) break;  // end of file
    }
    if (in_token_) finish_token(on_value);
    on_line_end();
    if (count_ == 0)
      fail(quoted(path_) + " holds no numbers (the file is empty or only whitespace)");
    return count_;
  }

 private:
  void add_char(unsigned char c) {
    if (!in_token_) {
      in_token_ = true;
      token_line_ = line_;
      text_.clear();
      length_ = 0;
      digits_ = 0;
      magnitude_ = 0;
      negative_ = false;
      malformed_ = false;
    }
    if (text_.size() < kShownTokenChars) text_.push_back(static_cast<char>(c));
    const bool sign_position = length_ == 0;
    ++length_;
    if (sign_position && (c == '+' || c == '-')) {
      negative_ = c == '-';
    } else if (c >= '0' && c <= '9') {
      ++digits_;
      // Saturate just above the int32 range; the exact size only matters for the message.
      if (magnitude_ <= (uint64_t{1} << 31)) magnitude_ = magnitude_ * 10 + (c - '0');
    } else {
      malformed_ = true;
    }
  }

  std::string shown_token() const {
    std::string s;
    for (unsigned char c : text_) s += (c >= 0x20 && c < 0x7f) ? std::string(1, c) : "\\x" + hex_byte(c).substr(2);
    if (length_ > text_.size()) s += "...";
    return s;
  }

  template <typename OnValue>
  void finish_token(OnValue& on_value) {
    in_token_ = false;
    const std::string where = quoted(path_) + " line " + std::to_string(token_line_) + ": ";
    if (malformed_ || digits_ == 0)
      fail(where + "\"" + shown_token() + "\" is not a decimal integer");
    const uint64_t limit = negative_ ? (uint64_t{1} << 31) : (uint64_t{1} << 31) - 1;
    if (magnitude_ > limit)
      fail(where + "value " + shown_token() +
           " is outside the int32 range [-2147483648, 2147483647]");
    if (count_ >= limits_.max_values)
      fail(quoted(path_) + " holds more than " + std::to_string(limits_.max_values) +
           " values (the limit; exceeded at line " + std::to_string(token_line_) + ")");
    const int64_t v = negative_ ? -static_cast<int64_t>(magnitude_) : static_cast<int64_t>(magnitude_);
    on_value(static_cast<int32_t>(v), token_line_);
    ++count_;
  }

  std::string path_;
  IntFileLimits limits_;
  std::unique_ptr<std::FILE, FileCloser> file_;
  size_t line_ = 1;
  size_t count_ = 0;
  // The token being read (it may straddle two chunks).
  bool in_token_ = false;
  size_t token_line_ = 0, length_ = 0, digits_ = 0;
  uint64_t magnitude_ = 0;
  bool negative_ = false, malformed_ = false;
  std::string text_;
};

}  // namespace

std::vector<int32_t> read_int_file(const std::string& path, const IntFileLimits& limits) {
  Scanner scanner(path, limits);
  std::vector<int32_t> values;
  scanner.scan([&](int32_t v, size_t) { values.push_back(v); }, [] {});
  values.shrink_to_fit();
  return values;
}

std::vector<int32_t> read_int_file(const std::string& path, size_t max_values) {
  IntFileLimits limits;
  limits.max_values = max_values;
  return read_int_file(path, limits);
}

IntRows read_int_rows(const std::string& path, const IntFileLimits& limits) {
  Scanner scanner(path, limits);
  IntRows rows;
  scanner.scan([&](int32_t v, size_t) { rows.values.push_back(v); },
               [&] {
                 if (rows.values.size() > rows.offsets.back()) rows.offsets.push_back(rows.values.size());
               });
  return rows;
}

}  // namespace cv

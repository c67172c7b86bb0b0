#include "block_shape.h"

#include <cerrno>
#include <cstdlib>
#include <vector>

namespace cv {

std::string to_string(const BlockShape& b) {
  std::string s = std::to_string(b.x) + "x" + std::to_string(b.y);
  if (b.z != 1) s += "x" + std::to_string(b.z);
  return s;
}

std::optional<std::string> validate(const BlockShape& b, const BlockLimits& lim,
                                    long long shared_bytes) {
  auto dim = [](const char* name, int v, int max) -> std::optional<std::string> {
    if (v < 1) return std::string("block ") + name + " = " + std::to_string(v) + " must be at least 1";
    if (v > max)
      return std::string("block ") + name + " = " + std::to_string(v) + " exceeds the limit of " +
             std::to_string(max);
    return std::nullopt;
  };
  if (auto e = dim("x", b.x, lim.max_dim_x)) return e;
  if (auto e = dim("y", b.y, lim.max_dim_y)) return e;
  if (auto e = dim("z", b.z, lim.max_dim_z)) return e;
  if (b.threads() > lim.max_threads_per_block)
    return "block " + to_string(b) + " has " + std::to_string(b.threads()) +
           " threads; the limit is " + std::to_string(lim.max_threads_per_block) + " per block";
  if (shared_bytes > lim.shared_bytes_per_block)
    return "block " + to_string(b) + " needs " + std::to_string(shared_bytes) +
           " bytes of shared memory; the limit is " + std::to_string(lim.shared_bytes_per_block);
  return std::nullopt;
}

std::optional<BlockShape> parse_block_shape(const std::string& text, std::string* error) {
  std::vector<long long> dims;
  size_t i = 0;
  auto fail = [&](const std::string& why) -> std::optional<BlockShape> {
    if (error) *error = "bad block shape '" + text + "': " + why;
    return std::nullopt;
  };
  if (text.empty()) return fail("empty");
  while (i <= text.size()) {
    size_t j = i;
    bool neg = j < text.size() && text[j] == '-';
    if (neg) ++j;
    size_t digits = j;
    while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
    if (j == digits) return fail("expected a whole number at position " + std::to_string(i + 1));
    std::string num = text.substr(i, j - i);
    errno = 0;
    long long v = std::strtoll(num.c_str(), nullptr, 10);
    if (errno == ERANGE || v > 1 << 30 || v < -(1 << 30)) return fail(num + " is out of range");
    dims.push_back(v);
    if (j == text.size()) break;
    if (text[j] != ',' && text[j] != 'x' && text[j] != 'X')
      return fail(std::string("unexpected character '") + text[j] + "'");
    i = j + 1;
    if (i == text.size()) return fail("missing number after separator");
  }
  if (dims.size() > 3) return fail("at most three dimensions (x,y,z)");
  BlockShape b;
  b.x = static_cast<int>(dims[0]);
  if (dims.size() > 1) b.y = static_cast<int>(dims[1]);
  if (dims.size() > 2) b.z = static_cast<int>(dims[2]);
  return b;
}

}  // namespace cv

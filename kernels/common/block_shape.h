#pragma once
// Block shapes chosen by the user, their validation against CUDA's rules or a
// device's own limits, and parsing of "X,Y,Z" / "XxY" text.
#include <optional>
#include <string>

namespace cv {

struct BlockShape {
  int x = 1, y = 1, z = 1;
  long long threads() const { return static_cast<long long>(x) * y * z; }
  bool operator==(const BlockShape& o) const { return x == o.x && y == o.y && z == o.z; }
  bool operator!=(const BlockShape& o) const { return !(*this == o); }
};

std::string to_string(const BlockShape& b);  // "16x16" or "16x16x2"

// The limits a block shape is checked against. The defaults are CUDA's rules for
// every current architecture, used on the CPU backend so that what works there
// also works on a GPU.
struct BlockLimits {
  int max_threads_per_block = 1024;
  int max_dim_x = 1024, max_dim_y = 1024, max_dim_z = 64;
  long long shared_bytes_per_block = 48 * 1024;
};

// nullopt when valid, else a message naming the value and the limit it breaks.
// shared_bytes is the dynamic+static shared memory the kernel needs for this shape.
std::optional<std::string> validate(const BlockShape& b, const BlockLimits& lim = {},
                                    long long shared_bytes = 0);

// Parses "X", "X,Y", "X,Y,Z", "XxY" or "XxYxZ" (positive decimal integers).
// Returns nullopt and fills *error on malformed text; range checks are validate()'s.
std::optional<BlockShape> parse_block_shape(const std::string& text, std::string* error);

}  // namespace cv

#pragma once
// A QR code of the server's address (libqrencode, Debian's libqrencode-dev),
// as a square of modules for the panel to draw.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cv::classvote {

struct QrCode {
  int size = 0;                // modules per side (21 for version 1, +4 per version)
  std::vector<uint8_t> dark;   // size * size, row by row: 1 = dark module
  bool at(int x, int y) const { return dark[static_cast<size_t>(y) * size + x] != 0; }
};

// Error correction M (15% of the code may be covered or smudged). Nullopt when
// libqrencode refuses (text too long).
std::optional<QrCode> make_qr(const std::string& text);

}  // namespace cv::classvote

#include "class/qr.h"

#include <qrencode.h>

namespace cv::classvote {

std::optional<QrCode> make_qr(const std::string& text) {
  QRcode* q = QRcode_encodeString(text.c_str(), 0, QR_ECLEVEL_M, QR_MODE_8, 1);
  if (!q) return std::nullopt;
  QrCode out;
  out.size = q->width;
  out.dark.resize(static_cast<size_t>(q->width) * q->width);
  for (size_t i = 0; i < out.dark.size(); ++i) out.dark[i] = q->data[i] & 1;  // bit 0: dark
  QRcode_free(q);
  return out;
}

}  // namespace cv::classvote

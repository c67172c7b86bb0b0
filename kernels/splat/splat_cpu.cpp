// CPU twin of the splatter, for tests: serial, same math, same integers.
#include "splat/splat.h"

namespace cv::splat {

std::vector<uint64_t> accumulate_cpu(const float4* positions, unsigned count, const View& view) {
  std::vector<uint64_t> acc(static_cast<size_t>(view.width) * static_cast<size_t>(view.height), 0);
  for (unsigned i = 0; i < count; ++i) {
    const float4 p = positions[i];
    const long long px = pixel_of(p.x, p.y, p.z, view);
    if (px >= 0) acc[static_cast<size_t>(px)] += contribution(p.w, view);
  }
  return acc;
}

std::vector<uchar4> render_cpu(const float4* positions, unsigned count, const View& view, const Style& style) {
  const std::vector<uint64_t> acc = accumulate_cpu(positions, count, view);
  std::vector<uchar4> out(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    const Rgba8 c = resolve(acc[i], style.palette, style.gain);
    out[i] = uchar4{c.r, c.g, c.b, c.a};
  }
  return out;
}

}  // namespace cv::splat

// Checks a screenshot of the fountain: it must have real content (many
// colours) and warm particle pixels (white-yellow-red by age) in the scene area
// to the right of the control panel. Exit 0 when it does.
#include <stb_image.h>

#include <cstdio>
#include <set>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: png_check FILE.png\n");
    return 2;
  }
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(argv[1], &w, &h, &n, 3);
  if (!px) {
    std::fprintf(stderr, "png_check: cannot read '%s': %s\n", argv[1], stbi_failure_reason());
    return 1;
  }
  std::set<int> colours;
  long particle = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const unsigned char* p = px + 3 * (static_cast<long>(y) * w + x);
      colours.insert(p[0] << 16 | p[1] << 8 | p[2]);
      // Particles are bright white (young) to warm red (old); the table and
      // background are dark blue-grey. Panels sit at the left and right edges.
      const bool scene_area = x > 400 && x < w - 400;
      if (scene_area && p[0] > 180 && p[0] >= p[1] && p[1] >= p[2]) ++particle;
    }
  stbi_image_free(px);
  std::printf("png_check: %dx%d, %zu colours, %ld particle pixels\n", w, h, colours.size(), particle);
  if (colours.size() < 50) {
    std::fprintf(stderr, "png_check: image is nearly uniform\n");
    return 1;
  }
  if (particle < 100) {
    std::fprintf(stderr, "png_check: no particles visible\n");
    return 1;
  }
  return 0;
}

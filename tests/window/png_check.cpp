// Checks a screenshot of a scene: it must have real content (many colours)
// and enough pixels of the scene's own colours in the scene area between the
// control panel (left) and the timing panel (right). Exit 0 when it does.
//   png_check FILE.png [fountain|swarm|nbody|pi]   (default fountain)
#include <stb_image.h>

#include <cstdio>
#include <cstring>
#include <set>
#include <string>

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: png_check FILE.png [fountain|swarm|nbody|pi]\n");
    return 2;
  }
  const std::string scene = argc == 3 ? argv[2] : "fountain";
  if (scene != "fountain" && scene != "swarm" && scene != "nbody" && scene != "pi") {
    std::fprintf(stderr, "png_check: unknown scene '%s'\n", scene.c_str());
    return 2;
  }
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(argv[1], &w, &h, &n, 3);
  if (!px) {
    std::fprintf(stderr, "png_check: cannot read '%s': %s\n", argv[1], stbi_failure_reason());
    return 1;
  }
  std::set<int> colours;
  long hits = 0, hits2 = 0;  // pi: inside (green) and outside (red); nbody: bright and blue
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const unsigned char* p = px + 3 * (static_cast<long>(y) * w + x);
      const int r = p[0], g = p[1], b = p[2];
      colours.insert(r << 16 | g << 8 | b);
      // Panels sit at the left and right edges, the collapsed labs bar at the bottom.
      if (x <= 400 || x >= w - 400 || y >= h - 50) continue;
      if (scene == "fountain") {
        // White (young) to warm red (old); the table is dark blue-grey.
        if (r > 180 && r >= g && g >= b) ++hits;
      } else if (scene == "swarm") {
        // Pale cyan (young) to violet (old); the floor's brightest rim is (97, 117, 158).
        if (b > 175 && b > r + 20 && g > 90) ++hits;
      } else if (scene == "nbody") {
        // Blue (slow), white, orange (fast) on black: bright pixels, some of them blue.
        if (r > 150 || g > 150 || b > 150) ++hits;
        if (b > 150 && b > r + 40) ++hits2;
      } else {
        if (g > 120 && g > r + 50) ++hits;
        if (r > 150 && r > g + 60) ++hits2;
      }
    }
  stbi_image_free(px);
  std::printf(
      "png_check (%s): %dx%d, %zu colours, %ld scene pixels%s\n", scene.c_str(), w, h,
      colours.size(), hits,
      scene == "pi" || scene == "nbody"
          ? (", " + std::to_string(hits2) + (scene == "pi" ? " outside" : " blue") + " pixels")
                .c_str()
          : "");
  if (colours.size() < 50) {
    std::fprintf(stderr, "png_check: image is nearly uniform\n");
    return 1;
  }
  if (hits < 100 || (scene == "pi" && hits2 < 100) || (scene == "nbody" && hits2 < 20)) {
    std::fprintf(stderr, "png_check: no %s content visible\n", scene.c_str());
    return 1;
  }
  return 0;
}

#pragma once
// The part of the framebuffer the 3D view draws into (glViewport/glScissor
// units: pixels, origin at the bottom left).
namespace cv {

struct Viewport {
  int x = 0, y = 0, w = 0, h = 0;
  float aspect() const { return h > 0 ? static_cast<float>(w) / static_cast<float>(h) : 1.f; }
  bool empty() const { return w <= 0 || h <= 0; }
};

}  // namespace cv

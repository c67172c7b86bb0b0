#pragma once
// The particle palettes, written once: the GL sprites (shaders/particles.vert
// gets a palette's stops as uniforms, render/particle_renderer) and the CUDA
// splatter and its CPU twin (splat_math.h) read the same table, so the two
// renderers cannot drift apart. A palette maps t in [0, 1] (a particle's w
// times the style's scalar scale) through three colour stops at t = 0, 0.5
// and 1, or, for a two-colour palette, splits at t = 0.5.
#include "common/hd.h"

namespace cv::palette {

// The palettes by index (ParticleStyle::Palette, splat::Style::palette).
enum class Id { FountainAge = 0, Heat = 1, InsideOutside = 2, Age = 3, Speed = 4 };
constexpr int kCount = 5;

struct Rgb {
  float r, g, b;
};
struct Ramp {
  Rgb stops[3];      // t = 0, 0.5, 1
  bool two_colours;  // t <= 0.5: stops[0], else stops[2]
};

CV_HD Ramp ramp(int which) {
  switch (which) {
    case 0:  // fountain age: white, then yellow, old red (= fountain::colour())
      return {{{1.f, 1.f, 1.f}, {1.f, 0.75f, 0.5f}, {1.f, 0.5f, 0.f}}, false};
    case 1:  // heat: blue to warm yellow
      return {{{0.25f, 0.45f, 1.f}, {0.625f, 0.65f, 0.7f}, {1.f, 0.85f, 0.4f}}, false};
    case 2:  // inside / outside: red (w <= 0.5), green
      return {{{1.f, 0.35f, 0.3f}, {1.f, 0.35f, 0.3f}, {0.35f, 0.9f, 0.45f}}, true};
    case 3:  // swarm age: young pale cyan, then violet, old dim magenta
      return {{{0.75f, 1.f, 1.f}, {0.45f, 0.5f, 1.f}, {0.55f, 0.15f, 0.55f}}, false};
    default:  // n-body speed: slow deep blue, then white, fast orange
      return {{{0.2f, 0.35f, 1.f}, {0.95f, 0.95f, 1.f}, {1.f, 0.5f, 0.1f}}, false};
  }
}

CV_HD Rgb mix(Rgb a, Rgb b, float t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

// The colour at t (clamped to [0, 1]); particles.vert's palette() is this.
CV_HD Rgb colour(int which, float t) {
  t = t < 0.f ? 0.f : (t > 1.f ? 1.f : t);
  const Ramp r = ramp(which);
  if (r.two_colours) return t > 0.5f ? r.stops[2] : r.stops[0];
  return t < 0.5f ? mix(r.stops[0], r.stops[1], t * 2.f) : mix(r.stops[1], r.stops[2], t * 2.f - 1.f);
}

}  // namespace cv::palette

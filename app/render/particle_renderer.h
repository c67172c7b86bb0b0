#pragma once
// Draws a particle vertex buffer as round, blended point sprites.
#include <glm/glm.hpp>

#include "common/palette.h"
#include "gl/gl_objects.h"

namespace cv {

// How to read and colour a scene's vertex buffer.
struct ParticleStyle {
  // The palettes' colours: kernels/common/palette.h (one table for both renderers).
  using Palette = palette::Id;
  Palette palette = Palette::FountainAge;
  float scalar_scale = 1.f;               // w * scalar_scale -> palette position in [0, 1]
  bool colours_follow_positions = false;  // float4 colours stored after `count` positions
  float point_size = 6.f;                 // pixels at distance 1
  float opacity = 0.8f;
  float hide_below = -1000.f;
  // Colour by launch: 1 block, 2 warp, 3 lane, 4 SM (insight::ColourBy) from a
  // uint32 per particle in id_vbo; 0 keeps the palette above.
  int colour_by = 0;
  GLuint id_vbo = 0;
};

class ParticleRenderer {
 public:
  ParticleRenderer();
  // accumulate: into a float target (render/density_target.h), colour * alpha
  // and alpha summed for the tone mapping; else additive glow straight into
  // the window (and, coloured by launch, nearest sprite wins).
  void draw(GLuint vbo, unsigned count, const ParticleStyle& style, const glm::mat4& view_proj,
            bool accumulate = false);
  // The alpha `count` sprites add up to, summed over their pixels, seen from
  // about `eye_distance` (sprites shrink with distance): splat::exposure's input.
  static double total_weight(const ParticleStyle& style, unsigned count, float eye_distance);

 private:
  GlProgram program_;
  GlVertexArray vao_;
  GLint u_view_proj_, u_point_size_, u_scalar_scale_, u_stops_, u_two_colours_, u_from_attr_,
      u_hide_below_,
      u_opacity_, u_colour_by_;
};

}  // namespace cv

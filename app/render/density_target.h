#pragma once
// The float target the particle sprites add into, and its tone mapping onto
// the window (shaders/density.frag). Additive blending straight into an 8-bit
// framebuffer clips every channel at 1, so from some tens of thousands of
// overlapping particles the picture turns white and the colour by age or
// speed is lost; summed in floats, colour / weight keeps the hue and the
// weight maps to brightness (exposure from splat::exposure, shared with the
// CUDA splatter).
#include <glm/glm.hpp>

#include "gl/gl_objects.h"
#include "render/viewport.h"

namespace cv {

class DensityTarget {
 public:
  DensityTarget();
  // Binds the target sized to `view` (re-allocated when the size changes),
  // cleared, with a depth buffer for the caller to fill with occluders (the
  // table) before the sprites; viewport and scissor cover the target.
  // wide: 32-bit floats. Half floats (the default: a third of the blending
  // cost on Mesa's llvmpipe) stop adding an alpha of 0.35 past a sum of 1024,
  // which the densest pixels pass at millions of particles.
  void begin(const Viewport& view, bool wide);
  // Back to the window's framebuffer, viewport and scissor at `view`, then
  // the tone-mapped picture composited over what is there.
  void resolve(const Viewport& view, float exposure);

 private:
  GlFramebuffer fbo_;
  GlTexture sum_;
  GlRenderbuffer depth_;
  GlProgram program_;
  GlVertexArray vao_;
  GLint u_sum_, u_origin_, u_exposure_;
  int w_ = 0, h_ = 0;
  bool wide_ = false;
};

}  // namespace cv

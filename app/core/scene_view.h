#pragma once
// Draws the current scene: the table top, the scene's overlay lines and the
// particles (GL point sprites, or the CUDA splatter for millions of them).
// Owns the renderers and the GL timer of the draw.
#include <memory>

#include "render/camera.h"
#include "render/line_renderer.h"
#include "render/particle_renderer.h"
#include "render/splat_renderer.h"
#include "render/table_renderer.h"
#include "scenes/particle_scene.h"
#include "timing/frame_timers.h"
#include "ui/panels.h"

namespace cv {

class SceneView {
 public:
  // Clears the framebuffer and draws `scene`; records draw (and splat) times in `ui`.
  void draw(ParticleScene& scene, const OrbitCamera& camera, UiState& ui, int fb_w, int fb_h);

 private:
  // Runs the splatter's CUDA part; false (and sprites from now on) if it fails.
  bool splat(ParticleScene& scene, UiState& ui, const glm::mat4& view_proj, int fb_w, int fb_h);

  ParticleRenderer particles_;
  TableRenderer table_;
  LineRenderer lines_;
  std::unique_ptr<SplatRenderer> splat_;  // created on first use (CUDA backend only)
  GlTimerRing draw_timer_;
};

}  // namespace cv

#pragma once
// Draws the current scene: the table top, the scene's overlay lines and the
// particles (GL point sprites, or the CUDA splatter for millions of them).
// Owns the renderers and the GL timer of the draw.
#include <memory>

#include "render/camera.h"
#include "render/density_target.h"
#include "render/line_renderer.h"
#include "render/particle_renderer.h"
#include "render/splat_renderer.h"
#include "render/table_renderer.h"
#include "render/viewport.h"
#include "scenes/particle_scene.h"
#include "timing/frame_timers.h"
#include "ui/layout.h"
#include "ui/panels.h"

namespace cv {

// Where the 3D view goes in a framebuffer of fb_w x fb_h for a window of
// win_w x win_h: the layout's free rectangle (ui::free_rect), scaled to the
// framebuffer and flipped to GL's bottom-left origin; the whole framebuffer
// when the panels are hidden or not planned yet for this window size.
Viewport scene_viewport(const ui::Rect& free, float planned_w, float planned_h, bool panels_hidden,
                        int fb_w, int fb_h, int win_w, int win_h);

class SceneView {
 public:
  // interop: the configuration's, for the splatter's image buffer.
  explicit SceneView(const InteropConfig& interop) : interop_(interop) {}
  // Clears the framebuffer and draws `scene` into `view` (glViewport and
  // glScissor); records draw (and splat) times in `ui`.
  void draw(ParticleScene& scene, const OrbitCamera& camera, UiState& ui, const Viewport& view);

 private:
  // Runs the splatter's CUDA part; false (and sprites from now on) if it fails.
  bool splat(ParticleScene& scene, UiState& ui, const glm::mat4& view_proj, const Viewport& view);

  // Palette colours: sprites summed in a float target, then tone-mapped.
  void draw_tone_mapped(ParticleScene& scene, const ParticleStyle& style,
                        const glm::mat4& view_proj, float eye_distance, const Viewport& view);

  InteropConfig interop_;
  ParticleRenderer particles_;
  std::unique_ptr<DensityTarget> density_;  // created on first use
  bool density_ok_ = true;                  // false once the float target failed
  TableRenderer table_;
  LineRenderer lines_;
  std::unique_ptr<SplatRenderer> splat_;  // created on first use (CUDA backend only)
  GlTimerRing draw_timer_;
};

}  // namespace cv

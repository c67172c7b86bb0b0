#include "core/scene_view.h"

#include <cuda_runtime_api.h>
#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gl/gl_check.h"
#include <string>

namespace cv {
namespace {

// Whether this frame draws with the CUDA splatter; says why not when the user
// asked for it and it cannot be used.
bool wants_splat(UiState& ui, ParticleScene& scene, const ParticleStyle& style) {
  if (ui.settings.renderer == UiState::Renderer::Sprites) return false;
  const bool asked = ui.settings.renderer == UiState::Renderer::Splat;
  ui.stats.renderer_message.clear();
  if (scene.backend() != Backend::Cuda || !scene.vertex_buffer()) {
    if (asked)
      ui.stats.renderer_message = "the splatter needs the CUDA backend: drawing point sprites";
    return false;
  }
  if (style.colour_by > 0) {
    if (asked)
      ui.stats.renderer_message =
          "colour by launch reads the ids as a vertex attribute: drawing point sprites";
    return false;
  }
  if (style.colours_follow_positions) {
    if (asked)
      ui.stats.renderer_message =
          "this scene stores colours beside positions, which the splatter does not read: "
          "drawing point sprites";
    return false;
  }
  return asked || scene.count() >= kSplatAutoCount;
}

}  // namespace

Viewport scene_viewport(const ui::Rect& free, float planned_w, float planned_h, bool panels_hidden,
                        int fb_w, int fb_h, int win_w, int win_h) {
  const Viewport whole{0, 0, fb_w, fb_h};
  if (panels_hidden || free.w < 1 || free.h < 1 || win_w <= 0 || win_h <= 0) return whole;
  // A plan for another window size (the frame after a resize) would misplace it.
  if (std::fabs(planned_w - win_w) > 0.5f || std::fabs(planned_h - win_h) > 0.5f) return whole;
  const float sx = static_cast<float>(fb_w) / win_w, sy = static_cast<float>(fb_h) / win_h;
  const int x0 = std::clamp(static_cast<int>(std::lround(free.x * sx)), 0, fb_w);
  const int x1 = std::clamp(static_cast<int>(std::lround((free.x + free.w) * sx)), x0, fb_w);
  const int top = std::clamp(static_cast<int>(std::lround(free.y * sy)), 0, fb_h);
  const int bottom = std::clamp(static_cast<int>(std::lround((free.y + free.h) * sy)), top, fb_h);
  const Viewport v{x0, fb_h - bottom, x1 - x0, bottom - top};
  return v.empty() ? whole : v;
}

bool SceneView::splat(ParticleScene& scene, UiState& ui, const glm::mat4& view_proj,
                      const Viewport& view) {
  // CUDA work first (its own events); the composite is part of the GL draw.
  try {
    if (!splat_) splat_ = std::make_unique<SplatRenderer>(interop_);
    for (float ms : splat_->poll_times()) ui.stats.splat_ms.push(ms);
    for (float ms : splat_->poll_map_times()) ui.stats.splat_map_ms.push(ms);
    for (float ms : splat_->poll_kernel_times()) ui.stats.splat_kernel_ms.push(ms);
    // The splatter hides what the table top covers, for a table at y = 0.
    const SceneDecor::Floor floor = floor_of(scene);
    const float occluder = floor.height == 0.f ? floor.radius : 0.f;
    splat_->render(*scene.vertex_buffer(), scene.count(), scene.style(), view_proj, occluder,
                   view.w, view.h, scene.cuda_stream());
    // Outside the draw timer: GL waits here for the splat's unmap.
    for (float ms : splat_->poll_upload_times()) ui.stats.splat_upload_ms.push(ms);
    splat_->upload();
    ui.stats.splat_sync_wait_ms.push(splat_->take_sync_wait_ms());
    ui.stats.splat_transfer = to_string(splat_->transfer_mode());
    return true;
  } catch (const std::exception& e) {
    cudaGetLastError();
    ui.settings.renderer = UiState::Renderer::Sprites;
    ui.stats.renderer_message = std::string("splatter failed, drawing point sprites: ") + e.what();
    std::fprintf(stderr, "cudaviz: %s\n", ui.stats.renderer_message.c_str());
    return false;
  }
}

void SceneView::draw_tone_mapped(ParticleScene& scene, const ParticleStyle& style,
                                 const glm::mat4& view_proj, float eye_distance,
                                 const Viewport& view) {
  try {
    if (!density_) density_ = std::make_unique<DensityTarget>();
    density_->begin(view, scene.count() >= kSplatAutoCount);
    // The table's depth only, so it hides the particles below it there too.
    const SceneDecor::Floor floor = floor_of(scene);
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    if (floor.radius > 0) table_.draw(floor.radius, view_proj, floor.height);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    particles_.draw(scene.vbo(), scene.count(), style, view_proj, true);
    const double weight = ParticleRenderer::total_weight(style, scene.count(), eye_distance);
    density_->resolve(view, splat::exposure(weight, static_cast<double>(view.w) * view.h,
                                            SplatRenderer::kMaxGain));
  } catch (const GlError& e) {
    // No float target here: plain additive sprites from now on, and say so.
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glViewport(view.x, view.y, view.w, view.h);
    glScissor(view.x, view.y, view.w, view.h);
    density_ok_ = false;
    std::fprintf(stderr, "cudaviz: %s: drawing additive sprites\n", e.what());
    particles_.draw(scene.vbo(), scene.count(), style, view_proj);
  }
}

void SceneView::draw(ParticleScene& scene, const OrbitCamera& camera, UiState& ui,
                     const Viewport& view) {
  for (float ms : draw_timer_.poll()) ui.stats.draw_ms.push(ms);
  glDisable(GL_SCISSOR_TEST);  // the clear covers the whole window, the panels' background too
  glClearColor(0.03f, 0.035f, 0.05f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glViewport(view.x, view.y, view.w, view.h);
  glScissor(view.x, view.y, view.w, view.h);
  glEnable(GL_SCISSOR_TEST);  // sprites' rims never reach past the view
  const glm::mat4 view_proj = camera.view_proj(view.aspect());
  const ParticleStyle style = scene.styled();
  ui.stats.splat_active = wants_splat(ui, scene, style) && splat(scene, ui, view_proj, view);
  draw_timer_.begin();
  const SceneDecor::Floor floor = floor_of(scene);
  if (floor.radius > 0) table_.draw(floor.radius, view_proj, floor.height);
  for (const auto& line : overlay_of(scene)) lines_.draw(line.points, line.colour, view_proj);
  if (ui.stats.splat_active) {
    splat_->draw(view.x, view.y);
  } else {
    // GL reads the particles from here on: the explicit wait for the GPU's
    // last write of them (external interop; the splatter orders on the GPU).
    scene.wait_for_gpu();
    if (style.colour_by > 0 || !density_ok_)
      particles_.draw(scene.vbo(), scene.count(), style, view_proj);  // ids: nearest wins
    else
      draw_tone_mapped(scene, style, view_proj, camera.distance, view);
  }
  draw_timer_.end();
  glDisable(GL_SCISSOR_TEST);
}

}  // namespace cv

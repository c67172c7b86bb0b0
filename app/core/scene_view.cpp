#include "core/scene_view.h"

#include <cuda_runtime_api.h>
#include <glad/gl.h>

#include <cstdio>
#include <string>

namespace cv {
namespace {

// Whether this frame draws with the CUDA splatter; says why not when the user
// asked for it and it cannot be used.
bool wants_splat(UiState& ui, ParticleScene& scene, const ParticleStyle& style) {
  if (ui.renderer == UiState::Renderer::Sprites) return false;
  const bool asked = ui.renderer == UiState::Renderer::Splat;
  ui.renderer_message.clear();
  if (scene.backend() != Backend::Cuda || !scene.vertex_buffer()) {
    if (asked) ui.renderer_message = "the splatter needs the CUDA backend: drawing point sprites";
    return false;
  }
  if (style.colour_by > 0) {
    if (asked) ui.renderer_message = "colour by launch reads the ids as a vertex attribute: drawing point sprites";
    return false;
  }
  if (style.colours_follow_positions) {
    if (asked)
      ui.renderer_message =
          "this scene stores colours beside positions, which the splatter does not read: "
          "drawing point sprites";
    return false;
  }
  return asked || scene.count() >= kSplatAutoCount;
}

}  // namespace

bool SceneView::splat(ParticleScene& scene, UiState& ui, const glm::mat4& view_proj, int fb_w,
                      int fb_h) {
  // CUDA work first (its own events); the composite is part of the GL draw.
  try {
    if (!splat_) splat_ = std::make_unique<SplatRenderer>();
    for (float ms : splat_->poll_times()) ui.splat_ms.push(ms);
    for (float ms : splat_->poll_map_times()) ui.splat_map_ms.push(ms);
    for (float ms : splat_->poll_kernel_times()) ui.splat_kernel_ms.push(ms);
    // The splatter hides what the table top covers, for a table at y = 0.
    const ParticleScene::Floor floor = scene.floor();
    const float occluder = floor.height == 0.f ? floor.radius : 0.f;
    splat_->render(*scene.vertex_buffer(), scene.count(), scene.style(), view_proj, occluder, fb_w,
                   fb_h, scene.cuda_stream());
    // Outside the draw timer: GL waits here for the splat's unmap.
    for (float ms : splat_->poll_upload_times()) ui.splat_upload_ms.push(ms);
    splat_->upload();
    ui.splat_sync_wait_ms.push(splat_->take_sync_wait_ms());
    ui.splat_transfer = to_string(splat_->transfer_mode());
    return true;
  } catch (const std::exception& e) {
    cudaGetLastError();
    ui.renderer = UiState::Renderer::Sprites;
    ui.renderer_message = std::string("splatter failed, drawing point sprites: ") + e.what();
    std::fprintf(stderr, "cudaviz: %s\n", ui.renderer_message.c_str());
    return false;
  }
}

void SceneView::draw(ParticleScene& scene, const OrbitCamera& camera, UiState& ui, int fb_w,
                     int fb_h) {
  for (float ms : draw_timer_.poll()) ui.draw_ms.push(ms);
  glViewport(0, 0, fb_w, fb_h);
  glClearColor(0.03f, 0.035f, 0.05f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  const glm::mat4 view_proj = camera.view_proj(static_cast<float>(fb_w) / static_cast<float>(fb_h));
  const ParticleStyle style = scene.styled();
  ui.splat_active = wants_splat(ui, scene, style) && splat(scene, ui, view_proj, fb_w, fb_h);
  draw_timer_.begin();
  const ParticleScene::Floor floor = scene.floor();
  if (floor.radius > 0) table_.draw(floor.radius, view_proj, floor.height);
  for (const auto& line : scene.overlay()) lines_.draw(line.points, line.colour, view_proj);
  if (ui.splat_active)
    splat_->draw();
  else
    particles_.draw(scene.vbo(), scene.count(), style, view_proj);
  draw_timer_.end();
}

}  // namespace cv

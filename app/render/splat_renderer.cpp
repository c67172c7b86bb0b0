#include "render/splat_renderer.h"

#include <string>

#include "embedded_shaders.h"
#include "gl/gl_check.h"
#include "gl/shader_program.h"
#include "render/splat_view.h"

namespace cv {

SplatRenderer::SplatRenderer()
    : program_(build_program("splat", shaders::splat_vert, shaders::splat_frag)),
      vao_(make_vertex_array()) {
  interop_ = interop_config_from_env();
  glGenTextures(1, &texture_);
  check_gl("glGenTextures(splat)");
}

SplatRenderer::~SplatRenderer() {
  glDeleteTextures(1, &texture_);
}

void SplatRenderer::resize(int width, int height, Backend backend) {
  if (width == width_ && height == height_ && image_) return;
  image_.reset();  // release before allocating the new size
  image_ = std::make_unique<InteropBuffer>(static_cast<size_t>(width) * height * 4, backend,
                                           interop_.start, !interop_.single);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
  check_gl("glTexImage2D(splat image)");
  width_ = width;
  height_ = height;
}

void SplatRenderer::render(InteropBuffer& vertices, unsigned count, const ParticleStyle& style,
                           const glm::mat4& view_proj, float table_radius, int width, int height,
                           cudaStream_t stream) {
  if (width <= 0 || height <= 0) return;
  resize(width, height, Backend::Cuda);

  splat::View v = splat_view(view_proj, width, height);
  v.table_radius = table_radius;
  v.scalar_scale = style.scalar_scale;
  v.hide_below = style.hide_below;
  // Exposure from the count and the image size (splat_math.h): hits are one pixel each.
  const splat::Style st{static_cast<int>(style.palette),
                        splat::exposure(count, static_cast<double>(width) * height, kMaxGain)};

  timer_.begin(stream);
  map_timer_.begin(stream);
  auto points = vertices.map(stream, InteropBuffer::Access::ReadOnly);
  auto image = image_->map_next(stream);  // every pixel is written: write-discard
  map_timer_.end(stream);
  kernel_timer_.begin(stream);
  splatter_.render(static_cast<const float4*>(points.device_ptr()), count, v, st,
                   static_cast<uchar4*>(image.device_ptr()), block, stream);
  kernel_timer_.end(stream);
  image.unmap();
  points.unmap();
  timer_.end(stream);
}

void SplatRenderer::upload() {
  if (!image_) return;
  upload_timer_.begin();
  image_->wait_for_gpu();  // GL reads the image next: the splat's write must be done
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, image_->vbo());
  glBindTexture(GL_TEXTURE_2D, texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glBindTexture(GL_TEXTURE_2D, 0);
  upload_timer_.end();
  check_gl("SplatRenderer::upload");
}

void SplatRenderer::draw(int x, int y) {
  if (!image_) return;
  glBindTexture(GL_TEXTURE_2D, texture_);
  glUseProgram(program_.get());
  glActiveTexture(GL_TEXTURE0);
  glUniform1i(glGetUniformLocation(program_.get(), "u_image"), 0);
  glUniform2i(glGetUniformLocation(program_.get(), "u_origin"), x, y);
  glBindVertexArray(vao_.get());
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);  // premultiplied "over", like the sprites' tone map
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glDisable(GL_BLEND);
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_2D, 0);
  check_gl("SplatRenderer::draw");
}

}  // namespace cv

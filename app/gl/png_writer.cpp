#include "gl/png_writer.h"

#include <glad/gl.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "gl/gl_check.h"

#include <stb_image_write.h>  // implementation from libstb (libstb-dev)

namespace cv {

void write_framebuffer_png(const std::string& path, int width, int height) {
  if (width <= 0 || height <= 0) throw std::runtime_error("screenshot: the window has no area (minimized?)");
  std::vector<unsigned char> pixels(static_cast<size_t>(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  check_gl("glReadPixels(screenshot)");
  // GL's origin is bottom-left; PNG rows go top-down.
  stbi_flip_vertically_on_write(1);
  const std::string tmp = path + ".part";
  if (!stbi_write_png(tmp.c_str(), width, height, 4, pixels.data(), width * 4)) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw std::runtime_error("screenshot: cannot write '" + path + "': " + std::strerror(err));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw std::runtime_error("screenshot: cannot rename to '" + path + "': " + std::strerror(err));
  }
}

}  // namespace cv

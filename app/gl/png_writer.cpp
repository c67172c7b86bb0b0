#include "gl/png_writer.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "gl/pixel_readback.h"
#include "io/atomic_file.h"

#include <stb_image_write.h>  // implementation from libstb (libstb-dev)

namespace cv {

void write_framebuffer_png(const std::string& path, int width, int height) {
  if (width <= 0 || height <= 0)
    throw std::runtime_error("screenshot: the window has no area (minimized?)");
  std::vector<unsigned char> pixels(static_cast<size_t>(width) * height * 4);
  read_back_buffer(width, height, pixels.data(), "glReadPixels(screenshot)");
  // GL's origin is bottom-left; PNG rows go top-down.
  stbi_flip_vertically_on_write(1);
  // Encode in memory, then write the bytes atomically: a full disk or a
  // read-only directory leaves no half-written PNG behind.
  std::string png;
  png.reserve(pixels.size() / 4);
  auto append = [](void* ctx, void* data, int size) {
    static_cast<std::string*>(ctx)->append(static_cast<const char*>(data), size);
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 4, pixels.data(), width * 4))
    throw std::runtime_error("screenshot: cannot encode '" + path + "' as PNG");
  try {
    write_file_atomically(path, png);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("screenshot: ") + e.what());
  }
}

}  // namespace cv

#include "challenge/starter_cache.h"

#include <stdexcept>

#include "usercode/templates/template_registry.h"

namespace cv::challenge {

namespace fs = std::filesystem;

std::string StarterCache::get(const usercode::TemplateSpec& t, const PathConfig& paths) {
  std::lock_guard<std::mutex> lock(mu_);
  Entry& e = by_template_[t.name];
  std::error_code ec;
  if (!e.path.empty()) {
    const auto mtime = fs::last_write_time(e.path, ec);
    const auto size = ec ? 0 : fs::file_size(e.path, ec);
    if (!ec && mtime == e.mtime && size == e.size) return e.text;
  }
  // First time, changed or gone: where the file is now (as read_template_source finds it), read again.
  const fs::path file(t.file);
  e.path = file.is_absolute() ? file.string() : (fs::path(usercode::kernel_dir(paths)) / file).string();
  e.mtime = fs::last_write_time(e.path, ec);
  e.size = ec ? 0 : fs::file_size(e.path, ec);
  try {
    e.text = usercode::read_template_source(t, paths);
    ++reads_;
  } catch (...) {
    e.path.clear();  // read again next time
    throw;
  }
  if (ec) e.path.clear();  // no time to compare: read again next time
  return e.text;
}

int StarterCache::reads() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reads_;
}

}  // namespace cv::challenge

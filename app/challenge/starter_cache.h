#pragma once
// The templates' starting files as the challenge page asks for them (every
// GET /api/challenge): read once, read again only when the file changed (its
// modification time or size; a teacher may edit a template while the app
// runs). Thread-safe: the server's threads share one.
#include <filesystem>
#include <map>
#include <mutex>
#include <string>

#include "config/config.h"

namespace cv::usercode {
struct TemplateSpec;
}

namespace cv::challenge {

class StarterCache {
 public:
  // The template's starting file; throws std::runtime_error naming the path
  // when it cannot be read (as usercode::read_template_source).
  std::string get(const usercode::TemplateSpec& t, const PathConfig& paths);
  int reads() const;  // files read so far (tests)

 private:
  struct Entry {
    std::string path, text;
    std::filesystem::file_time_type mtime{};
    std::uintmax_t size = 0;
  };
  mutable std::mutex mu_;
  std::map<std::string, Entry> by_template_;
  int reads_ = 0;
};

}  // namespace cv::challenge

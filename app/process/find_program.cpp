#include "process/find_program.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

namespace cv {

std::optional<std::string> find_on_path(const std::string& name, const char* path_env) {
  if (!path_env) return std::nullopt;
  const std::string path = path_env;
  size_t start = 0;
  while (start <= path.size()) {
    const size_t colon = path.find(':', start);
    std::string dir = path.substr(start, colon == std::string::npos ? colon : colon - start);
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return std::nullopt;
}

std::string find_helper(const std::string& name, const std::string& override_path,
                        const std::string& build_path, std::vector<std::string>* tried) {
  namespace fs = std::filesystem;
  std::vector<std::string> looked;
  auto usable = [&](const std::string& p) {
    if (access(p.c_str(), X_OK) == 0) return true;
    looked.push_back(p);
    return false;
  };
  std::string found;
  if (!override_path.empty() && usable(override_path)) found = override_path;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (found.empty() && !ec) {
    const fs::path beside = self.parent_path() / name;
    const fs::path installed = self.parent_path().parent_path() / "lib" / "cudaviz" / name;
    if (usable(beside.string())) found = beside.string();
    else if (usable(installed.string())) found = installed.string();
  }
  if (found.empty() && !build_path.empty() && usable(build_path)) found = build_path;
  if (tried) *tried = std::move(looked);
  return found;
}

}  // namespace cv

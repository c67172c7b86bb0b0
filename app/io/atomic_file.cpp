#include "io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace cv {
namespace {

[[noreturn]] void fail(const std::string& verb, const std::string& path, int err) {
  throw std::runtime_error("cannot " + verb + " '" + path + "': " + std::strerror(err));
}

// The directory part of `path` ("." for a bare name), for the temporary.
std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view bytes) {
  if (path.empty()) throw std::runtime_error("cannot write '': the file name is empty");
  // A hidden name in the target's directory: rename() is atomic only within one filesystem.
  const std::string base = path.substr(path.find_last_of('/') + 1);
  std::string tmpl = directory_of(path) + "/." + base + ".tmp-XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail("write", path, errno);
  const std::string tmp(name.data());
  auto abandon = [&](int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    fail("write", path, err);
  };
  const char* p = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      abandon(errno);
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  // mkstemp creates 0600; give the file the permissions a plain fopen would.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd, 0666 & ~mask) != 0) abandon(errno);
  // Durable before it becomes visible: a crash after rename must not leave an empty file.
  if (::fsync(fd) != 0) abandon(errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail("write", path, err);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail("write", path, err);
  }
}

std::string read_file(const std::string& path, size_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail("read", path, errno);
  if (S_ISDIR(st.st_mode)) fail("read", path, EISDIR);
  if (S_ISREG(st.st_mode) && static_cast<unsigned long long>(st.st_size) > max_bytes)
    throw std::runtime_error("cannot read '" + path + "': " + std::to_string(st.st_size) +
                             " bytes is over the limit of " + std::to_string(max_bytes) + " bytes");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("read", path, errno ? errno : EACCES);
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) fail("read", path, errno ? errno : EIO);
  return s.str();
}

std::string read_file_or_empty(const std::string& path) {
  try {
    return read_file(path);
  } catch (const std::runtime_error&) {
    return "";
  }
}

void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail("write", path, errno ? errno : EACCES);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) fail("write", path, errno ? errno : EIO);
}

}  // namespace cv

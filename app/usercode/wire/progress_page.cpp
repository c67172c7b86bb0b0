#include "usercode/wire/progress_page.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace cv::usercode {
namespace {

constexpr size_t kBytes = 4096;

ProgressCounters* map_page(int fd) {
  void* p = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) throw std::runtime_error(std::string("mmap(progress page): ") + std::strerror(errno));
  return static_cast<ProgressCounters*>(p);
}

}  // namespace

ProgressPage::ProgressPage() {
  fd_ = memfd_create("cudaviz-progress", MFD_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error(std::string("memfd_create(progress page): ") + std::strerror(errno));
  if (ftruncate(fd_, kBytes) != 0) {
    const int e = errno;
    close(fd_);
    throw std::runtime_error(std::string("ftruncate(progress page): ") + std::strerror(e));
  }
  try {
    counters_ = new (map_page(fd_)) ProgressCounters();
  } catch (...) {
    close(fd_);
    throw;
  }
}

ProgressPage::ProgressPage(int fd) : counters_(map_page(fd)) {
  static_assert(sizeof(ProgressCounters) <= kBytes, "the counters fit the page");
}

ProgressPage::~ProgressPage() {
  munmap(counters_, kBytes);
  if (fd_ >= 0) close(fd_);
}

}  // namespace cv::usercode

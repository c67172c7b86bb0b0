#include "io/file_watch.h"

#include <sys/stat.h>

namespace cv {

FileStamp stamp_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  FileStamp s;
  s.exists = true;
  s.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  s.size = static_cast<int64_t>(st.st_size);
  s.inode = static_cast<uint64_t>(st.st_ino);
  return s;
}

void FileWatch::known(const FileStamp& s) {
  known_ = asked_about_ = s;
  asking_ = false;
}

bool FileWatch::due(double now_s) {
  if (now_s < next_s_) return false;
  next_s_ = now_s + period_s_;
  return true;
}

DiskChange FileWatch::poll(const FileStamp& now, bool dirty) {
  if (now == known_) {
    asking_ = false;  // back as it was (an editor's undo of the save)
    return DiskChange::None;
  }
  if (!now.exists) {
    known_ = asked_about_ = now;  // said once; a new file there is a change again
    asking_ = false;
    return DiskChange::Gone;
  }
  if (!dirty) {
    asking_ = false;
    return DiskChange::Reload;  // the caller reloads and calls known()
  }
  if (asking_ && now == asked_about_) return DiskChange::None;  // still waiting for the answer
  asked_about_ = now;
  asking_ = true;
  return DiskChange::Ask;
}

}  // namespace cv

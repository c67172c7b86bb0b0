#pragma once
// Noticing that a file changed on disk (a student saving from their own
// editor) and deciding what to do about it. The stamp comes from stat(); the
// decision is a pure state machine so tests can walk every path:
//   unchanged -> nothing; changed and no unsaved edits -> reload;
//   changed with unsaved edits -> ask (once per change on disk);
//   gone -> say so once (saving writes it again).
#include <cstdint>
#include <string>

namespace cv {

// What stat() says about a file: enough to see a save, an in-place rewrite or
// a rename over it (editors that save atomically change the inode).
struct FileStamp {
  bool exists = false;
  int64_t mtime_ns = 0;
  int64_t size = 0;
  uint64_t inode = 0;
  bool operator==(const FileStamp& o) const {
    return exists == o.exists && mtime_ns == o.mtime_ns && size == o.size && inode == o.inode;
  }
  bool operator!=(const FileStamp& o) const { return !(*this == o); }
};
FileStamp stamp_of(const std::string& path);  // exists = false when stat fails

enum class DiskChange {
  None,
  Reload,  // changed, no unsaved edits: take the new content
  Ask,     // changed while the buffer has unsaved edits: the user chooses
  Gone,    // deleted or moved away
};

class FileWatch {
 public:
  explicit FileWatch(double period_s = 1.0) : period_s_(period_s) {}
  // The file as the buffer knows it: just loaded, saved or reloaded.
  void known(const FileStamp& s);
  // Time for another stat()? Once per period (now in seconds, any clock).
  bool due(double now_s);
  // What a fresh stamp means; `dirty`: the buffer has unsaved edits.
  DiskChange poll(const FileStamp& now, bool dirty);
  // The user kept their edits: ask again only when the file changes again.
  void keep_mine() { known_ = asked_about_, asking_ = false; }
  bool asking() const { return asking_; }

 private:
  FileStamp known_, asked_about_;
  bool asking_ = false;
  double period_s_, next_s_ = -1;
};

}  // namespace cv

#pragma once
// The editor's undo: whole-text snapshots taken at the edges of an edit
// (the text field left, a pause in typing, before a load, a reload or a
// template replaces the text), so replacing the text is undoable too and
// nothing a student typed is lost. ImGui's own undo still works inside one
// typing session; this one works across them. Bounded in bytes: the oldest
// snapshots go first, the current one always stays.
#include <cstddef>
#include <deque>
#include <optional>
#include <string>

namespace cv::code {

class TextHistory {
 public:
  explicit TextHistory(size_t max_bytes = size_t{32} << 20) : max_bytes_(max_bytes) {}
  // One state and nothing to undo (a file opened).
  void reset(const std::string& text);
  // A new state when `text` differs from the current one; the states that
  // redo would have brought back are dropped.
  void commit(const std::string& text);
  // The state before (after) `current`, which is committed first when it is
  // new; nothing when there is none.
  std::optional<std::string> undo(const std::string& current);
  std::optional<std::string> redo(const std::string& current);
  bool can_undo(const std::string& current) const;
  bool can_redo(const std::string& current) const;
  size_t states() const { return states_.size(); }

 private:
  void trim();
  std::deque<std::string> states_;
  size_t at_ = 0;  // the current state's index
  size_t bytes_ = 0;
  size_t max_bytes_;
};

}  // namespace cv::code

#include "widgets/text_history.h"

namespace cv::code {

void TextHistory::reset(const std::string& text) {
  states_.assign(1, text);
  at_ = 0;
  bytes_ = text.size();
}

void TextHistory::commit(const std::string& text) {
  if (states_.empty()) return reset(text);
  if (states_[at_] == text) return;
  while (states_.size() > at_ + 1) {
    bytes_ -= states_.back().size();
    states_.pop_back();
  }
  states_.push_back(text);
  bytes_ += text.size();
  at_ = states_.size() - 1;
  trim();
}

void TextHistory::trim() {
  while (bytes_ > max_bytes_ && states_.size() > 1 && at_ > 0) {
    bytes_ -= states_.front().size();
    states_.pop_front();
    --at_;
  }
}

std::optional<std::string> TextHistory::undo(const std::string& current) {
  commit(current);
  if (at_ == 0) return std::nullopt;
  return states_[--at_];
}

std::optional<std::string> TextHistory::redo(const std::string& current) {
  // Edits since the last undo are a new branch: nothing to redo.
  if (states_.empty() || states_[at_] != current || at_ + 1 >= states_.size())
    return std::nullopt;
  return states_[++at_];
}

bool TextHistory::can_undo(const std::string& current) const {
  return !states_.empty() && (at_ > 0 || states_[at_] != current);
}

bool TextHistory::can_redo(const std::string& current) const {
  return !states_.empty() && states_[at_] == current && at_ + 1 < states_.size();
}

}  // namespace cv::code

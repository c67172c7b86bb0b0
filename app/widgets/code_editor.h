#pragma once
// A source editor built from ImGui 1.86's own multiline text field (no editor
// widget is packaged): the field sits in a scrolling view beside a gutter of
// line numbers and its text is drawn again in syntax colours (code_syntax.h)
// from a palette per theme (ui::theme()); compiler messages are marked at
// their lines (a coloured dot in the gutter, the line tinted, the message
// after the line and in a tooltip); a list of them jumps to the line (scrolls
// and puts the cursor there); Ctrl+F finds with every match tinted; the
// bracket matching the one at the cursor is boxed; Enter indents, Tab /
// Shift+Tab indent and unindent the selected lines, Ctrl+/ toggles //
// comments on them (code_edit.h); undo is one history of whole-text states,
// inside the field too (widgets/text_history.h). Knows nothing of files or
// compilers.
#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "widgets/code_edit.h"
#include "widgets/code_syntax.h"
#include "widgets/code_text.h"
#include "widgets/text_history.h"

namespace cv::ui {

class CodeEditor {
 public:
  explicit CodeEditor(bool read_only = false) : read_only_(read_only) {}

  // Replaces the text, undoably (a template, a reload); the cursor goes to the top.
  void set_text(const std::string& text);
  // Replaces the text and forgets the history (a file opened).
  void reset_text(const std::string& text);
  const std::string& text() const { return text_; }
  uint64_t version() const { return version_; }  // bumped by every change

  void set_marks(std::vector<code::Mark> marks);
  const std::vector<code::Mark>& marks() const { return marks_; }
  // Scrolls to `line` and puts the cursor at its start; the field takes the keyboard.
  void go_to(int line);

  bool undo();
  bool redo();
  bool can_undo() const { return !read_only_ && history_.can_undo(text_); }
  bool can_redo() const { return !read_only_ && history_.can_redo(text_); }

  // The gutter and the text in a child window of `size` (ImGui's rules: 0 =
  // what is available). Keys, while the window holding it has focus: Ctrl+F
  // find, Ctrl+Z / Ctrl+Y (Ctrl+Shift+Z) undo and redo, Ctrl+Enter asks to run
  // (take_run_request), Escape leaves the field keeping the edits; in the
  // field: Tab, Shift+Tab, Ctrl+/ and Enter as above.
  void draw(const char* id, const ImVec2& size);
  bool take_run_request();
  // The find row: field (Enter: next, Shift+Enter: previous), buttons, count.
  void open_find();
  bool find_open() const { return find_open_; }
  int match_count() const { return static_cast<int>(matches_.size()); }
  int current_match() const { return current_match_; }  // -1: none chosen
  void draw_find_bar();
  // The marks, one wrapped row each ("line 12  error: ..."); a click jumps.
  void draw_marks_list();

  // The current theme's colour for a kind of text (a legend; tests).
  static ImU32 colour_of(code::Syntax kind);

  int cursor_line() const { return index_.line_of(static_cast<size_t>(cursor_)); }
  int line_count() const { return index_.count(); }

 private:
  static int on_text_event(ImGuiInputTextCallbackData* d);
  // Puts a command's result in the field (inside its callback), one undo step.
  void apply_command(ImGuiInputTextCallbackData* d, const code::Edited& e);
  void replace_at_change(const std::string& text);  // undo/redo
  void changed();   // after any change of text_: index, matches, version
  void replace(const std::string& text);  // set_text/undo/redo: a new field id
  void handle_keys(bool field_active);
  void commit_if_idle(bool leaving);
  void select_match(int i, bool move_cursor);

  struct Geometry;
  void draw_backgrounds(const Geometry& g);
  void draw_text(const Geometry& g);
  void draw_gutter(const Geometry& g);
  void draw_inline_marks(const Geometry& g);
  void follow_cursor(const Geometry& g);
  void tooltip_for_hovered_line(const Geometry& g);

  bool read_only_;
  std::string text_;
  uint64_t version_ = 0;
  code::LineIndex index_;
  std::vector<code::Run> runs_;  // the syntax colours of text_
  code::TextHistory history_;
  float longest_px_ = 0, measured_font_ = 0;
  uint64_t measured_version_ = ~uint64_t{0};

  std::vector<code::Mark> marks_;
  std::map<int, code::LineMarks> by_line_;

  int generation_ = 0;     // part of the field's id: a new one drops ImGui's stale state
  bool field_active_ = false;
  int cursor_ = 0, sel_begin_ = 0, sel_end_ = 0, last_cursor_ = -1;
  int want_cursor_ = -1, want_sel_end_ = -1;  // applied by the field's callback
  bool focus_field_ = false;
  int scroll_to_line_ = 0;
  double last_edit_s_ = -1;  // a pause in typing commits a snapshot
  bool uncommitted_ = false;
  bool run_request_ = false;
  bool command_applied_ = false;  // Tab, Shift+Tab or Ctrl+/ changed the text this frame
  double blink_from_s_ = 0;       // the cursor's blink restarts at every move

  bool find_open_ = false, focus_find_ = false, match_case_ = false;
  std::string find_;
  std::vector<size_t> matches_;
  int current_match_ = -1;
};

}  // namespace cv::ui

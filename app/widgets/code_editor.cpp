#include "widgets/code_editor.h"

#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <utility>

#include "widgets/code_edit.h"
#include "widgets/widgets.h"

namespace cv::ui {

namespace {
// The editor's colours, one table per theme; the syntax colours follow
// code::Syntax's order. Dark: strong tints and light text that stay readable
// on a projector. High contrast: black, white and saturated hues, as the
// app's high-contrast style (ui/presentation.cpp).
struct Palette {
  ImU32 view_bg, gutter_bg, gutter_text, gutter_current, current_line, match, current_match;
  ImU32 selection, cursor, bracket_fill, bracket_edge, bracket_unmatched;
  ImU32 tint[3], ink[3];  // by code::Severity: Note, Warning, Error
  ImU32 syntax[code::kSyntaxKinds];
};
const Palette kPalettes[] = {
    // Theme::Dark
    {IM_COL32(22, 24, 30, 255), IM_COL32(34, 37, 46, 255), IM_COL32(130, 140, 160, 255),
     IM_COL32(235, 235, 245, 255), IM_COL32(255, 255, 255, 14), IM_COL32(230, 190, 60, 70),
     IM_COL32(245, 175, 30, 170), IM_COL32(66, 150, 250, 90), IM_COL32(235, 235, 245, 255),
     IM_COL32(255, 255, 255, 40), IM_COL32(200, 200, 210, 200), IM_COL32(255, 80, 70, 220),
     {IM_COL32(60, 120, 220, 55), IM_COL32(200, 160, 20, 60), IM_COL32(200, 40, 40, 80)},
     {IM_COL32(130, 180, 255, 255), IM_COL32(250, 205, 80, 255), IM_COL32(255, 110, 100, 255)},
     {
         IM_COL32(215, 218, 224, 255),  // plain
         IM_COL32(86, 156, 235, 255),   // keyword
         IM_COL32(78, 201, 176, 255),   // type
         IM_COL32(225, 215, 130, 255),  // builtin
         IM_COL32(240, 160, 80, 255),   // prelude
         IM_COL32(110, 160, 90, 255),   // comment
         IM_COL32(215, 145, 120, 255),  // string
         IM_COL32(215, 145, 120, 255),  // char
         IM_COL32(181, 206, 168, 255),  // number
         IM_COL32(197, 134, 192, 255),  // preprocessor
         IM_COL32(235, 235, 245, 255),  // bracket
     }},
    // Theme::HighContrast
    {IM_COL32(0, 0, 0, 255), IM_COL32(24, 24, 24, 255), IM_COL32(200, 200, 200, 255),
     IM_COL32(255, 220, 0, 255), IM_COL32(255, 255, 255, 28), IM_COL32(255, 220, 0, 80),
     IM_COL32(255, 220, 0, 170), IM_COL32(255, 220, 0, 95), IM_COL32(255, 255, 255, 255),
     IM_COL32(255, 220, 0, 60), IM_COL32(255, 220, 0, 255), IM_COL32(255, 60, 60, 255),
     {IM_COL32(40, 110, 255, 90), IM_COL32(230, 180, 0, 90), IM_COL32(230, 30, 30, 120)},
     {IM_COL32(120, 190, 255, 255), IM_COL32(255, 220, 60, 255), IM_COL32(255, 110, 100, 255)},
     {
         IM_COL32(255, 255, 255, 255),  // plain
         IM_COL32(110, 185, 255, 255),  // keyword
         IM_COL32(60, 235, 200, 255),   // type
         IM_COL32(255, 240, 110, 255),  // builtin
         IM_COL32(255, 170, 60, 255),   // prelude
         IM_COL32(125, 225, 105, 255),  // comment
         IM_COL32(255, 165, 145, 255),  // string
         IM_COL32(255, 165, 145, 255),  // char
         IM_COL32(195, 255, 175, 255),  // number
         IM_COL32(235, 150, 255, 255),  // preprocessor
         IM_COL32(255, 255, 255, 255),  // bracket
     }},
};
const Palette& palette() { return kPalettes[ui::theme() == ui::Theme::HighContrast ? 1 : 0]; }

ImU32 tint(code::Severity s) { return palette().tint[static_cast<int>(s)]; }
ImU32 ink(code::Severity s) { return palette().ink[static_cast<int>(s)]; }

constexpr double kCommitPause_s = 1.0;  // typing that pauses this long is one undo step
// GLFW's key codes (ImGui 1.86 has no ImGuiKey_F or ImGuiKey_Slash).
constexpr int kKeyF = 'F', kKeySlash = 47, kKeyPadDivide = 331;
constexpr double kBlink_s = 1.2, kBlinkOn_s = 0.8;  // ImGui's own cursor blink

bool key(ImGuiKey k) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(k)); }
}  // namespace

// Where things are this frame, in screen pixels.
struct CodeEditor::Geometry {
  ImVec2 origin;          // the content's top-left (moves with the scroll)
  ImVec2 view_min, view_max;  // the visible part of the view
  float gutter_w = 0, gutter_right = 0;  // the gutter's width and its right edge on screen
  float text_x = 0, text_y = 0;          // where line 1, column 1 is drawn
  float line_h = 0, char_w = 0;
  code::LineRange lines;
  float y_of(int line) const { return text_y + (line - 1) * line_h; }
};

void CodeEditor::changed() {
  index_ = code::LineIndex(text_);
  runs_ = code::highlight(text_);
  blink_from_s_ = ImGui::GetTime();
  by_line_ = code::marks_by_line(marks_, index_.count());
  matches_ = code::find_all(text_, find_, match_case_);
  if (current_match_ >= static_cast<int>(matches_.size())) current_match_ = -1;
  ++version_;
}

void CodeEditor::replace(const std::string& text) {
  text_ = text;
  ++generation_;  // ImGui keeps the active field's text and undo; a new id starts fresh
  cursor_ = sel_begin_ = sel_end_ = 0;
  uncommitted_ = false;
  changed();
}

void CodeEditor::set_text(const std::string& text) {
  history_.commit(text_);
  replace(text);
  history_.commit(text_);
  scroll_to_line_ = 1;
}

void CodeEditor::reset_text(const std::string& text) {
  replace(text);
  history_.reset(text_);
  scroll_to_line_ = 1;
}

void CodeEditor::set_marks(std::vector<code::Mark> marks) {
  marks_ = std::move(marks);
  by_line_ = code::marks_by_line(marks_, index_.count());
}

void CodeEditor::go_to(int line) {
  line = std::clamp(line, 1, index_.count());
  want_cursor_ = static_cast<int>(index_.start(line));
  want_sel_end_ = -1;
  focus_field_ = true;
  scroll_to_line_ = line;
}

bool CodeEditor::undo() {
  if (read_only_) return false;
  uncommitted_ = false;
  auto t = history_.undo(text_);
  if (!t) return false;
  replace_at_change(*t);
  return true;
}

bool CodeEditor::redo() {
  if (read_only_) return false;
  uncommitted_ = false;
  auto t = history_.redo(text_);
  if (!t) return false;
  replace_at_change(*t);
  return true;
}

void CodeEditor::replace_at_change(const std::string& text) {
  // The cursor goes where the text changed, as in other editors.
  const size_t at = code::first_difference(text_, text);
  replace(text);
  want_cursor_ = static_cast<int>(at);
  want_sel_end_ = -1;
  scroll_to_line_ = 0;
  last_cursor_ = -1;
}

ImU32 CodeEditor::colour_of(code::Syntax kind) { return palette().syntax[static_cast<int>(kind)]; }

bool CodeEditor::take_run_request() {
  const bool r = run_request_;
  run_request_ = false;
  return r;
}

int CodeEditor::on_text_event(ImGuiInputTextCallbackData* d) {
  auto* self = static_cast<CodeEditor*>(d->UserData);
  const ImGuiIO& io = ImGui::GetIO();
  const std::string_view buf(d->Buf, static_cast<size_t>(d->BufTextLen));
  // Without a selection ImGui leaves SelectionStart == SelectionEnd wherever they
  // were last: only the cursor counts then.
  const auto selection = [d] {
    if (d->SelectionStart == d->SelectionEnd) return std::pair{d->CursorPos, d->CursorPos};
    return std::pair{std::min(d->SelectionStart, d->SelectionEnd), std::max(d->SelectionStart, d->SelectionEnd)};
  };
  const size_t sel_b = static_cast<size_t>(selection().first);
  const size_t sel_e = static_cast<size_t>(selection().second);
  if (self->read_only_) {
    // A view (the prelude, the PTX): no commands, only the cursor is followed.
  } else if (d->EventFlag == ImGuiInputTextFlags_CallbackCompletion) {
    // Tab indents the selected lines (or inserts spaces at the cursor); Shift+Tab unindents.
    if (io.KeyShift)
      self->apply_command(d, code::unindent_lines(buf, sel_b, sel_e));
    else if (sel_e > sel_b)
      self->apply_command(d, code::indent_lines(buf, sel_b, sel_e));
    else
      self->apply_command(d, code::indent_at_cursor(buf, sel_b));
  } else if (d->EventFlag == ImGuiInputTextFlags_CallbackEdit) {
    // Enter keeps the line's indentation (one step more after a '{'); each line is one undo step.
    const bool enter = (key(ImGuiKey_Enter) || key(ImGuiKey_KeyPadEnter)) && !io.KeyCtrl;
    if (enter && d->CursorPos > 0 && d->Buf[d->CursorPos - 1] == '\n') {
      self->history_.commit(self->text_);
      const code::AutoIndent a = code::auto_indent(buf, static_cast<size_t>(d->CursorPos - 1));
      if (!a.insert.empty()) {
        const int at = d->CursorPos;
        d->InsertChars(at, a.insert.data(), a.insert.data() + a.insert.size());
        d->SelectionStart = d->SelectionEnd = d->CursorPos = at + static_cast<int>(a.cursor);
      }
    }
  } else if (io.KeyCtrl && (ImGui::IsKeyPressed(kKeySlash) || ImGui::IsKeyPressed(kKeyPadDivide))) {
    self->apply_command(d, code::toggle_comment(buf, sel_b, sel_e));
  }
  if (self->want_cursor_ >= 0) {
    const int at = std::clamp(self->want_cursor_, 0, d->BufTextLen);
    const int end = self->want_sel_end_ >= 0 ? std::clamp(self->want_sel_end_, at, d->BufTextLen) : at;
    d->SelectionStart = at;
    d->SelectionEnd = d->CursorPos = end;
    self->want_cursor_ = self->want_sel_end_ = -1;
  }
  self->cursor_ = d->CursorPos;
  std::tie(self->sel_begin_, self->sel_end_) = selection();
  return 0;
}

void CodeEditor::apply_command(ImGuiInputTextCallbackData* d, const code::Edited& e) {
  const std::string_view before(d->Buf, static_cast<size_t>(d->BufTextLen));
  if (e.text == before) return;  // nothing to indent, unindent or uncomment
  // A command is one undo step of its own: what was typed before it is another.
  history_.commit(std::string(before));
  command_applied_ = true;
  d->DeleteChars(0, d->BufTextLen);
  d->InsertChars(0, e.text.data(), e.text.data() + e.text.size());
  d->SelectionStart = static_cast<int>(e.begin);
  d->SelectionEnd = d->CursorPos = static_cast<int>(e.end);
}

void CodeEditor::commit_if_idle(bool leaving) {
  if (!uncommitted_) return;
  if (leaving || ImGui::GetTime() - last_edit_s_ >= kCommitPause_s) {
    history_.commit(text_);
    uncommitted_ = false;
  }
}

void CodeEditor::handle_keys(bool field_active) {
  const ImGuiIO& io = ImGui::GetIO();
  if (read_only_ || !ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) || !io.KeyCtrl)
    return;
  if (ImGui::IsKeyPressed(kKeyF)) open_find();
  if (key(ImGuiKey_Enter) || key(ImGuiKey_KeyPadEnter)) {
    run_request_ = true;
    // ImGui leaves a multiline field on Ctrl+Enter: come back to where the cursor was.
    if (field_active) focus_field_ = true, want_cursor_ = cursor_;
  }
  // The field has ImGui's undo turned off (it would replay its records over the
  // editor's own changes: indentation, commands): undo is the history's,
  // inside the field too. The find field (another text input) keeps its own.
  if (field_active || !io.WantTextInput) {
    bool moved = false;
    if (key(ImGuiKey_Z)) moved = io.KeyShift ? redo() : undo();
    if (key(ImGuiKey_Y)) moved = redo() || moved;
    if (moved && field_active) focus_field_ = true;
  }
}

void CodeEditor::draw(const char* id, const ImVec2& size) {
  ImGui::PushID(id);
  const ImGuiStyle& st = ImGui::GetStyle();
  const Palette& pal = palette();
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::ColorConvertU32ToFloat4(pal.view_bg));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::BeginChild("view", size, true, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
  handle_keys(field_active_);

  Geometry g;
  g.line_h = ImGui::GetFontSize();
  g.char_w = ImGui::CalcTextSize("0").x;
  if (measured_version_ != version_ || measured_font_ != g.line_h) {
    longest_px_ = 0;
    for (int l = 1; l <= index_.count(); ++l)
      longest_px_ = std::max(longest_px_, ImGui::CalcTextSize(text_.data() + index_.start(l),
                                                              text_.data() + index_.end(l))
                                              .x);
    measured_version_ = version_, measured_font_ = g.line_h;
  }
  const ImVec2 pad(g.char_w * 0.5f, st.FramePadding.y);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  g.origin = ImGui::GetCursorScreenPos();
  g.view_min = ImGui::GetWindowPos();
  g.view_max = ImVec2(g.view_min.x + ImGui::GetWindowWidth(), g.view_min.y + ImGui::GetWindowHeight());
  g.gutter_w = g.line_h + (code::gutter_digits(index_.count()) + 1) * g.char_w;
  g.gutter_right = g.view_min.x + g.gutter_w;
  g.text_x = g.origin.x + g.gutter_w + pad.x;
  g.text_y = g.origin.y + pad.y;
  g.lines = code::visible_lines(ImGui::GetScrollY() - pad.y, avail.y, g.line_h, index_.count());

  draw_backgrounds(g);

  // The field: as large as the text (so the view, not the field, scrolls and the
  // gutter scrolls with it), clipped so it never shows under the gutter.
  const ImVec2 field(std::max(avail.x - g.gutter_w, longest_px_ + 2 * pad.x + 4 * g.char_w),
                     std::max(avail.y, index_.count() * g.line_h + 2 * pad.y + g.line_h));
  ImGui::SetCursorScreenPos(ImVec2(g.origin.x + g.gutter_w, g.origin.y));
  // The field draws no text of its own (its text and cursor are transparent):
  // draw_text paints the same bytes at the same places in colour, under the
  // field's selection, which stays see-through.
  ImGui::PushStyleColor(ImGuiCol_FrameBg, IM_COL32(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_TextSelectedBg, pal.selection);
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, pad);
  ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 0.f);
  ImGui::PushClipRect(ImVec2(g.gutter_right, g.view_min.y), g.view_max, true);
  ImGui::PushID(generation_);
  if (focus_field_) ImGui::SetKeyboardFocusHere(), focus_field_ = false;
  // ImGui 1.86 reverts a field to its text at activation on Escape, which would
  // silently drop a whole session of typing: Escape here only leaves the field.
  const bool escape = field_active_ && key(ImGuiKey_Escape);
  const std::string kept = escape ? text_ : std::string();
  // Tab comes as a completion request (no '\t' typed, focus stays): the callback indents.
  const int flags = ImGuiInputTextFlags_CallbackCompletion | ImGuiInputTextFlags_CallbackAlways |
                    ImGuiInputTextFlags_CallbackEdit | ImGuiInputTextFlags_NoUndoRedo |
                    (read_only_ ? ImGuiInputTextFlags_ReadOnly : 0);
  const int cursor_before = cursor_;
  const bool edited = ImGui::InputTextMultiline("##text", &text_, field, flags, &on_text_event, this);
  const bool was_active = field_active_;
  field_active_ = ImGui::IsItemActive();
  ImGui::PopID();
  ImGui::PopClipRect();
  ImGui::PopStyleVar(2);
  ImGui::PopStyleColor(3);
  if (cursor_ != cursor_before) blink_from_s_ = ImGui::GetTime();
  if (escape && text_ != kept) {
    text_ = kept;
    ++generation_;
    changed();
  } else if (edited) {
    changed();
    last_edit_s_ = ImGui::GetTime();
    uncommitted_ = true;
  }
  if (command_applied_) {  // a command's result is a state of its own
    command_applied_ = false;
    history_.commit(text_);
    uncommitted_ = false;
  }
  commit_if_idle(was_active && !field_active_);

  draw_text(g);

  draw_gutter(g);
  draw_inline_marks(g);
  tooltip_for_hovered_line(g);
  follow_cursor(g);
  ImGui::EndChild();
  ImGui::PopID();
}

void CodeEditor::draw_backgrounds(const Geometry& g) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(g.gutter_right, g.view_min.y), g.view_max, true);
  const float x0 = g.gutter_right, x1 = g.view_max.x;
  if (field_active_) {
    const float y = g.y_of(cursor_line());
    dl->AddRectFilled(ImVec2(x0, y), ImVec2(x1, y + g.line_h), palette().current_line);
  }
  for (const auto& [line, lm] : by_line_) {
    if (line < g.lines.first || line > g.lines.last) continue;
    const float y = g.y_of(line);
    dl->AddRectFilled(ImVec2(x0, y), ImVec2(x1, y + g.line_h), tint(lm.worst));
  }
  // Matches on the visible lines only (a search in a long file can have thousands).
  const size_t from = index_.start(g.lines.first), to = index_.end(g.lines.last);
  auto it = std::lower_bound(matches_.begin(), matches_.end(), from);
  for (; it != matches_.end() && *it <= to; ++it) {
    const int line = index_.line_of(*it);
    const char* ls = text_.data() + index_.start(line);
    const float mx = g.text_x + ImGui::CalcTextSize(ls, text_.data() + *it).x;
    const float mw = ImGui::CalcTextSize(text_.data() + *it, text_.data() + *it + find_.size()).x;
    const bool current = current_match_ >= 0 && matches_[current_match_] == *it;
    const float y = g.y_of(line);
    dl->AddRectFilled(ImVec2(mx - 1, y), ImVec2(mx + mw + 1, y + g.line_h),
                      current ? palette().current_match : palette().match, 2.f);
  }
  dl->PopClipRect();
}

void CodeEditor::draw_text(const Geometry& g) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Palette& pal = palette();
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  const float thin = std::max(1.f, size / 13.f);  // lines thicken with the UI scale
  dl->PushClipRect(ImVec2(g.gutter_right, g.view_min.y), g.view_max, true);
  // The x of byte `at` on its line.
  const auto x_of = [&](int line, size_t at) {
    return g.text_x +
           font->CalcTextSizeA(size, FLT_MAX, 0.f, text_.data() + index_.start(line), text_.data() + at).x;
  };
  // The bracket at the cursor and its partner: a box round each (red when unmatched).
  if (field_active_ && sel_begin_ == sel_end_) {
    if (const auto m = code::match_bracket(text_, runs_, static_cast<size_t>(cursor_))) {
      const auto box = [&](size_t at, ImU32 edge) {
        const int line = index_.line_of(at);
        const float x0 = x_of(line, at), x1 = x_of(line, at + 1), y = g.y_of(line);
        dl->AddRectFilled(ImVec2(x0 - thin, y), ImVec2(x1 + thin, y + g.line_h), pal.bracket_fill, thin);
        dl->AddRect(ImVec2(x0 - thin, y), ImVec2(x1 + thin, y + g.line_h), edge, thin, 0, thin);
      };
      box(m->at, m->match ? pal.bracket_edge : pal.bracket_unmatched);
      if (m->match) box(*m->match, pal.bracket_edge);
    }
  }
  // The visible lines, run by run, each in its colour.
  for (int line = g.lines.first; line <= g.lines.last; ++line) {
    float x = g.text_x;
    for (const code::Run& r : code::runs_in(runs_, index_.start(line), index_.end(line))) {
      const char* b = text_.data() + r.begin;
      const char* e = text_.data() + r.end;
      dl->AddText(font, size, ImVec2(x, g.y_of(line)), pal.syntax[static_cast<int>(r.kind)], b, e);
      x += font->CalcTextSizeA(size, FLT_MAX, 0.f, b, e).x;
    }
  }
  // The cursor, blinking as ImGui's does, restarted by every move and edit.
  if (field_active_ && !read_only_) {
    const double t = std::fmod(ImGui::GetTime() - blink_from_s_, kBlink_s);
    if (!ImGui::GetIO().ConfigInputTextCursorBlink || t <= kBlinkOn_s) {
      const int l = cursor_line();
      const float cx = x_of(l, static_cast<size_t>(cursor_)), cy = g.y_of(l);
      dl->AddLine(ImVec2(cx, cy), ImVec2(cx, cy + g.line_h - 1), pal.cursor, thin);
    }
  }
  dl->PopClipRect();
}

void CodeEditor::draw_gutter(const Geometry& g) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Palette& pal = palette();
  dl->AddRectFilled(g.view_min, ImVec2(g.gutter_right, g.view_max.y), pal.gutter_bg);
  const int current = cursor_line();
  char num[16];
  for (int l = g.lines.first; l <= g.lines.last; ++l) {
    const float y = g.y_of(l);
    std::snprintf(num, sizeof num, "%d", l);
    const float w = ImGui::CalcTextSize(num).x;
    dl->AddText(ImVec2(g.gutter_right - w - 0.5f * g.char_w, y), l == current ? pal.gutter_current : pal.gutter_text,
                num);
    auto it = by_line_.find(l);
    if (it != by_line_.end())
      dl->AddCircleFilled(ImVec2(g.view_min.x + 0.5f * g.line_h, y + 0.5f * g.line_h), 0.3f * g.line_h,
                          ink(it->second.worst));
  }
}

void CodeEditor::draw_inline_marks(const Geometry& g) {
  // The first message of a marked line after its text, so it reads without hovering.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(g.gutter_right, g.view_min.y), g.view_max, true);
  for (const auto& [line, lm] : by_line_) {
    if (line < g.lines.first || line > g.lines.last) continue;
    const char* ls = text_.data() + index_.start(line);
    const float x = g.text_x + ImGui::CalcTextSize(ls, text_.data() + index_.end(line)).x + 3 * g.char_w;
    const code::Mark& m = marks_[lm.marks.front()];
    std::string msg = m.message;
    if (lm.marks.size() > 1) msg += "  (+" + std::to_string(lm.marks.size() - 1) + " more)";
    dl->AddText(ImVec2(x, g.y_of(line)), ink(m.severity), msg.c_str());
  }
  dl->PopClipRect();
}

void CodeEditor::tooltip_for_hovered_line(const Geometry& g) {
  if (by_line_.empty() || !ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows)) return;
  const float my = ImGui::GetIO().MousePos.y;
  const int line = static_cast<int>((my - g.text_y) / g.line_h) + 1;
  auto it = by_line_.find(line);
  if (it == by_line_.end()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
  for (int i : it->second.marks) {
    const code::Mark& m = marks_[i];
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(ink(m.severity)));
    ImGui::TextWrapped("line %d: %s: %s", m.line, code::to_string(m.severity), m.message.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void CodeEditor::follow_cursor(const Geometry& g) {
  const float view_h = g.view_max.y - g.view_min.y - ImGui::GetStyle().ScrollbarSize;
  const float pad_y = g.text_y - g.origin.y;
  if (scroll_to_line_ > 0) {
    // A jump: the line with a third of the view above it.
    const float top = pad_y + (scroll_to_line_ - 1) * g.line_h;
    ImGui::SetScrollY(std::max(0.f, top - view_h / 3));
    scroll_to_line_ = 0;
    last_cursor_ = cursor_;
    return;
  }
  if (!field_active_ || cursor_ == last_cursor_) return;
  last_cursor_ = cursor_;
  // Typing or moving the cursor keeps it in view, both ways.
  const int line = cursor_line();
  const float sy = ImGui::GetScrollY();
  const float want_y = code::scroll_to_show(line, sy - pad_y, view_h, g.line_h) + pad_y;
  if (want_y != sy) ImGui::SetScrollY(std::max(0.f, want_y));
  const float sx = ImGui::GetScrollX();
  // The cursor's x in content coordinates (from the view's left edge, unscrolled).
  const float cx = (g.text_x - g.origin.x) +
                   ImGui::CalcTextSize(text_.data() + index_.start(line), text_.data() + cursor_).x;
  const float view_w = g.view_max.x - g.view_min.x - ImGui::GetStyle().ScrollbarSize;
  if (cx < sx + g.gutter_w + g.char_w)
    ImGui::SetScrollX(std::max(0.f, cx - g.gutter_w - 4 * g.char_w));
  else if (cx > sx + view_w - 2 * g.char_w)
    ImGui::SetScrollX(cx - view_w + 6 * g.char_w);
}

void CodeEditor::open_find() {
  find_open_ = focus_find_ = true;
  // A selection on one line is what the student wants to find.
  if (sel_end_ > sel_begin_ && index_.line_of(sel_begin_) == index_.line_of(sel_end_ - 1)) {
    find_ = text_.substr(sel_begin_, sel_end_ - sel_begin_);
    matches_ = code::find_all(text_, find_, match_case_);
    current_match_ = code::next_match(matches_, sel_begin_, true, true);
  }
}

void CodeEditor::select_match(int i, bool move_cursor) {
  current_match_ = i;
  if (i < 0) return;
  scroll_to_line_ = index_.line_of(matches_[i]);
  if (move_cursor) {
    want_cursor_ = static_cast<int>(matches_[i]);
    want_sel_end_ = static_cast<int>(matches_[i] + find_.size());
    focus_field_ = true;
  }
}

void CodeEditor::draw_find_bar() {
  if (!find_open_) return;
  ImGui::PushID("find");
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextItemWidth(std::max(ImGui::GetFontSize() * 10, ImGui::GetContentRegionAvail().x * 0.35f));
  if (focus_find_) ImGui::SetKeyboardFocusHere(), focus_find_ = false;
  const bool enter = ImGui::InputTextWithHint("##find", "find (Ctrl+F)", &find_,
                                              ImGuiInputTextFlags_EnterReturnsTrue);
  // Escape in the field closes the bar (ImGui has already let go of the field).
  const bool closing = key(ImGuiKey_Escape) && (ImGui::IsItemActive() || ImGui::IsItemDeactivated());
  if (ImGui::IsItemEdited()) {
    matches_ = code::find_all(text_, find_, match_case_);
    current_match_ = -1;
    select_match(code::next_match(matches_, static_cast<size_t>(cursor_), true, true), false);
  }
  const size_t from = current_match_ >= 0 ? matches_[current_match_] : static_cast<size_t>(cursor_);
  if (enter) {  // Enter steps through the matches and keeps the field
    select_match(code::next_match(matches_, from, !io.KeyShift), false);
    focus_find_ = true;
  }
  if (closing) find_open_ = false, focus_find_ = false;
  ui::same_line_if_fits("previous");
  if (ImGui::Button("previous")) select_match(code::next_match(matches_, from, false), true);
  ui::same_line_if_fits("next");
  if (ImGui::Button("next")) select_match(code::next_match(matches_, from, true), true);
  ui::same_line_if_fits("Aa");
  if (ImGui::Checkbox("Aa", &match_case_)) {
    matches_ = code::find_all(text_, find_, match_case_);
    current_match_ = -1;
  }
  ui::tooltip("match case");
  char count[48];
  if (find_.empty())
    count[0] = 0;
  else if (matches_.empty())
    std::snprintf(count, sizeof count, "no match");
  else if (current_match_ < 0)
    std::snprintf(count, sizeof count, "%zu matches", matches_.size());
  else
    std::snprintf(count, sizeof count, "%d of %zu", current_match_ + 1, matches_.size());
  if (count[0]) {
    ui::same_line_if_fits(count);
    ImGui::TextColored(matches_.empty() ? kWarn : kDim, "%s", count);
  }
  ui::same_line_if_fits("x");
  if (ImGui::Button("x")) find_open_ = false;
  ui::tooltip("close find (Escape)");
  ImGui::PopID();
}

void CodeEditor::draw_marks_list() {
  const float wrap = ImGui::GetContentRegionAvail().x;
  for (int i = 0; i < static_cast<int>(marks_.size()); ++i) {
    const code::Mark& m = marks_[i];
    const std::string row = "line " + std::to_string(m.line) + "  " + code::to_string(m.severity) +
                            ": " + m.message;
    const float h = ImGui::CalcTextSize(row.c_str(), nullptr, false, wrap).y;
    ImGui::PushID(i);
    const ImVec2 at = ImGui::GetCursorPos();
    if (ImGui::Selectable("##mark", false, 0, ImVec2(wrap, h))) go_to(m.line);
    ui::tooltip("go to this line");
    ImGui::SetCursorPos(at);
    ImGui::PushTextWrapPos(at.x + wrap);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(ink(m.severity)));
    ImGui::TextWrapped("%s", row.c_str());
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    ImGui::PopID();
  }
}

}  // namespace cv::ui

// The kernel editor widget (widgets/code_editor.h) driven through a real ImGui
// context without a window: keys and characters go in through ImGuiIO as the
// GLFW backend would send them, and the text, the cursor, undo, find and the
// run request are checked after each frame.
#include <gtest/gtest.h>
#include <imgui.h>

#include <set>
#include <string>

#include "widgets/code_editor.h"
#include "widgets/widgets.h"

namespace {

// GLFW's key codes, which the app's ImGui backend puts in io.KeyMap.
constexpr int kSlash = 47, kEnter = 257, kEscape = 256, kTab = 258, kLeft = 263, kRight = 262, kUp = 265,
              kDown = 264, kBackspace = 259, kDelete = 261, kHome = 268, kEnd = 269;

class EditorHarness : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1280, 800);
    io.DeltaTime = 1.f / 60;
    io.IniFilename = nullptr;
    unsigned char* px;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&px, &w, &h);
    const int map[][2] = {{ImGuiKey_Enter, kEnter}, {ImGuiKey_Escape, kEscape},
                          {ImGuiKey_Tab, kTab},     {ImGuiKey_LeftArrow, kLeft},
                          {ImGuiKey_RightArrow, kRight}, {ImGuiKey_UpArrow, kUp},
                          {ImGuiKey_DownArrow, kDown}, {ImGuiKey_Backspace, kBackspace},
                          {ImGuiKey_Delete, kDelete}, {ImGuiKey_Home, kHome},
                          {ImGuiKey_End, kEnd},     {ImGuiKey_A, 'A'},
                          {ImGuiKey_C, 'C'},        {ImGuiKey_V, 'V'},
                          {ImGuiKey_X, 'X'},        {ImGuiKey_Y, 'Y'},
                          {ImGuiKey_Z, 'Z'},        {ImGuiKey_KeyPadEnter, 335}};
    for (const auto& m : map) io.KeyMap[m[0]] = m[1];
  }
  void TearDown() override { ImGui::DestroyContext(); }

  void frame() {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(1000, 700));
    ImGui::Begin("host");
    ed.draw_find_bar();
    ed.draw("ed", ImVec2(0, 500));
    ed.draw_marks_list();
    ImGui::End();
    ImGui::Render();
  }
  // A key pressed for one frame and released the next, with modifiers.
  void press(int key, bool ctrl = false, bool shift = false) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl = ctrl, io.KeyShift = shift;
    io.KeysDown[key] = true;
    frame();
    io.KeysDown[key] = false;
    frame();
    io.KeyCtrl = io.KeyShift = false;
  }
  void type(const char* s) {
    for (; *s; ++s) {
      ImGui::GetIO().AddInputCharacter(static_cast<unsigned>(*s));
      frame();
    }
  }
  // Clicks inside the text area (activates the field).
  void click_text() {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(400, 300);
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    frame();
    io.MousePos = ImVec2(-1, -1);
  }

  cv::ui::CodeEditor ed;
};

const char* kSource = "line one\nline two\nline three\nline four\nline five\n";

TEST_F(EditorHarness, GoToPutsTheCursorAtTheLineAndTypingGoesThere) {
  ed.reset_text(kSource);
  frame();
  ed.go_to(4);
  frame();
  frame();
  EXPECT_EQ(ed.cursor_line(), 4);
  type("X");
  EXPECT_EQ(ed.text(), "line one\nline two\nline three\nXline four\nline five\n");
}

TEST_F(EditorHarness, UndoWorksWhileTypingAndAfterLeaving) {
  ed.reset_text(kSource);
  frame();
  ed.go_to(2);
  frame();
  frame();  // the focus request lands the frame after
  type("ab");
  const std::string typed = "line one\nabline two\nline three\nline four\nline five\n";
  EXPECT_EQ(ed.text(), typed);
  press('Z', true);  // undo inside the field
  EXPECT_NE(ed.text(), typed);
  press('Y', true);  // and redo
  EXPECT_EQ(ed.text(), typed);
  frame();
  type("c");  // the field kept the keyboard, the cursor where the change was
  EXPECT_EQ(ed.text(), "line one\ncabline two\nline three\nline four\nline five\n");
  press('Z', true);
  EXPECT_EQ(ed.text(), typed);
  frame();
  // Escape leaves the field; ImGui 1.86 would revert to the text at activation.
  press(kEscape);
  EXPECT_EQ(ed.text(), typed);
  // Outside the field, Ctrl+Z is the editor's own history: back to the file's text.
  EXPECT_TRUE(ed.can_undo());
  press('Z', true);
  EXPECT_EQ(ed.text(), kSource);
  press('Y', true);
  EXPECT_EQ(ed.text(), typed);
}

TEST_F(EditorHarness, ReplacingTheTextIsUndoableAndResetsImGuisState) {
  ed.reset_text("mine\n");
  frame();
  ed.go_to(1);
  frame();
  frame();
  type("!");
  EXPECT_EQ(ed.text(), "!mine\n");
  ed.set_text("template\n");  // while the field is active: a new field, no stale text
  frame();
  frame();
  EXPECT_EQ(ed.text(), "template\n");
  EXPECT_TRUE(ed.undo());
  EXPECT_EQ(ed.text(), "!mine\n");
  frame();
  EXPECT_EQ(ed.text(), "!mine\n");
}

TEST_F(EditorHarness, EnterKeepsTheIndentation) {
  ed.reset_text("");
  frame();
  ed.go_to(1);
  frame();
  frame();
  type("  if (x) {");
  press(kEnter);
  type("y;");
  press(kEnter);
  type("z;");
  EXPECT_EQ(ed.text(), "  if (x) {\n    y;\n    z;");
}


TEST_F(EditorHarness, TabAndShiftTabIndentTheSelectedLinesAndKeepTheFocus) {
  ed.reset_text("a\nb\nc\n");
  frame();
  ed.go_to(1);
  frame();
  frame();
  press(kDown, false, true);
  press(kDown, false, true);  // lines 1 and 2 selected, up to line 3's start
  press(kTab);
  EXPECT_EQ(ed.text(), "  a\n  b\nc\n");
  press(kTab);
  EXPECT_EQ(ed.text(), "    a\n    b\nc\n");
  press(kTab, false, true);
  EXPECT_EQ(ed.text(), "  a\n  b\nc\n");
  // Each command is one undo step.
  press('Z', true);
  EXPECT_EQ(ed.text(), "    a\n    b\nc\n");
  frame();
  press('Z', true);
  EXPECT_EQ(ed.text(), "  a\n  b\nc\n");
  frame();
  // Tab without a selection: spaces at the cursor; the field still has the keyboard.
  press(kDown);
  press(kDown);
  press(kHome);
  press(kTab);
  type("x");
  EXPECT_EQ(ed.text(), "  a\n  b\n  xc\n");
}

TEST_F(EditorHarness, CtrlSlashTogglesCommentsOnTheSelectedLines) {
  ed.reset_text("int a;\n  int b;\nint c;\n");
  frame();
  ed.go_to(1);
  frame();
  frame();
  press(kDown, false, true);
  press(kDown, false, true);
  press(kSlash, true);
  EXPECT_EQ(ed.text(), "// int a;\n//   int b;\nint c;\n");
  press(kSlash, true);
  EXPECT_EQ(ed.text(), "int a;\n  int b;\nint c;\n");
  // No '/' was typed by the key itself.
  press(kSlash, true);
  press(kSlash, true);
  EXPECT_EQ(ed.text(), "int a;\n  int b;\nint c;\n");
}

TEST_F(EditorHarness, EnterBetweenBracesPutsTheCloserOnItsOwnLine) {
  ed.reset_text("");
  frame();
  ed.go_to(1);
  frame();
  frame();
  type("f() {}");
  press(kLeft);
  press(kEnter);
  type("x;");
  EXPECT_EQ(ed.text(), "f() {\n  x;\n}");
}

// Every text colour the frame drew, from ImGui's vertex buffers.
std::set<ImU32> drawn_colours() {
  std::set<ImU32> out;
  const ImDrawData* d = ImGui::GetDrawData();
  for (int i = 0; i < d->CmdListsCount; ++i)
    for (const ImDrawVert& v : d->CmdLists[i]->VtxBuffer) out.insert(v.col);
  return out;
}

TEST_F(EditorHarness, TextIsDrawnInTheThemesSyntaxColours) {
  using cv::code::Syntax;
  ed.reset_text("__global__ void k(int n) { // c\n  __syncthreads(); cv::global_index(); 1.5f; \"s\"; }\n");
  for (cv::ui::Theme theme : {cv::ui::Theme::Dark, cv::ui::Theme::HighContrast}) {
    cv::ui::set_theme(theme);
    frame();
    const std::set<ImU32> colours = drawn_colours();
    for (Syntax k : {Syntax::Keyword, Syntax::Type, Syntax::Builtin, Syntax::Prelude, Syntax::Comment,
                     Syntax::Number, Syntax::String, Syntax::Plain})
      EXPECT_TRUE(colours.count(cv::ui::CodeEditor::colour_of(k)))
          << cv::code::to_string(k) << " in theme " << static_cast<int>(theme);
  }
  // The themes differ, and neither draws the other's keyword colour.
  cv::ui::set_theme(cv::ui::Theme::Dark);
  const ImU32 dark = cv::ui::CodeEditor::colour_of(Syntax::Keyword);
  cv::ui::set_theme(cv::ui::Theme::HighContrast);
  const ImU32 high = cv::ui::CodeEditor::colour_of(Syntax::Keyword);
  EXPECT_NE(dark, high);
  frame();
  EXPECT_FALSE(drawn_colours().count(dark));
  cv::ui::set_theme(cv::ui::Theme::Dark);
}

TEST_F(EditorHarness, CtrlEnterAsksToRunAndKeepsTheCursor) {
  ed.reset_text(kSource);
  frame();
  ed.go_to(3);
  frame();
  frame();
  EXPECT_FALSE(ed.take_run_request());
  press(kEnter, true);
  EXPECT_TRUE(ed.take_run_request());
  EXPECT_FALSE(ed.take_run_request());  // once
  EXPECT_EQ(ed.text(), kSource);        // no newline typed
  frame();
  type("Y");  // the field has the keyboard again, at the same place
  EXPECT_EQ(ed.text(), "line one\nline two\nYline three\nline four\nline five\n");
}

TEST_F(EditorHarness, FindCountsAndStepsThroughMatches) {
  ed.reset_text("int idx;\nidx = 1;\nreturn IDX;\n");
  frame();
  ed.open_find();
  frame();
  type("idx");
  EXPECT_TRUE(ed.find_open());
  EXPECT_EQ(ed.match_count(), 3);  // without match case
  EXPECT_EQ(ed.current_match(), 0);
  // The find field keeps the keyboard: Enter steps on, Shift+Enter back, wrapping.
  press(kEnter);
  EXPECT_EQ(ed.current_match(), 1);
  frame();
  press(kEnter);
  EXPECT_EQ(ed.current_match(), 2);
  frame();
  press(kEnter);
  EXPECT_EQ(ed.current_match(), 0);
  frame();
  press(kEnter, false, true);
  EXPECT_EQ(ed.current_match(), 2);
  frame();
  EXPECT_EQ(ed.text(), "int idx;\nidx = 1;\nreturn IDX;\n");
  press(kEscape);
  EXPECT_FALSE(ed.find_open());
}

TEST_F(EditorHarness, MarksListJumpsToTheLine) {
  ed.reset_text(kSource);
  ed.set_marks({{5, cv::code::Severity::Error, "expected a \";\""}});
  frame();
  EXPECT_EQ(ed.cursor_line(), 1);
  // The list is drawn below the 500 px view; click its row.
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(100, 500 + 40);
  io.MouseDown[0] = true;
  frame();
  io.MouseDown[0] = false;
  frame();
  frame();
  frame();
  EXPECT_EQ(ed.cursor_line(), 5);
}

TEST_F(EditorHarness, ReadOnlyTakesNoEdits) {
  cv::ui::CodeEditor ro(true);
  ro.reset_text("prelude\n");
  ImGui::NewFrame();
  ImGui::Begin("host");
  ro.go_to(1);
  ImGui::End();
  ImGui::Render();
  for (int i = 0; i < 3; ++i) {
    ImGui::GetIO().AddInputCharacter('z');
    ImGui::NewFrame();
    ImGui::Begin("host");
    ro.draw("ro", ImVec2(0, 200));
    ImGui::End();
    ImGui::Render();
  }
  EXPECT_EQ(ro.text(), "prelude\n");
  EXPECT_FALSE(ro.can_undo());
}

}  // namespace

#pragma once
// The kernel editor's document: the text (a CodeEditor), the .cu file it
// came from, and what happens between them: open, save (atomically), new from
// a template, and reload when the file changes on disk so a student can work
// in their own editor (io/file_watch.h: a poll each second; unsaved edits are
// never replaced without asking, and every replacement can be undone).
#include <string>

#include "io/file_watch.h"
#include "widgets/code_editor.h"

namespace cv {

class KernelSource {
 public:
  KernelSource();
  ui::CodeEditor& editor() { return editor_; }
  const std::string& text() const { return editor_.text(); }
  const std::string& path() const { return path_; }
  // The file's name for compiler messages ("kernel.cu" when unsaved).
  std::string file_name() const;
  bool dirty() const { return editor_.text() != saved_; }

  // Opens a file (replacing the text undoably). Returns why not: unreadable,
  // too large, binary; the text stays as it was.
  std::optional<std::string> open(const std::string& path);
  // Writes the text to `path` (the current one when empty). Returns why not.
  std::optional<std::string> save(const std::string& path = {});
  // A template's source, not yet saved; `suggested` becomes the path field's value.
  void start_from(const std::string& text, const std::string& suggested);

  // Once a frame: stat the file once a second; true when it was reloaded
  // (the caller may compile it again).
  bool watch(double now_s);

  // The path field with Open and Save, the unsaved marker, and the question
  // when the file changed under unsaved edits. Returns true when a file was
  // opened or reloaded from here.
  bool draw_file_row();
  const std::string& note() const { return note_; }  // the last open/save/reload outcome
  bool asking() const { return watch_.asking(); }    // changed on disk under unsaved edits
  // The question's answers (the buttons of draw_file_row).
  bool take_disk_version() { return reload(); }
  void keep_mine() { watch_.keep_mine(); }

 private:
  std::optional<std::string> in_step_with(const std::string& path, std::string text, const char* verb);
  bool reload();
  ui::CodeEditor editor_;
  std::string path_, path_field_, saved_, note_;
  bool note_is_error_ = false;
  FileWatch watch_;
};

}  // namespace cv

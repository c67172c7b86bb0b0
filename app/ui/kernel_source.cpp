#include "ui/kernel_source.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "io/atomic_file.h"
#include "usercode/compile/compile.h"
#include "widgets/widgets.h"

namespace cv {

namespace {
// What the editor refuses to open, in words: text only, and no larger than the
// compiler takes (a 10 MB file would make every frame slow for nothing).
std::string read_source(const std::string& path) {
  std::string text = read_file(path, usercode::kMaxSourceBytes);
  const size_t zero = text.find('\0');
  if (zero != std::string::npos)
    throw std::runtime_error("'" + path + "' holds binary data (a zero byte at offset " +
                             std::to_string(zero) + "): open a CUDA source (.cu) text file");
  return text;
}
}  // namespace

KernelSource::KernelSource() = default;

std::string KernelSource::file_name() const {
  return path_.empty() ? "kernel.cu" : std::filesystem::path(path_).filename().string();
}

std::optional<std::string> KernelSource::open(const std::string& path) {
  try {
    std::string text = read_source(path);
    editor_.set_text(text);  // undoable: what was there before comes back with undo
    return in_step_with(path, std::move(text), "opened ");
  } catch (const std::exception& e) {
    note_ = e.what();
    note_is_error_ = true;
    return note_;
  }
}

// The editor and `path` now hold the same text: remember it (dirty state, file watch).
std::optional<std::string> KernelSource::in_step_with(const std::string& path, std::string text,
                                                      const char* verb) {
  path_ = path_field_ = path;
  saved_ = std::move(text);
  watch_.known(stamp_of(path));
  note_ = verb + path;
  note_is_error_ = false;
  return std::nullopt;
}

std::optional<std::string> KernelSource::save(const std::string& path) {
  const std::string target = path.empty() ? path_ : path;
  if (target.empty()) {
    note_ = "no file name: type a path (e.g. my_kernel.cu) beside Save";
    note_is_error_ = true;
    return note_;
  }
  try {
    write_file_atomically(target, editor_.text());
    return in_step_with(target, editor_.text(), "saved ");
  } catch (const std::exception& e) {
    note_ = e.what();
    note_is_error_ = true;
    return note_;
  }
}

void KernelSource::start_from(const std::string& text, const std::string& suggested) {
  editor_.set_text(text);
  path_.clear();  // Save must not overwrite the file the student had open
  path_field_ = suggested;
  saved_.clear();
  watch_.known({});
  note_ = "not saved yet: Save writes " + suggested;
  note_is_error_ = false;
}

bool KernelSource::reload() {
  try {
    const FileStamp stamp = stamp_of(path_);
    std::string text = read_source(path_);
    editor_.set_text(text);
    saved_ = std::move(text);
    watch_.known(stamp);
    note_ = "reloaded " + path_ + " (changed on disk)";
    note_is_error_ = false;
    return true;
  } catch (const std::exception& e) {
    watch_.known(stamp_of(path_));  // say it once, not every second
    note_ = std::string("changed on disk but not reloaded: ") + e.what();
    note_is_error_ = true;
    return false;
  }
}

bool KernelSource::watch(double now_s) {
  if (path_.empty() || !watch_.due(now_s)) return false;
  switch (watch_.poll(stamp_of(path_), dirty())) {
    case DiskChange::Reload:
      return reload();
    case DiskChange::Gone:
      note_ = path_ + " was deleted or moved; Save writes it again";
      note_is_error_ = true;
      return false;
    case DiskChange::Ask:  // the question is drawn by draw_file_row
    case DiskChange::None:
      return false;
  }
  return false;
}

bool KernelSource::draw_file_row() {
  bool opened = false;
  const float font = ImGui::GetFontSize();
  ImGui::SetNextItemWidth(std::max(font * 8, ImGui::GetContentRegionAvail().x));
  ImGui::InputTextWithHint("##path", "file: my_kernel.cu", &path_field_);
  ui::tooltip("The .cu file to open or save. Saving is atomic: the old file or the new one, never half.");
  if (ImGui::Button("Open")) opened = !open(path_field_).has_value();
  ui::tooltip("Open the file named above (up to 256 KB of text). Undo brings back what was here.");
  ui::same_line_if_fits("Save");
  if (ImGui::Button("Save")) save(path_field_);
  ui::tooltip("Save to the file named above.");
  if (dirty()) {
    ui::same_line_if_fits("unsaved edits");
    ImGui::TextColored(ui::kWarn, "unsaved edits");
  }
  if (watch_.asking()) {
    ui::wrapped(ui::kWarn, path_ + " changed on disk, and you have unsaved edits here.");
    if (ImGui::Button("Load the file")) opened = take_disk_version();
    ui::tooltip("Replace the text with the file (undo brings your edits back).");
    ui::same_line_if_fits("Keep mine");
    if (ImGui::Button("Keep mine")) keep_mine();
    ui::tooltip("Keep editing; Save overwrites the file.");
  }
  if (!note_.empty()) ui::wrapped(note_is_error_ ? ui::kBad : ui::kDim, note_);
  return opened;
}

}  // namespace cv

#pragma once
// The "classroom" window: save and load presets (a path field and the shipped
// presets of assets/presets), what the last load skipped, the table a preset
// reproduces, and the presentation controls. Loading and saving happen at the
// start of the next frame (service()), never in the middle of drawing one.
#include <optional>
#include <string>
#include <vector>

#include "config/config.h"
#include "presets/preset.h"
#include "presets/preset_apply.h"
#include "ui/layout.h"

namespace cv::presets {

// Where the shipped presets are: presets/ of io::find_data_dir() (paths.assets:
// $CUDAVIZ_ASSETS, a build tree's assets next to the binary, or the installed
// share/cudaviz); "" when none.
std::string preset_dir(const PathConfig& paths);
// The *.json files of preset_dir(), sorted.
std::vector<std::string> shipped_presets(const PathConfig& paths);

// Lines for stderr: "preset 'FILE': skipped PATH: why" and the notes.
std::vector<std::string> report_lines(const std::string& path, const Report& r);

class PresetPanel {
 public:
  // paths: where the shipped presets are (config/config.h).
  explicit PresetPanel(PathConfig paths) : paths_(std::move(paths)) {}
  void draw(Presentation& presentation, ui::Layout& layout);
  // Runs a pending load or save. Returns true when a load started a lab run.
  bool service(AppState& app);
  // "fountain:1x1,2x2,..." when the user asked to run the preset's table in
  // the sweep window (once), and where to say that it could not start.
  std::optional<std::string> take_sweep_request();
  void sweep_failed(const std::string& why);
  // Shows the outcome of a load done elsewhere (--preset at start).
  void loaded(const std::string& path, const Preset& p, const Report& r);

 private:
  PathConfig paths_;
  void draw_shipped();
  void draw_file_row();
  void draw_status();
  void draw_sweep_table();
  void load(const std::string& path, AppState& app);
  void save(const std::string& path, AppState& app);

  char path_[512] = "cudaviz-preset.json";
  char description_[1024] = "";
  int shipped_ = 0;
  std::optional<std::string> load_request_, save_request_, sweep_request_;
  std::string message_;
  bool failed_ = false;
  std::vector<std::string> skipped_, notes_;
  std::optional<Sweep> sweep_;
  bool expand_ = false;
};

}  // namespace cv::presets

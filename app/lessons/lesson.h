#pragma once
// A lesson: a Markdown file a teacher writes in a text editor (docs/lessons.md),
// read into steps. Each step carries the whole state it shows (a preset
// fragment over the lesson's base), an optional prediction, what to run and
// which measured values to reveal. Parsing is pure (no GL, no ImGui) and checks
// every name against the app's own lists (scenes and their variants, labs and
// bench targets with their variants, tool panels), so a lesson that names
// something this build lacks is refused at load with the valid names.
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/block_shape.h"
#include "config/config.h"

namespace cv::lessons {

// What a step runs when the teacher presses Run.
struct RunSpec {
  enum class Kind { None, Frames, Seconds, Lab, Sweep } kind = Kind::None;
  std::string target;                // Lab, Sweep: a bench target (lab or scene)
  long long frames = 0;              // Frames
  double seconds = 0;                // Seconds
  std::vector<std::string> variants;  // Lab: empty = all; Sweep: at most one
  std::vector<long long> ns;          // Lab: one job per n (empty: the target's default)
  std::optional<BlockShape> block;    // Lab
  std::vector<BlockShape> shapes;     // Sweep
  int reps = 0;                       // 0: the target's default
};

// The class's prediction and how the measurement answers it.
struct Prediction {
  enum class Kind { None, Choice, Number } kind = Kind::None;
  struct Choice {
    std::string label;
    std::string key;      // a measured value bound to the choice ("" if none)
    bool negate = false;  // "!key": the choice is true when the value is false
  };
  std::string question;          // one line above the box ("" : none)
  std::vector<Choice> choices;   // Choice
  // Choice: a label, "lowest" / "highest" (the choice whose value is), or
  // "true" (the choice whose value holds). Number: the value key compared.
  std::string answer;
  std::string unit;              // Number: as the teacher writes it ("ms")
  double tolerance = 0;          // Number: how close counts as right
  bool tolerance_relative = true;  // "20%" (relative) or "0.5" (absolute)
  // Number: the plausible answers (`range: LO .. HI`), what the class's
  // histogram spans; unset: a robust range from the votes.
  std::optional<std::pair<double, double>> range;
};

struct ShowValue {
  std::string label;  // as written before '=' (else the key)
  std::string key;    // e.g. "atomic.ms_median", "16x16.ms_median", "fps"
};

// One backend's view of a step: the CUDA one, or the CPU one where the file
// gives cpu.* keys (smaller sizes, CPU variants).
struct StepPlan {
  nlohmann::json state = nlohmann::json::object();  // preset fragment (app/presets)
  std::string panel;                                // tool tab to show ("" : the lesson's)
  RunSpec run;
  Prediction predict;
  std::vector<ShowValue> show;
  bool table = false;  // also show every row the run measured
};

struct Step {
  std::string title;
  int line = 0;             // of its "## Step:" heading
  std::string text;         // Markdown shown from the start
  std::string explanation;  // Markdown shown after the run ("### Explanation" on)
  bool gpu_only = false;    // its numbers are about the GPU (said so on the CPU backend)
  StepPlan gpu, cpu;
  const StepPlan& plan(bool cpu_backend) const { return cpu_backend ? cpu : gpu; }
};

struct Lesson {
  std::string path;
  std::string title;  // the first "# " heading
  std::string intro;  // Markdown before the first step
  std::vector<Step> steps;
};

// Every problem found, each "FILE: step K 'Title' (line L): field 'F': why".
class LessonError : public std::runtime_error {
 public:
  explicit LessonError(std::vector<std::string> problems);
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  std::vector<std::string> problems_;
};

// Parses `text` (the file's contents; `path` names it in messages). Throws
// LessonError listing every problem, or returns a lesson whose every name exists.
// A step's `preset:` is found beside the lesson, else among the shipped presets
// (presets::preset_dir(paths)).
Lesson parse_lesson(const std::string& text, const std::string& path, const PathConfig& paths);
// Reads and parses; an unreadable file is a LessonError naming it.
Lesson load_lesson_file(const std::string& path, const PathConfig& paths);

// The keys a step block takes (for messages and docs/lessons.md).
const std::vector<std::string>& step_keys();

// Where the shipped lessons are (lessons/ of io::find_data_dir(paths.assets):
// $CUDAVIZ_ASSETS, else beside the binary) and their *.md files, sorted.
std::string lesson_dir(const PathConfig& paths);
std::vector<std::string> shipped_lessons(const PathConfig& paths);

}  // namespace cv::lessons

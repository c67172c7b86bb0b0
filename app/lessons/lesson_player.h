#pragma once
// The "lesson" tab of the tool area: a lesson's steps one at a time (predict,
// run, reveal). Arriving at a step applies its whole state (the lesson's base,
// captured at load, with the step's preset fragment over it), so jumping to
// any step gives the same picture as walking there. Runs reuse the app's
// machinery: labs and bench targets on a LabWorker, block-shape sweeps on a
// SweepWorker (both on worker threads), scene runs counted in frames or
// seconds of the frame loop. State changes happen in service(), between
// frames, never while a frame is drawn.
#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "class/class_results.h"
#include "class/class_room.h"
#include "common/device_info.h"
#include "labs/lab_worker.h"
#include "lessons/lesson.h"
#include "lessons/lesson_values.h"
#include "lessons/markdown.h"
#include "presets/preset_apply.h"
#include "tuning/sweep_worker.h"
#include "ui/tuning_layout.h"

namespace cv::lessons {

// One step of a scripted run (--lesson FILE --frames N), for the JSON summary.
struct StepReport {
  int step = 0;
  std::string title;
  bool state_applied = false;
  std::vector<std::string> state_problems;
  // The whole state read back after arriving (a hash of the captured preset):
  // the same whichever step came before, which tests compare.
  std::string state_digest;
  std::string run;        // "none", "lab count3", "sweep fountain", "frames 60", ...
  std::string run_state;  // done, failed, cancelled (or "none")
  std::string run_error;
  nlohmann::ordered_json values = nlohmann::ordered_json::object();  // named ones, as measured
  std::vector<std::string> missing;     // named but not measured (a failure)
  std::vector<std::string> needs_gpu;   // named GPU values on the CPU backend (gpu_only step)
  int rows = 0;                         // rows the run measured
  // A step with a run: its Run button was wholly in view before the run (the
  // projector's layout; null in a report without a run).
  std::optional<bool> run_button_visible;
  std::string verdict;
  // The class's votes (class server on): question, choices, counts, the
  // measurement, the verdict (classvote::to_json's row); null when none.
  nlohmann::ordered_json class_votes;
  bool ok() const { return state_applied && missing.empty() && run_error.empty(); }
};

class LessonPlayer {
 public:
  // config: where the shipped lessons and presets are, and the scripted
  // prediction (CUDAVIZ_LESSON_PREDICT) a --lesson --frames run enters.
  LessonPlayer(Backend backend, const Config& config)
      : backend_(backend),
        paths_(config.paths),
        predict_(config.lesson_predict),
        predict_error_(config.lesson_predict_error) {}

  // A parsed lesson (--lesson, or the tab's loader); the base state is
  // captured on the next service(). Opens the tab at step `first` (0-based).
  void load(Lesson lesson, int first = 0);
  // What a file that could not be used had wrong (shown in the tab).
  void show_problems(const std::string& path, std::vector<std::string> problems);
  bool loaded() const { return lesson_.has_value(); }
  const Lesson* lesson() const { return lesson_ ? &*lesson_ : nullptr; }
  int current() const { return current_; }

  // Between frames: the steps to move (`move`: the keys' request this frame,
  // FrameRequests::lesson_move), pending loads, a step's state, a run to start,
  // a run's progress. `frame` is the frame counter.
  void service(presets::AppState& app, ui::Layout& layout, long long frame, int move);
  void draw(ui::Layout& layout);
  // Cancels and joins the workers (window closing).
  void shutdown();
  // The class server whose votes fill the hands; the lesson
  // publishes each step to it and reveals the measurement to the phones.
  void attach_class(classvote::ClassRoom* room) { class_ = room; }
  // Every step the class voted on so far, one row each (CSV/JSON export).
  std::vector<classvote::StepVotes> class_votes() const;

  // Scripted runs: play steps [first, last) one after another, each shown for
  // `show_frames` frames, then run, then revealed. Predictions come from
  // CUDAVIZ_LESSON_PREDICT ("3,12,5": hands per choice; "40": a number).
  void start_script(int first, int last, int show_frames);
  bool script_busy() const { return script_ && script_->phase != Phase::Done; }
  // "before" on a step's last frame before its run, "after" once its reveal
  // has settled, else "": which picture this frame is (for screenshots).
  std::string script_shot() const;
  int script_step() const { return script_ ? script_->step : -1; }
  const std::vector<StepReport>& reports() const { return reports_; }
  nlohmann::ordered_json summary() const;

 private:
  enum class Phase { Show, Running, Reveal, Done };
  struct Script {
    int step = 0, last = 0, show_frames = 2;
    Phase phase = Phase::Show;
    int frames = 0;  // in this phase
    bool entered = false;
    bool run_visible = false;  // a Run button was wholly in view before the run
  };
  enum class RunKind { None, Lab, Sweep, Scene };

  const StepPlan& plan() const { return lesson_->steps[current_].plan(backend_ == Backend::Cpu); }
  void capture_base(presets::AppState& app);
  void apply_step(presets::AppState& app, ui::Layout& layout);
  std::optional<std::string> start_run(presets::AppState& app);
  void poll_run(presets::AppState& app);
  void finish_run(presets::AppState& app);
  void script_tick(presets::AppState& app);
  void fill_script_prediction();
  StepReport report_step() const;
  std::string run_label() const;
  bool running() const { return run_kind_ != RunKind::None && !run_done_; }

  // The tab's parts (lessons/lesson_panel.cpp).
  void draw_loader();
  void draw_navigation();
  void note_run_button();
  void draw_prediction();
  void draw_run_controls();
  void draw_reveal();
  void draw_rows();
  // The class's votes (lessons/lesson_class.cpp).
  void sync_class();
  void reveal_to_class();
  bool class_voting() const;
  void draw_class_votes();
  void draw_votes();            // the votes in place of the hands (live counts)
  void draw_class_histogram();  // at the reveal: the class's numbers beside the measurement
  void export_class_votes();

  Backend backend_;
  PathConfig paths_;
  std::optional<std::vector<double>> predict_;  // CUDAVIZ_LESSON_PREDICT's numbers
  std::string predict_error_;                    // why they were refused
  std::optional<Lesson> lesson_;
  std::vector<std::vector<Block>> text_, explanation_;  // parsed Markdown per step
  std::vector<Block> intro_;
  std::string path_;
  std::vector<std::string> problems_;  // of the last load that failed
  nlohmann::json base_;                // the state every step starts from
  bool need_base_ = false;
  int current_ = 0;
  std::optional<int> go_request_;
  bool run_request_ = false;
  bool run_button_visible_ = false;  // this frame: a Run button wholly in view

  // The step as shown: its state check, the class's prediction, the run.
  std::vector<std::string> state_problems_;
  bool state_applied_ = false;
  std::string state_digest_;
  std::vector<int> hands_;
  double guess_ = 0;
  bool guess_given_ = false;
  RunKind run_kind_ = RunKind::None;
  bool run_done_ = false;
  std::string run_error_;
  long long run_frames_left_ = 0;
  std::chrono::steady_clock::time_point run_until_;
  std::vector<nlohmann::ordered_json> rows_;  // what the run measured
  Values values_;
  Verdict verdict_;
  labs::LabWorker labs_;
  tuning::SweepWorker sweep_;

  ui::ToolTab tab_{ui::Tool::Lesson};
  int shipped_ = 0;
  char path_field_[512] = "";
  std::optional<std::string> load_request_;
  std::string message_;

  std::optional<Script> script_;
  std::vector<StepReport> reports_;

  // A step's run, kept at its reveal: coming back to the step (PageUp) shows
  // it again, and the phones get that step's round back with its votes.
  struct Outcome {
    std::vector<nlohmann::ordered_json> rows;
    Values values;
    Verdict verdict;
    std::vector<int> hands;
    double guess = 0;
    bool guess_given = false;
    std::string run_error;
  };
  std::map<int, Outcome> outcomes_;  // by step (0-based)
  void keep_outcome();
  bool restore_outcome();

  classvote::ClassRoom* class_ = nullptr;
  std::map<int, uint64_t> revealed_rounds_;  // by step: the store's round revealed
  const classvote::VoteStore* rounds_of_ = nullptr;  // the store those rounds are in
  const classvote::VoteStore* published_to_ = nullptr;
  int published_step_ = -1;
  uint64_t round_ = 0;               // the store's round for this step
  std::map<int, classvote::StepVotes> class_votes_;  // by step (0-based), at each reveal
  std::string export_message_;
};

}  // namespace cv::lessons

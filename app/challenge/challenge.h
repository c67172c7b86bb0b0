#pragma once
// Challenge mode (docs/class_server.md): the teacher picks a template, a goal
// and a deadline (the challenge tab, or --challenge TEMPLATE); the class
// server serves the students an editor page; each submission is judged off
// the UI thread (challenge/judge_queue.h) and ranked. The tab shows the
// queue, the leaderboard with the built-ins as reference lines, a
// submission's source, and puts one into the live scene and back.
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "challenge/challenge_store.h"
#include "challenge/judge_queue.h"
#include "class/class_room.h"
#include "ui/tuning_layout.h"

namespace cv::challenge {

// "Run this one in the scene": the app (core) switches to the template's
// scene, shows the text in the kernel tab and runs it; `back` returns to the
// built-in kernel.
struct LiveRequest {
  bool back = false;
  std::string template_name, source, label;  // label: "challenge #12 (Ada)"
  std::string scene;                          // the scene the template feeds ("" : a lab)
};

class Challenge {
 public:
  Challenge(Backend backend, PathConfig paths);
  ~Challenge();
  // Its API joins every class server the room starts from now on.
  void attach(classvote::ClassRoom& room);

  // Opens a challenge (the judge's workers start); why not, in words.
  std::optional<std::string> open(const ChallengeSettings& s);
  void close();
  bool is_open() const { return store_->is_open(); }
  const ChallengeStore& store() const { return *store_; }

  void draw(ui::Layout& layout);  // the challenge tab (challenge/challenge_tab.cpp)
  void open_tab() { tab_.expand(); }
  std::optional<LiveRequest> take_live_request();
  // For the --frames summary: submissions, verdicts, submit-to-verdict p50/p99.
  nlohmann::ordered_json summary() const;

 private:
  void draw_settings();
  void draw_queue();
  void draw_board();
  void draw_source();

  Backend backend_;
  PathConfig paths_;
  std::shared_ptr<ChallengeStore> store_ = std::make_shared<ChallengeStore>();
  std::unique_ptr<JudgeQueue> queue_;
  classvote::ClassRoom* room_ = nullptr;
  ui::ToolTab tab_{ui::Tool::Challenge};
  // The tab's fields.
  int template_index_ = 0;
  int goal_kind_ = 0;  // 0 fastest, 1 target
  float target_ms_ = 1.f;
  int deadline_min_ = 0;
  std::string message_;
  uint64_t shown_source_ = 0;  // the submission whose text the tab shows (0: none)
  std::optional<LiveRequest> live_;
  uint64_t live_submission_ = 0;
};

}  // namespace cv::challenge

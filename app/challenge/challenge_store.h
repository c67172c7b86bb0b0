#pragma once
// A challenge's state (docs/class_server.md, "Challenge mode"): what the
// teacher set (template, goal, deadline), every submission with its place in
// the stages (queued, compiling, waiting for a device, running, explaining,
// done) and verdict, each student's best, and the built-ins' reference times.
// Thread-safe: the server's threads submit and read, the judge's workers take
// work and report, the frame reads snapshots. Fair: one submission in flight
// per student, and the next one taken is the one whose student has had the
// fewest judged (then the oldest): round robin across the class.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "challenge/judge.h"

namespace cv::challenge {

constexpr size_t kMaxSourceBytes = 64 * 1024;  // a kernel is small (the app's editor takes 256 KiB)

struct Goal {
  enum class Kind { Fastest, Target } kind = Kind::Fastest;
  double target_ms = 1.0;  // Target: correct and at most this median time
};

struct ChallengeSettings {
  std::string template_name;
  Goal goal;
  double deadline_s = 0;  // minutes from the opening, in seconds; 0: none
};

// Judged: the verdict is out, explain's findings are still to come.
enum class Stage { Queued, Compiling, Waiting, Running, Judged, Explaining, Done };
const char* to_string(Stage s);

struct Submission {
  uint64_t id = 0;
  int device = 0;  // the student's device number (class/vote_store.h)
  std::string token;
  std::string source;
  uint64_t seed = 1;
  Stage stage = Stage::Queued;
  double submitted_s = 0, verdict_s = 0, done_s = 0;  // seconds since the challenge opened
  Compiled compiled;
  Verdict verdict;
  bool has_verdict = false;
};

// One line of the leaderboard.
struct Standing {
  int device = 0;
  double ms = 0;  // best correct median
  uint64_t submission = 0;
  bool meets_goal = false;
};

class ChallengeStore {
 public:
  // Opens a new challenge (drops the last one's submissions).
  void open(const ChallengeSettings& s);
  void close();  // no more submissions; the queue empties
  bool is_open() const;
  ChallengeSettings settings() const;
  double seconds_left() const;  // until the deadline (< 0: passed; +inf: none)

  // A student's kernel: its id, or why not ("" id 0): closed, the deadline
  // passed, one already in flight, empty or too large.
  uint64_t submit(const std::string& token, int device, const std::string& source, std::string* why);

  // Workers: wait for the next item of their stage (fair order), false once
  // `stop` is set. Compile and explain are CPU work; run needs a device.
  enum class Work { Compile, Run, Explain };
  bool take(Work w, const std::atomic<bool>& stop, Submission& out);
  void compiled(uint64_t id, const Compiled& c, const Verdict& v);  // v final when it failed
  void ran(uint64_t id, const Verdict& v);   // the verdict is visible from now
  void explained(uint64_t id, const Verdict& v);
  void wake_all();  // workers re-check `stop`

  // Snapshots.
  std::vector<Submission> queue() const;  // not yet done, in the order they will be taken
  std::optional<Submission> submission(uint64_t id) const;
  std::vector<Submission> of_device(int device, size_t last) const;
  std::vector<Standing> standings() const;  // best first
  void set_builtins(std::vector<std::pair<std::string, double>> b);
  std::vector<std::pair<std::string, double>> builtins() const;
  // Submit-to-verdict seconds of every judged submission.
  std::vector<double> latencies() const;
  size_t total() const;

 private:
  double now_s() const;
  bool in_flight(int device) const;  // under mu_
  Submission* pick(Stage stage);     // under mu_
  void update_best(const Submission& s);  // under mu_

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
  ChallengeSettings settings_;
  std::chrono::steady_clock::time_point opened_ = std::chrono::steady_clock::now();
  uint64_t next_id_ = 1;
  std::map<uint64_t, Submission> subs_;  // by id
  std::map<int, int> judged_;            // by device: submissions judged (fairness)
  std::map<int, Standing> best_;         // by device
  std::vector<std::pair<std::string, double>> builtins_;
};

}  // namespace cv::challenge

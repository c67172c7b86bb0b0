#pragma once
// A challenge's state (docs/class_server.md, "Challenge mode"): what the
// teacher set (template, goal, deadline), every submission with its place in
// the stages (queued, compiling, waiting for a device, running, explaining,
// done) and verdict, each student's best, and the built-ins' reference times.
// Thread-safe: the server's threads submit and read, the judge's workers take
// work and report, the frame reads snapshots. Fair: one submission in flight
// per student, and the next one taken is the one whose address has had the
// fewest started, then whose student has, then the oldest: round robin across
// the class, and a hundred names from one address share one address's turn.
// Bounded: kernels waiting in all and per address, and the texts and records
// kept (the oldest that are nobody's best are dropped first).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstddef>
#include <map>
#include <mutex>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "challenge/judge.h"

namespace cv::challenge {

constexpr size_t kMaxSourceBytes = 64 * 1024;  // a kernel is small (the app's editor takes 256 KiB)

// What one challenge holds at most.
struct StoreLimits {
  size_t waiting = 256;              // kernels not yet judged, in all
  size_t held_bytes = 128u << 20;    // submissions' texts kept, in all
  size_t records = 50000;            // submissions kept (their verdicts), in all
  // Explain (the race check) waits while kernels wait to compile (their first
  // verdict first), at most this long after the verdict it would check.
  double explain_yield_s = 20;
};

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
  std::string address;  // the client's address ("" : none, tests)
  // The text: filled by take() and submission(id) only (the other snapshots
  // leave it empty); "" for good once dropped to bound what is kept.
  std::string source;
  bool source_dropped = false;
  uint64_t seed = 1;
  Stage stage = Stage::Queued;
  double submitted_s = 0, verdict_s = 0, done_s = 0;  // seconds since the challenge opened
  Compiled compiled;
  // The GPU compile's unguarded PTX, kept from the run to explain (which reads
  // how nvcc unrolled the loops from it) and dropped after; none on the CPU.
  // Shared: the store's snapshots copy a submission and never need it.
  std::shared_ptr<const std::string> gpu_ptx;
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
  explicit ChallengeStore(StoreLimits limits = {}) : limits_(limits) {}
  // Opens a new challenge (drops the last one's submissions).
  void open(const ChallengeSettings& s);
  void close();  // no more submissions; the queue empties
  bool is_open() const;
  ChallengeSettings settings() const;
  double seconds_left() const;  // until the deadline (< 0: passed; +inf: none)

  // A student's kernel: its id (status 202), or id 0 with the HTTP status
  // and why not: closed or the deadline passed (400), empty or a NUL (400),
  // too large (413), one already in flight (409), the judge full (503), or
  // the address has `per_address` kernels waiting already (429).
  struct From {
    std::string token;
    int device = 0;
    std::string address;
  };
  struct Outcome {
    uint64_t id = 0;
    int status = 202;
    std::string why;
  };
  Outcome submit(const From& from, const std::string& source, size_t per_address = SIZE_MAX);
  // The same without an address (tests, the app's own).
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
  std::optional<Submission> submission(uint64_t id) const;  // with its text
  std::vector<Submission> of_device(int device, size_t last) const;  // latest first
  size_t held_bytes() const;  // the texts kept
  std::vector<Standing> standings() const;  // best first
  void set_builtins(std::vector<std::pair<std::string, double>> b);
  std::vector<std::pair<std::string, double>> builtins() const;
  // Submit-to-verdict seconds of every judged submission.
  std::vector<double> latencies() const;
  std::vector<Submission> done() const;  // every submission done (explained too), oldest first
  size_t total() const;

 private:
  double now_s() const;
  Submission* pick(Stage stage);     // under mu_
  void update_best(const Submission& s);  // under mu_
  void judged(Submission& s);        // under mu_: the verdict is out (the waiting counts)
  bool is_best(const Submission& s) const;  // under mu_
  bool waiting_queued() const;       // under mu_: a kernel waits to start compiling
  void make_room(size_t bytes);      // under mu_: drops old texts and records past the bounds
  void drop_text(Submission& s);     // under mu_

  const StoreLimits limits_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
  ChallengeSettings settings_;
  std::chrono::steady_clock::time_point opened_ = std::chrono::steady_clock::now();
  uint64_t next_id_ = 1;
  std::map<uint64_t, Submission> subs_;  // by id (their texts apart, in texts_)
  std::map<uint64_t, std::string> texts_;  // by id: the texts kept
  std::set<uint64_t> active_;            // ids not yet done (what the workers look through)
  std::map<int, int> started_;           // by device: submissions taken to compile (fairness)
  std::map<std::string, int> started_at_;  // by address: the same
  std::set<int> waiting_devices_;        // devices with a kernel not yet judged
  std::map<std::string, size_t> waiting_at_;  // by address: kernels not yet judged
  size_t waiting_ = 0;                   // kernels not yet judged, in all
  size_t held_bytes_ = 0;                // the texts kept
  std::map<int, Standing> best_;         // by device
  std::vector<std::pair<std::string, double>> builtins_;
};

}  // namespace cv::challenge

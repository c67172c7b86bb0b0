#pragma once
// The class's votes: who joined (a token per phone, given for the
// join code), the step the teacher shows, one vote per token per step
// (changeable until the reveal), and the reveal. Thread-safe: the server's
// threads call join/vote/view, the frame calls publish/reveal (rare, short)
// and reads tally(), a snapshot swapped in atomically after every change, so
// the render loop never waits on the server.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cv::classvote {

// A range of plausible numeric answers.
struct Range {
  double lo = 0, hi = 0;
};

// What the phones see of the teacher's current step.
struct Question {
  enum class Kind { None, Choice, Number } kind = Kind::None;
  int step = 0;   // the lesson's step, from 1 (0: no lesson)
  int steps = 0;  // how many the lesson has
  std::string lesson, title, question, unit;
  std::vector<std::string> choices;
  std::optional<Range> range;  // Number: the plausible answers (the lesson's `range`)
};

// What the measurement said, shown on the phones beside the class's votes.
struct Reveal {
  std::string measured;             // "12.3 ms", "wrong: 1,234 of 5,000"
  std::optional<double> value;      // Number: the measured value
  int correct_choice = -1;          // Choice: the one the measurement picks
  std::string verdict;              // the lesson's one-line verdict
  std::vector<std::pair<std::string, std::string>> shown;  // the step's values: label, "12.3 ms"
};

// Numeric predictions in bins (log-spaced where they span a factor over 10)
// over a plausible range: the one given (a lesson's), else a robust one from
// the votes (their median +- 5 median absolute deviations, at least a factor
// of 10 or the median's size), widened to hold the measured value. A vote
// outside it is counted in the edge bin (below / above say how many), so one
// 1e300 cannot stretch the axis.
struct Histogram {
  std::vector<double> edges;  // bins + 1
  std::vector<int> counts;    // bins
  bool log = false;
  int below = 0, above = 0;   // votes counted in the first / last bin from outside the range
};
Histogram make_histogram(const std::vector<double>& xs, std::optional<double> also, int bins = 8,
                         std::optional<Range> plausible = std::nullopt);
// The robust range of make_histogram (without `also`); nullopt for no finite value.
std::optional<Range> robust_range(const std::vector<double>& xs);

// The snapshot the frame reads.
struct Tally {
  uint64_t version = 0;  // bumps on every change
  uint64_t seq = 0;      // votes accepted so far (each accepted vote's number)
  uint64_t round = 0;    // the published step's id (a new one each publish)
  int step = 0;          // Question::step of that round
  Question::Kind kind = Question::Kind::None;
  int joined = 0;        // tokens given
  int voted = 0;         // tokens with a vote this round
  std::vector<int> counts;      // Choice: votes per choice
  std::vector<double> numbers;  // Number: every vote's value
  bool closed = false;    // no more votes this round
  bool revealed = false;
};

enum class VoteResult { Ok, BadToken, NoQuestion, WrongRound, Closed, BadChoice, BadValue };
enum class JoinRefusal { None, WrongCode, Full, Removed };

// A phone (a browser tab) that joined, as the teacher's device list shows it.
struct Device {
  int number = 0;           // from 1, in the order they joined
  std::string address;      // the client's address
  std::string name;         // the display name chosen (challenges), "" until then
  bool name_hidden = false; // the teacher hid it from the leaderboard
  double joined_s = 0;      // seconds since the store started
  double seen_s = 0;        // last request
};
const char* to_string(VoteResult r);
int http_status(VoteResult r);  // 200, 403, 409, 400

class VoteStore {
 public:
  // `code`: the join code phones must give; at most `max_devices` tokens.
  explicit VoteStore(std::string code, int max_devices = 2000);

  const std::string& code() const { return code_; }
  // A new token for the right code (compared in constant time); nullopt for a
  // wrong one, when max_devices have joined, or from an address the teacher
  // removed a device of (`why` says which).
  std::optional<std::string> join(const std::string& code, const std::string& address,
                                  JoinRefusal* why = nullptr);
  std::optional<std::string> join(const std::string& code, bool* full = nullptr);
  bool known(const std::string& token) const;

  // The teacher's controls: the class size cap (at least those joined stay),
  // the devices, removing one (its token ends; `block` refuses its address's
  // joins from then on), a display name and hiding it.
  void set_max_devices(int n);
  int max_devices() const;
  std::vector<Device> devices() const;
  bool remove_device(int number, bool block);
  // The phone's display name, checked (display_name.h); "" or why not.
  std::string set_name(const std::string& token, const std::string& name);
  void hide_name(int number, bool hidden);
  // The device behind a token (nullopt: unknown).
  std::optional<Device> device(const std::string& token) const;
  // One vote per token per round; a second one replaces the first until the
  // reveal. `seq_out`: the vote's number (Tally::seq once it is counted).
  VoteResult vote_choice(const std::string& token, uint64_t round, int choice,
                         uint64_t* seq_out = nullptr);
  VoteResult vote_number(const std::string& token, uint64_t round, double value,
                         uint64_t* seq_out = nullptr);

  // The teacher moves to a step: a new round, no votes. Returns its id.
  uint64_t publish(const Question& q);
  // The teacher comes back to a step already revealed: its round again, with
  // its votes and reveal (closed). False when that round was never revealed.
  bool revisit(uint64_t round);
  // The run is over: no more votes this round. Returns the final tally, the
  // one the verdict judges (a vote after it is refused, never lost).
  std::shared_ptr<const Tally> close();
  // The measurement is in: votes close (if still open), phones see the result.
  void reveal(const Reveal& r);

  // Lock-free for the reader: the latest snapshot.
  std::shared_ptr<const Tally> tally() const;
  // What GET /api/step answers for `token` (docs/class_server.md).
  nlohmann::json view(const std::string& token) const;
  // When vote number `seq` was accepted (steady_clock ns; 0: unknown or long
  // gone): the frame measures vote-to-screen latency with it, lock-free.
  int64_t accepted_ns(uint64_t seq) const;

 private:
  struct Vote {
    int choice = -1;
    double value = 0;
  };
  struct Archived {  // a revealed round, for revisit()
    Question question;
    std::map<std::string, Vote> votes;
    Reveal reveal;
  };
  double now_s() const;
  VoteResult vote(const std::string& token, uint64_t round, Vote v, uint64_t* seq_out);
  void publish_snapshot();  // under mu_
  nlohmann::json result_json() const;  // under mu_

  const std::string code_;
  int max_devices_;  // under mu_
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  mutable std::mutex mu_;
  mutable std::map<std::string, Device> tokens_;  // token -> device (seen_s changes on reads)
  std::vector<std::string> blocked_;              // addresses refused
  int next_device_ = 1;
  std::map<uint64_t, Archived> archive_;          // revealed rounds, by round
  Question question_;
  uint64_t round_ = 0, seq_ = 0, version_ = 0;
  std::map<std::string, Vote> votes_;  // this round's, by token
  std::optional<Reveal> reveal_;
  bool closed_ = false;
  nlohmann::json last_result_;  // the last revealed round's question and result
  std::shared_ptr<const Tally> snapshot_;
  static constexpr size_t kTimes = 1 << 14;
  std::unique_ptr<std::atomic<int64_t>[]> accepted_ns_{new std::atomic<int64_t>[kTimes]()};
};

// A join code of `length` characters (4..6) from letters and digits that
// cannot be confused on a projector (no 0/O, 1/I/L), and 128-bit tokens.
std::string make_join_code(int length = 5);
std::string make_token();

}  // namespace cv::classvote

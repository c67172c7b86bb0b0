#include "challenge/challenge_store.h"

#include <algorithm>
#include <limits>
#include <random>

namespace cv::challenge {

namespace {
constexpr size_t kMaxHeldSourceBytes = 128u << 20;  // every submission's text kept, up to this
}

const char* to_string(Stage s) {
  switch (s) {
    case Stage::Queued:
      return "queued";
    case Stage::Compiling:
      return "compiling";
    case Stage::Waiting:
      return "waiting for the GPU";
    case Stage::Running:
      return "running";
    case Stage::Judged:
      return "judged, to explain";
    case Stage::Explaining:
      return "explaining";
    case Stage::Done:
      return "done";
  }
  return "?";
}

double ChallengeStore::now_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - opened_).count();
}

void ChallengeStore::open(const ChallengeSettings& s) {
  std::lock_guard<std::mutex> lock(mu_);
  settings_ = s;
  open_ = true;
  opened_ = std::chrono::steady_clock::now();
  subs_.clear();
  judged_.clear();
  best_.clear();
  builtins_.clear();
  cv_.notify_all();
}

void ChallengeStore::close() {
  std::lock_guard<std::mutex> lock(mu_);
  open_ = false;
  cv_.notify_all();
}

bool ChallengeStore::is_open() const {
  std::lock_guard<std::mutex> lock(mu_);
  return open_;
}

ChallengeSettings ChallengeStore::settings() const {
  std::lock_guard<std::mutex> lock(mu_);
  return settings_;
}

double ChallengeStore::seconds_left() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (settings_.deadline_s <= 0) return std::numeric_limits<double>::infinity();
  return settings_.deadline_s - now_s();
}

bool ChallengeStore::in_flight(int device) const {
  for (const auto& [id, s] : subs_)
    if (s.device == device && s.stage != Stage::Done && !s.has_verdict) return true;
  return false;
}

uint64_t ChallengeStore::submit(const std::string& token, int device, const std::string& source,
                                std::string* why) {
  auto refuse = [&](const std::string& w) {
    if (why) *why = w;
    return uint64_t{0};
  };
  if (source.find_first_not_of(" \t\r\n") == std::string::npos) return refuse("the kernel is empty");
  if (source.size() > kMaxSourceBytes)
    return refuse("the kernel is over " + std::to_string(kMaxSourceBytes / 1024) + " KiB");
  if (source.find('\0') != std::string::npos) return refuse("the kernel holds a NUL byte");
  std::lock_guard<std::mutex> lock(mu_);
  if (!open_) return refuse("no challenge is open");
  if (settings_.deadline_s > 0 && now_s() > settings_.deadline_s) return refuse("the deadline has passed");
  if (in_flight(device)) return refuse("your last kernel is still being judged: wait for its verdict");
  size_t held = 0;
  for (const auto& [id, s] : subs_) held += s.source.size();
  if (held + source.size() > kMaxHeldSourceBytes) return refuse("the challenge holds all the kernels it can");
  Submission s;
  s.id = next_id_++;
  s.device = device;
  s.token = token;
  s.source = source;
  s.seed = std::random_device{}() | (uint64_t{std::random_device{}()} << 32);
  s.submitted_s = now_s();
  subs_[s.id] = s;
  cv_.notify_all();
  return s.id;
}

// The fair order: the student with the fewest judged first, then the oldest.
Submission* ChallengeStore::pick(Stage stage) {
  Submission* best = nullptr;
  for (auto& [id, s] : subs_) {
    if (s.stage != stage) continue;
    if (!best) {
      best = &s;
      continue;
    }
    const int a = judged_[s.device], b = judged_[best->device];
    if (a < b || (a == b && s.id < best->id)) best = &s;
  }
  return best;
}

bool ChallengeStore::take(Work w, const std::atomic<bool>& stop, Submission& out) {
  std::unique_lock<std::mutex> lock(mu_);
  const Stage from = w == Work::Compile ? Stage::Queued : w == Work::Run ? Stage::Waiting : Stage::Judged;
  const Stage to = w == Work::Compile ? Stage::Compiling : w == Work::Run ? Stage::Running : Stage::Explaining;
  for (;;) {
    if (stop) return false;
    if (Submission* s = pick(from)) {
      s->stage = to;
      out = *s;
      out.source = s->source;
      return true;
    }
    cv_.wait(lock);
  }
}

void ChallengeStore::compiled(uint64_t id, const Compiled& c, const Verdict& v) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = subs_.find(id);
  if (it == subs_.end()) return;
  Submission& s = it->second;
  if (v.outcome == Verdict::Outcome::CompileError) {
    s.verdict = v;
    s.has_verdict = true;
    s.stage = Stage::Done;
    s.verdict_s = s.done_s = now_s();
    ++judged_[s.device];
  } else {
    s.compiled = c;
    s.verdict = v;  // its marks (warnings)
    s.stage = Stage::Waiting;
  }
  cv_.notify_all();
}

void ChallengeStore::ran(uint64_t id, const Verdict& v) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = subs_.find(id);
  if (it == subs_.end()) return;
  Submission& s = it->second;
  s.compiled = {};  // the binary is not needed again
  s.verdict = v;
  s.has_verdict = true;
  s.verdict_s = now_s();
  ++judged_[s.device];
  // Explain only what ran: a fault or a failure is its own message.
  const bool explain = v.outcome == Verdict::Outcome::Correct || v.outcome == Verdict::Outcome::Wrong;
  s.stage = explain ? Stage::Judged : Stage::Done;
  if (!explain) s.done_s = s.verdict_s;
  update_best(s);
  cv_.notify_all();
}

void ChallengeStore::explained(uint64_t id, const Verdict& v) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = subs_.find(id);
  if (it == subs_.end()) return;
  Submission& s = it->second;
  s.verdict.findings = v.findings;
  s.verdict.explain_note = v.explain_note;
  s.stage = Stage::Done;
  s.done_s = now_s();
  if (v.racy && s.verdict.outcome == Verdict::Outcome::Correct) {
    // Right this time, but threads race: on another run or GPU the answer varies.
    s.verdict.outcome = Verdict::Outcome::Wrong;
    s.verdict.racy = true;
    s.verdict.message = "wrong: threads race (explain found it below); the answer was right this time, "
                        "but it can differ on another run or GPU";
    best_.erase(s.device);
    for (const auto& [id, other] : subs_)
      if (other.device == s.device) update_best(other);
  }
}

void ChallengeStore::wake_all() {
  std::lock_guard<std::mutex> lock(mu_);
  cv_.notify_all();
}

void ChallengeStore::update_best(const Submission& s) {
  if (s.verdict.outcome != Verdict::Outcome::Correct || s.verdict.ms_median <= 0) return;
  Standing& b = best_[s.device];
  if (b.submission && b.ms <= s.verdict.ms_median) return;
  b.device = s.device;
  b.ms = s.verdict.ms_median;
  b.submission = s.id;
  b.meets_goal = settings_.goal.kind == Goal::Kind::Fastest || b.ms <= settings_.goal.target_ms;
}

std::vector<Submission> ChallengeStore::queue() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Submission> out;
  for (const auto& [id, s] : subs_)
    if (s.stage != Stage::Done) {
      out.push_back(s);
      out.back().source.clear();
      out.back().compiled = {};
    }
  const auto judged = judged_;
  std::stable_sort(out.begin(), out.end(), [&](const Submission& a, const Submission& b) {
    if (a.stage != b.stage) return a.stage > b.stage;  // furthest along first
    const int ja = judged.count(a.device) ? judged.at(a.device) : 0;
    const int jb = judged.count(b.device) ? judged.at(b.device) : 0;
    return ja != jb ? ja < jb : a.id < b.id;
  });
  return out;
}

std::optional<Submission> ChallengeStore::submission(uint64_t id) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = subs_.find(id);
  if (it == subs_.end()) return std::nullopt;
  Submission s = it->second;
  s.compiled = {};
  return s;
}

std::vector<Submission> ChallengeStore::of_device(int device, size_t last) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Submission> out;
  for (auto it = subs_.rbegin(); it != subs_.rend() && out.size() < last; ++it)
    if (it->second.device == device) {
      out.push_back(it->second);
      out.back().compiled = {};
    }
  return out;
}

std::vector<Standing> ChallengeStore::standings() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Standing> out;
  for (const auto& [device, b] : best_) {
    out.push_back(b);
  }
  // Correct first, then those meeting the goal, then the fastest.
  std::sort(out.begin(), out.end(), [](const Standing& a, const Standing& b) {
    if (a.meets_goal != b.meets_goal) return a.meets_goal;
    return a.ms != b.ms ? a.ms < b.ms : a.submission < b.submission;
  });
  return out;
}

void ChallengeStore::set_builtins(std::vector<std::pair<std::string, double>> b) {
  std::lock_guard<std::mutex> lock(mu_);
  builtins_ = std::move(b);
}

std::vector<std::pair<std::string, double>> ChallengeStore::builtins() const {
  std::lock_guard<std::mutex> lock(mu_);
  return builtins_;
}

std::vector<double> ChallengeStore::latencies() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<double> out;
  for (const auto& [id, s] : subs_)
    if (s.has_verdict) out.push_back(s.verdict_s - s.submitted_s);
  return out;
}

size_t ChallengeStore::total() const {
  std::lock_guard<std::mutex> lock(mu_);
  return subs_.size();
}

}  // namespace cv::challenge

#include "challenge/challenge_store.h"

#include <algorithm>
#include <limits>
#include <random>
#include <tuple>

namespace cv::challenge {

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
  texts_.clear();
  active_.clear();
  started_.clear();
  started_at_.clear();
  waiting_devices_.clear();
  waiting_at_.clear();
  waiting_ = held_bytes_ = 0;
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

ChallengeStore::Outcome ChallengeStore::submit(const From& from, const std::string& source,
                                               size_t per_address) {
  auto refuse = [](int status, const std::string& w) { return Outcome{0, status, w}; };
  if (source.find_first_not_of(" \t\r\n") == std::string::npos) return refuse(400, "the kernel is empty");
  if (source.size() > kMaxSourceBytes)
    return refuse(413, "the kernel is over " + std::to_string(kMaxSourceBytes / 1024) + " KiB");
  if (source.find('\0') != std::string::npos) return refuse(400, "the kernel holds a NUL byte");
  std::lock_guard<std::mutex> lock(mu_);
  if (!open_) return refuse(400, "no challenge is open");
  if (settings_.deadline_s > 0 && now_s() > settings_.deadline_s) return refuse(400, "the deadline has passed");
  if (waiting_devices_.count(from.device))
    return refuse(409, "your last kernel is still being judged: wait for its verdict");
  if (waiting_ >= limits_.waiting)
    return refuse(503, "the judge has " + std::to_string(waiting_) + " kernels waiting: try again in a minute");
  const auto at = waiting_at_.find(from.address);
  if (!from.address.empty() && at != waiting_at_.end() && at->second >= per_address)
    return refuse(429, "this address has " + std::to_string(at->second) +
                           " kernels waiting (the most one address may have): try again when one is judged");
  make_room(source.size());
  if (held_bytes_ + source.size() > limits_.held_bytes)
    return refuse(503, "the challenge holds all the kernels it can");
  Submission s;
  s.id = next_id_++;
  s.device = from.device;
  s.token = from.token;
  s.address = from.address;
  texts_[s.id] = source;  // apart: the snapshots below copy records, not texts
  s.seed = std::random_device{}() | (uint64_t{std::random_device{}()} << 32);
  s.submitted_s = now_s();
  subs_[s.id] = s;
  active_.insert(s.id);
  waiting_devices_.insert(s.device);
  ++waiting_at_[s.address];
  ++waiting_;
  held_bytes_ += source.size();
  cv_.notify_all();
  return {s.id, 202, ""};
}

uint64_t ChallengeStore::submit(const std::string& token, int device, const std::string& source,
                                std::string* why) {
  const Outcome o = submit(From{token, device, ""}, source);
  if (why) *why = o.why;
  return o.id;
}

bool ChallengeStore::waiting_queued() const {
  for (const uint64_t id : active_)
    if (subs_.at(id).stage == Stage::Queued) return true;
  return false;
}

bool ChallengeStore::is_best(const Submission& s) const {
  const auto b = best_.find(s.device);
  return b != best_.end() && b->second.submission == s.id;
}

// Past the bounds, the oldest judged texts that are nobody's best go first,
// then (past limits_.records) whole records of that kind. Oldest first: ids grow.
void ChallengeStore::make_room(size_t bytes) {
  for (auto it = subs_.begin(); it != subs_.end() && held_bytes_ + bytes > limits_.held_bytes; ++it) {
    Submission& s = it->second;
    if (s.stage != Stage::Done || is_best(s) || s.source_dropped) continue;
    drop_text(s);
  }
  for (auto it = subs_.begin(); it != subs_.end() && subs_.size() >= limits_.records;) {
    if (it->second.stage != Stage::Done || is_best(it->second)) {
      ++it;
      continue;
    }
    drop_text(it->second);
    it = subs_.erase(it);
  }
}

void ChallengeStore::drop_text(Submission& s) {
  const auto t = texts_.find(s.id);
  if (t == texts_.end()) return;
  held_bytes_ -= t->second.size();
  texts_.erase(t);
  s.source_dropped = true;
}

void ChallengeStore::judged(Submission& s) {
  s.has_verdict = true;
  waiting_devices_.erase(s.device);
  if (auto at = waiting_at_.find(s.address); at != waiting_at_.end() && --at->second == 0) waiting_at_.erase(at);
  --waiting_;
}

// The fair order: the address with the fewest kernels started first, then
// the student with the fewest, then the oldest.
Submission* ChallengeStore::pick(Stage stage) {
  Submission* best = nullptr;
  auto key = [&](const Submission& s) {
    return std::make_tuple(started_at_[s.address], started_[s.device], s.id);
  };
  for (const uint64_t id : active_) {
    Submission& s = subs_.at(id);
    if (s.stage != stage) continue;
    if (!best || key(s) < key(*best)) best = &s;
  }
  return best;
}

bool ChallengeStore::take(Work w, const std::atomic<bool>& stop, Submission& out) {
  std::unique_lock<std::mutex> lock(mu_);
  const Stage from = w == Work::Compile ? Stage::Queued : w == Work::Run ? Stage::Waiting : Stage::Judged;
  const Stage to = w == Work::Compile ? Stage::Compiling : w == Work::Run ? Stage::Running : Stage::Explaining;
  for (;;) {
    if (stop) return false;
    Submission* s = pick(from);
    if (s && w == Work::Explain && waiting_queued() && now_s() - s->verdict_s < limits_.explain_yield_s) {
      cv_.wait_for(lock, std::chrono::milliseconds(500));
      continue;
    }
    if (s) {
      if (w == Work::Compile) {  // its student and address have one more started
        ++started_[s->device];
        ++started_at_[s->address];
      }
      s->stage = to;
      out = *s;
      out.source = texts_.at(s->id);  // not yet done: its text is kept
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
    judged(s);
    s.stage = Stage::Done;
    active_.erase(s.id);
    s.verdict_s = s.done_s = now_s();
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
  if (s.compiled.result && s.compiled.result->ok && !s.compiled.result->ptx.empty())
    s.gpu_ptx = std::make_shared<const std::string>(s.compiled.result->ptx);
  s.compiled = {};  // the binary is not needed again
  s.verdict = v;
  judged(s);
  s.verdict_s = now_s();
  // Explain only what ran: a fault or a failure is its own message.
  const bool explain = v.outcome == Verdict::Outcome::Correct || v.outcome == Verdict::Outcome::Wrong;
  s.stage = explain ? Stage::Judged : Stage::Done;
  if (!explain) {
    s.done_s = s.verdict_s;
    active_.erase(s.id);
  }
  // A correct kernel joins the board in explained(), once no race was found.
  cv_.notify_all();
}

void ChallengeStore::explained(uint64_t id, const Verdict& v) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = subs_.find(id);
  if (it == subs_.end()) return;
  Submission& s = it->second;
  s.gpu_ptx.reset();
  s.verdict.findings = v.findings;
  s.verdict.explain_note = v.explain_note;
  s.verdict.explain_ms = v.explain_ms;
  s.stage = Stage::Done;
  active_.erase(s.id);
  s.done_s = now_s();
  if (v.racy && s.verdict.outcome == Verdict::Outcome::Correct) {
    // Right this time, but threads race: on another run or GPU the answer varies.
    s.verdict.outcome = Verdict::Outcome::Wrong;
    s.verdict.racy = true;
    s.verdict.message = "wrong: threads race (explain found it below); the answer was right this time, "
                        "but it can differ on another run or GPU";
  }
  update_best(s);
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
  for (const uint64_t id : active_) {
    out.push_back(subs_.at(id));
    out.back().compiled = {};
  }
  auto count = [](const auto& m, const auto& k) {
    const auto it = m.find(k);
    return it == m.end() ? 0 : it->second;
  };
  auto key = [&](const Submission& s) {
    // Furthest along first, then the order the workers take them in.
    return std::make_tuple(-static_cast<int>(s.stage), count(started_at_, s.address), count(started_, s.device), s.id);
  };
  std::sort(out.begin(), out.end(), [&](const Submission& a, const Submission& b) { return key(a) < key(b); });
  return out;
}

std::optional<Submission> ChallengeStore::submission(uint64_t id) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = subs_.find(id);
  if (it == subs_.end()) return std::nullopt;
  Submission s = it->second;
  s.compiled = {};
  if (const auto t = texts_.find(id); t != texts_.end()) s.source = t->second;
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

std::vector<Submission> ChallengeStore::done() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Submission> out;
  for (const auto& [id, s] : subs_)
    if (s.stage == Stage::Done) out.push_back(s);
  return out;
}

size_t ChallengeStore::held_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return held_bytes_;
}

size_t ChallengeStore::total() const {
  std::lock_guard<std::mutex> lock(mu_);
  return subs_.size();
}

}  // namespace cv::challenge

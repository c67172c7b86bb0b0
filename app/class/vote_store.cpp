#include "class/vote_store.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <random>

namespace cv::classvote {

using nlohmann::json;

namespace {

const char* kind_name(Question::Kind k) {
  switch (k) {
    case Question::Kind::Choice:
      return "choice";
    case Question::Kind::Number:
      return "number";
    case Question::Kind::None:
      break;
  }
  return "none";
}

// Equal strings in a time that does not depend on where they differ.
bool same_code(const std::string& a, const std::string& b) {
  unsigned diff = a.size() != b.size();
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i]) ^
                                                static_cast<unsigned char>(i < b.size() ? b[i] : 0);
  return diff == 0;
}

std::string upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

}  // namespace

const char* to_string(VoteResult r) {
  switch (r) {
    case VoteResult::Ok:
      return "ok";
    case VoteResult::BadToken:
      return "unknown token: join with the code first";
    case VoteResult::NoQuestion:
      return "this step asks nothing";
    case VoteResult::WrongRound:
      return "the teacher has moved to another step";
    case VoteResult::Closed:
      return "voting is closed: the answer is shown";
    case VoteResult::BadChoice:
      return "no such choice";
    case VoteResult::BadValue:
      return "not a finite number";
  }
  return "?";
}

int http_status(VoteResult r) {
  switch (r) {
    case VoteResult::Ok:
      return 200;
    case VoteResult::BadToken:
      return 403;
    case VoteResult::NoQuestion:
    case VoteResult::WrongRound:
    case VoteResult::Closed:
      return 409;
    case VoteResult::BadChoice:
    case VoteResult::BadValue:
      return 400;
  }
  return 400;
}

Histogram make_histogram(const std::vector<double>& xs, std::optional<double> also, int bins) {
  Histogram h;
  std::vector<double> all;
  for (double x : xs)
    if (std::isfinite(x)) all.push_back(x);
  if (also && std::isfinite(*also)) all.push_back(*also);
  if (all.empty() || bins < 1) return h;
  const auto [lo_it, hi_it] = std::minmax_element(all.begin(), all.end());
  double lo = *lo_it, hi = *hi_it;
  h.log = lo > 0 && hi / lo > 10;
  if (h.log) {
    lo = std::log10(lo);
    hi = std::log10(hi);
  }
  if (hi - lo < 1e-12) {  // every value the same: one bin around it
    lo -= 0.5;
    hi += 0.5;
  }
  h.counts.assign(bins, 0);
  for (int i = 0; i <= bins; ++i) {
    const double e = lo + (hi - lo) * i / bins;
    h.edges.push_back(h.log ? std::pow(10.0, e) : e);
  }
  for (double x : xs) {
    if (!std::isfinite(x)) continue;
    const double t = ((h.log ? std::log10(x) : x) - lo) / (hi - lo);
    h.counts[std::clamp(static_cast<int>(t * bins), 0, bins - 1)]++;
  }
  return h;
}

VoteStore::VoteStore(std::string code, int max_devices)
    : code_(upper(std::move(code))), max_devices_(max_devices) {
  std::lock_guard<std::mutex> lock(mu_);
  publish_snapshot();
}

std::optional<std::string> VoteStore::join(const std::string& code, bool* full) {
  if (full) *full = false;
  if (!same_code(upper(code), code_)) return std::nullopt;
  std::lock_guard<std::mutex> lock(mu_);
  if (static_cast<int>(tokens_.size()) >= max_devices_) {
    if (full) *full = true;
    return std::nullopt;
  }
  std::string token = make_token();
  while (tokens_.count(token)) token = make_token();
  tokens_.emplace(token, static_cast<int>(tokens_.size()));
  publish_snapshot();
  return token;
}

bool VoteStore::known(const std::string& token) const {
  std::lock_guard<std::mutex> lock(mu_);
  return tokens_.count(token) > 0;
}

VoteResult VoteStore::vote_choice(const std::string& token, uint64_t round, int choice,
                                  uint64_t* seq_out) {
  Vote v;
  v.choice = choice;
  return vote(token, round, v, seq_out);
}

VoteResult VoteStore::vote_number(const std::string& token, uint64_t round, double value,
                                  uint64_t* seq_out) {
  if (!std::isfinite(value) || std::fabs(value) > 1e300) return VoteResult::BadValue;
  Vote v;
  v.value = value;
  return vote(token, round, v, seq_out);
}

VoteResult VoteStore::vote(const std::string& token, uint64_t round, Vote v, uint64_t* seq_out) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!tokens_.count(token)) return VoteResult::BadToken;
  if (question_.kind == Question::Kind::None) return VoteResult::NoQuestion;
  if (round != round_) return VoteResult::WrongRound;
  if (closed_ || reveal_) return VoteResult::Closed;
  if (question_.kind == Question::Kind::Choice &&
      (v.choice < 0 || v.choice >= static_cast<int>(question_.choices.size())))
    return VoteResult::BadChoice;
  if (question_.kind == Question::Kind::Number && v.choice != -1) return VoteResult::BadChoice;
  votes_[token] = v;  // a second vote replaces the first: counted once
  ++seq_;
  if (seq_out) *seq_out = seq_;
  accepted_ns_[seq_ % kTimes].store(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch()).count(),
      std::memory_order_relaxed);
  publish_snapshot();
  return VoteResult::Ok;
}

uint64_t VoteStore::publish(const Question& q) {
  std::lock_guard<std::mutex> lock(mu_);
  question_ = q;
  ++round_;
  votes_.clear();
  reveal_.reset();
  closed_ = false;
  publish_snapshot();
  return round_;
}

std::shared_ptr<const Tally> VoteStore::close() {
  std::lock_guard<std::mutex> lock(mu_);
  closed_ = true;
  publish_snapshot();
  return std::atomic_load(&snapshot_);
}

void VoteStore::reveal(const Reveal& r) {
  std::lock_guard<std::mutex> lock(mu_);
  closed_ = true;
  reveal_ = r;
  if (question_.kind != Question::Kind::None) {
    last_result_ = json::object();
    last_result_["step"] = question_.step;
    last_result_["title"] = question_.title;
    last_result_["question"] = question_.question;
    last_result_["kind"] = kind_name(question_.kind);
    last_result_["choices"] = question_.choices;
    last_result_["unit"] = question_.unit;
    last_result_["result"] = result_json();
  }
  publish_snapshot();
}

// Rebuilt from the votes on every change: a count can never drift from them.
void VoteStore::publish_snapshot() {
  auto t = std::make_shared<Tally>();
  t->version = ++version_;
  t->seq = seq_;
  t->round = round_;
  t->step = question_.step;
  t->kind = question_.kind;
  t->joined = static_cast<int>(tokens_.size());
  t->voted = static_cast<int>(votes_.size());
  t->counts.assign(question_.choices.size(), 0);
  for (const auto& [token, v] : votes_) {
    if (question_.kind == Question::Kind::Choice && v.choice >= 0 &&
        v.choice < static_cast<int>(t->counts.size()))
      t->counts[v.choice]++;
    if (question_.kind == Question::Kind::Number) t->numbers.push_back(v.value);
  }
  t->closed = closed_ || reveal_.has_value();
  t->revealed = reveal_.has_value();
  std::atomic_store_explicit(&snapshot_, std::shared_ptr<const Tally>(std::move(t)),
                             std::memory_order_release);
}

std::shared_ptr<const Tally> VoteStore::tally() const {
  return std::atomic_load_explicit(&snapshot_, std::memory_order_acquire);
}

json VoteStore::result_json() const {
  json r = json::object();
  r["voted"] = votes_.size();
  if (question_.kind == Question::Kind::Choice) {
    std::vector<int> counts(question_.choices.size(), 0);
    for (const auto& [token, v] : votes_)
      if (v.choice >= 0 && v.choice < static_cast<int>(counts.size())) counts[v.choice]++;
    r["counts"] = counts;
  } else if (question_.kind == Question::Kind::Number) {
    std::vector<double> xs;
    for (const auto& [token, v] : votes_) xs.push_back(v.value);
    const Histogram h = make_histogram(xs, reveal_ ? reveal_->value : std::nullopt);
    r["histogram"] = {{"edges", h.edges}, {"counts", h.counts}, {"log", h.log}};
    if (!xs.empty()) {
      std::sort(xs.begin(), xs.end());
      r["median"] = xs[xs.size() / 2];
    }
  }
  if (reveal_) {
    r["measured"] = reveal_->measured;
    if (reveal_->value) r["measured_value"] = *reveal_->value;
    r["correct"] = reveal_->correct_choice;
    r["verdict"] = reveal_->verdict;
    json shown = json::array();
    for (const auto& [label, value] : reveal_->shown) shown.push_back({{"label", label}, {"value", value}});
    r["shown"] = shown;
  }
  return r;
}

json VoteStore::view(const std::string& token) const {
  std::lock_guard<std::mutex> lock(mu_);
  json j;
  j["round"] = round_;
  j["step"] = question_.step;
  j["steps"] = question_.steps;
  j["lesson"] = question_.lesson;
  j["title"] = question_.title;
  j["kind"] = kind_name(question_.kind);
  j["question"] = question_.question;
  j["choices"] = question_.choices;
  j["unit"] = question_.unit;
  j["open"] = question_.kind != Question::Kind::None && !closed_ && !reveal_;
  j["revealed"] = reveal_.has_value();
  j["joined"] = tokens_.size();
  j["voted"] = votes_.size();
  j["your_vote"] = nullptr;
  if (auto it = votes_.find(token); it != votes_.end()) {
    if (question_.kind == Question::Kind::Choice)
      j["your_vote"] = {{"choice", it->second.choice}};
    else
      j["your_vote"] = {{"value", it->second.value}};
  }
  // Peer instruction: nobody sees how the class voted before the reveal.
  if (reveal_ && question_.kind != Question::Kind::None) j["result"] = result_json();
  if (!last_result_.is_null()) j["last_result"] = last_result_;
  return j;
}

int64_t VoteStore::accepted_ns(uint64_t seq) const {
  const auto t = tally();
  if (seq == 0 || seq > t->seq || t->seq - seq >= kTimes) return 0;
  return accepted_ns_[seq % kTimes].load(std::memory_order_relaxed);
}

std::string make_join_code(int length) {
  static constexpr char kAlphabet[] = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
  std::random_device rd;
  std::uniform_int_distribution<int> pick(0, static_cast<int>(sizeof kAlphabet) - 2);
  std::string s;
  for (int i = 0; i < std::clamp(length, 4, 6); ++i) s += kAlphabet[pick(rd)];
  return s;
}

std::string make_token() {
  std::random_device rd;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x%08x%08x%08x", rd(), rd(), rd(), rd());
  return buf;
}

}  // namespace cv::classvote

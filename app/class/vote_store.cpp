#include "class/vote_store.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <random>

#include "class/display_name.h"

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

namespace {

double median_sorted(const std::vector<double>& v) {
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Median and median absolute deviation of `v` (sorted in place).
std::pair<double, double> median_mad(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const double m = median_sorted(v);
  for (double& x : v) x = std::fabs(x - m);
  std::sort(v.begin(), v.end());
  return {m, median_sorted(v)};
}

}  // namespace

std::optional<Range> robust_range(const std::vector<double>& xs) {
  std::vector<double> all;
  for (double x : xs)
    if (std::isfinite(x)) all.push_back(x);
  if (all.empty()) return std::nullopt;
  const auto [lo_it, hi_it] = std::minmax_element(all.begin(), all.end());
  const bool positive = *lo_it > 0;
  Range r;
  if (positive) {  // on a log scale: a factor, not a difference, is "far"
    std::vector<double> lg;
    for (double x : all) lg.push_back(std::log10(x));
    const auto [m, mad] = median_mad(lg);
    const double half = std::max(1.0, 5 * 1.4826 * mad);  // at least a factor of 10 each way
    r = {std::pow(10.0, m - half), std::pow(10.0, m + half)};
  } else {
    const auto [m, mad] = median_mad(all);
    const double half = std::max({5 * 1.4826 * mad, std::fabs(m), 1e-12});
    r = {m - half, m + half};
  }
  // Never wider than the votes themselves.
  r.lo = std::max(r.lo, *lo_it);
  r.hi = std::min(r.hi, *hi_it);
  return r;
}

Histogram make_histogram(const std::vector<double>& xs, std::optional<double> also, int bins,
                         std::optional<Range> plausible) {
  Histogram h;
  std::optional<Range> range = plausible ? plausible : robust_range(xs);
  if (also && std::isfinite(*also)) {
    if (!range) range = Range{*also, *also};
    range->lo = std::min(range->lo, *also);
    range->hi = std::max(range->hi, *also);
  }
  if (!range || bins < 1 || !std::isfinite(range->lo) || !std::isfinite(range->hi)) return h;
  double lo = range->lo, hi = range->hi;
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
    if (x < h.edges.front()) ++h.below;
    if (x > h.edges.back()) ++h.above;
    const double v = h.log ? std::log10(std::max(x, 1e-300)) : x;
    const double t = (v - lo) / (hi - lo);
    h.counts[static_cast<size_t>(std::clamp(t * bins, 0.0, bins - 1.0))]++;
  }
  return h;
}

VoteStore::VoteStore(std::string code, int max_devices)
    : code_(upper(std::move(code))), max_devices_(max_devices) {
  std::lock_guard<std::mutex> lock(mu_);
  publish_snapshot();
}

double VoteStore::now_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::optional<std::string> VoteStore::join(const std::string& code, const std::string& address,
                                           JoinRefusal* why) {
  if (why) *why = JoinRefusal::None;
  if (!same_code(upper(code), code_)) {
    if (why) *why = JoinRefusal::WrongCode;
    return std::nullopt;
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (!address.empty() && std::find(blocked_.begin(), blocked_.end(), address) != blocked_.end()) {
    if (why) *why = JoinRefusal::Removed;
    return std::nullopt;
  }
  if (static_cast<int>(tokens_.size()) >= max_devices_) {
    if (why) *why = JoinRefusal::Full;
    return std::nullopt;
  }
  std::string token = make_token();
  while (tokens_.count(token)) token = make_token();
  Device d;
  d.number = next_device_++;
  d.address = address;
  d.joined_s = d.seen_s = now_s();
  tokens_.emplace(token, d);
  publish_snapshot();
  return token;
}

std::optional<std::string> VoteStore::join(const std::string& code, bool* full) {
  JoinRefusal why = JoinRefusal::None;
  auto t = join(code, "", &why);
  if (full) *full = why == JoinRefusal::Full;
  return t;
}

bool VoteStore::known(const std::string& token) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = tokens_.find(token);
  if (it == tokens_.end()) return false;
  it->second.seen_s = now_s();
  return true;
}

void VoteStore::set_max_devices(int n) {
  std::lock_guard<std::mutex> lock(mu_);
  max_devices_ = std::max(1, n);
}

int VoteStore::max_devices() const {
  std::lock_guard<std::mutex> lock(mu_);
  return max_devices_;
}

std::vector<Device> VoteStore::devices() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Device> out;
  for (const auto& [token, d] : tokens_) out.push_back(d);
  std::sort(out.begin(), out.end(), [](const Device& a, const Device& b) { return a.number < b.number; });
  return out;
}

bool VoteStore::remove_device(int number, bool block) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = tokens_.begin(); it != tokens_.end(); ++it) {
    if (it->second.number != number) continue;
    if (block && !it->second.address.empty() && blocked_.size() < 4096)
      blocked_.push_back(it->second.address);
    votes_.erase(it->first);
    tokens_.erase(it);
    publish_snapshot();
    return true;
  }
  return false;
}

std::string VoteStore::set_name(const std::string& token, const std::string& name) {
  if (auto why = name_problem(name)) return *why;
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = tokens_.find(token);
  if (it == tokens_.end()) return "join with the code first";
  for (const auto& [t, d] : tokens_)
    if (t != token && same_name(d.name, name)) return "another student has this name: choose another";
  it->second.name = name;
  return "";
}

void VoteStore::hide_name(int number, bool hidden) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [t, d] : tokens_)
    if (d.number == number) d.name_hidden = hidden;
}

std::optional<Device> VoteStore::device(const std::string& token) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = tokens_.find(token);
  if (it == tokens_.end()) return std::nullopt;
  return it->second;
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

bool VoteStore::revisit(uint64_t round) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = archive_.find(round);
  if (it == archive_.end()) return false;
  question_ = it->second.question;
  round_ = round;
  votes_.clear();
  for (const auto& [token, v] : it->second.votes)
    if (tokens_.count(token)) votes_[token] = v;  // a device removed since stays out
  reveal_ = it->second.reveal;
  closed_ = true;
  publish_snapshot();
  return true;
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
  if (archive_.size() < 1024) archive_[round_] = Archived{question_, votes_, r};
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
    const Histogram h = make_histogram(xs, reveal_ ? reveal_->value : std::nullopt, 8, question_.range);
    r["histogram"] = {{"edges", h.edges}, {"counts", h.counts}, {"log", h.log},
                      {"below", h.below}, {"above", h.above}};
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

#include "class/class_room.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "io/data_dir.h"

namespace cv::classvote {

std::string web_dir(const std::string& assets) {
  const io::DataDir d = io::find_data_dir(assets);
  return d.path.empty() ? "" : (std::filesystem::path(d.path) / "web").string();
}

ClassRoom::ClassRoom(std::string web_dir, std::string codemirror_dir)
    : web_dir_(std::move(web_dir)),
      codemirror_dir_(std::move(codemirror_dir)),
      tally_(std::make_shared<Tally>()) {}

ClassRoom::~ClassRoom() {
  stop();
  if (stopping_.joinable()) stopping_.join();
}

std::optional<std::string> ClassRoom::start(const std::string& address, int port,
                                            ServerOptions limits) {
  stop();
  if (stopping_.joinable()) stopping_.join();  // the old one lets go of its port
  if (!one_ipv4_address(address)) {
    message_ = "class server: '" + address +
               "' is not one interface's IPv4 address (the menu lists this machine's)";
    return message_;
  }
  store_ = std::make_shared<VoteStore>(make_join_code(), class_cap_);
  limits.address = address;
  limits.port = port;
  limits.web_dir = web_dir_;
  limits.codemirror_dir = codemirror_dir_;
  limits.joins_per_minute = joins_per_minute_;
  server_ = std::make_unique<ClassServer>(*store_, limits);
  if (route_hook_) route_hook_(*server_, store_);
  if (auto err = server_->start()) {
    server_.reset();
    store_.reset();
    message_ = *err;
    return err;
  }
  code_ = store_->code();
  url_ = server_->url();
  qr_ = make_qr(url_ + "#" + code_);  // the page fills the code in from the address: one tap to join
  message_.clear();
  seen_seq_ = 0;
  latency_ms_.clear();
  tally_ = store_->tally();
  std::printf("class server: %s code %s\n", url_.c_str(), code_.c_str());
  std::fflush(stdout);  // scripts read it while the app runs
  return std::nullopt;
}

void ClassRoom::stop() {
  if (!server_) return;
  if (stopping_.joinable()) stopping_.join();
  // The store stays until the next start (the last round's tally remains
  // readable); the stopping server keeps its own reference until its threads end.
  stopping_ = std::thread([server = std::move(server_), keep = store_]() mutable { server->stop(); });
}

void ClassRoom::poll() {
  if (stop_request_) stop();
  if (start_request_ && !interfaces_.empty()) {
    const NetInterface& n = interfaces_[std::clamp(chosen_, 0, static_cast<int>(interfaces_.size()) - 1)];
    start(n.address, port_field_);  // a failure is shown in the tab (message())
  }
  start_request_ = stop_request_ = false;
  if (!store_) return;
  tally_ = store_->tally();
  if (tally_->seq <= seen_seq_) return;
  const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now().time_since_epoch())
                          .count();
  for (uint64_t s = seen_seq_ + 1; s <= tally_->seq; ++s)
    if (const int64_t t = store_->accepted_ns(s); t > 0 && latency_ms_.size() < 200000)
      latency_ms_.push_back(static_cast<float>((now - t) / 1e6));
  seen_seq_ = tally_->seq;
}

nlohmann::ordered_json ClassRoom::summary() const {
  nlohmann::ordered_json j;
  j["running"] = running();
  if (!message_.empty()) j["error"] = message_;
  if (!store_) return j;
  j["url"] = url_;
  j["joined"] = tally_->joined;
  j["votes_accepted"] = tally_->seq;
  j["round"] = tally_->round;
  j["voted_this_round"] = tally_->voted;
  j["counts"] = tally_->counts;
  if (server_) {
    const ServerCounters& c = server_->counters();
    j["requests"] = c.requests.load();
    j["answered_2xx"] = c.ok.load();
    j["answered_4xx"] = c.client_errors.load();
    j["rate_limited"] = c.rate_limited.load();
  }
  if (!latency_ms_.empty()) {
    std::vector<float> v = latency_ms_;
    std::sort(v.begin(), v.end());
    j["vote_to_frame_ms_p50"] = v[v.size() / 2];
    j["vote_to_frame_ms_p99"] = v[std::min(v.size() - 1, v.size() * 99 / 100)];
    j["vote_to_frame_ms_max"] = v.back();
  }
  return j;
}

}  // namespace cv::classvote

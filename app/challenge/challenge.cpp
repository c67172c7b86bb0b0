#include "challenge/challenge.h"

#include <algorithm>

#include "challenge/challenge_api.h"
#include "usercode/templates/template_registry.h"

namespace cv::challenge {

Challenge::Challenge(Backend backend, PathConfig paths) : backend_(backend), paths_(std::move(paths)) {}

Challenge::~Challenge() { close(); }

void Challenge::attach(classvote::ClassRoom& room) {
  room_ = &room;
  ApiContext ctx{store_, backend_ == Backend::Cuda ? "cuda" : "cpu", paths_};
  room.set_route_hook([ctx](classvote::ClassServer& server, const std::shared_ptr<classvote::VoteStore>& votes) {
    add_challenge_routes(server, votes, ctx);
  });
}

std::optional<std::string> Challenge::open(const ChallengeSettings& s) {
  if (!usercode::find_template(s.template_name))
    return "challenge: unknown template '" + s.template_name + "' (one of " + usercode::template_names() + ")";
  if (s.goal.kind == Goal::Kind::Target && !(s.goal.target_ms > 0))
    return "challenge: the target time must be above 0 ms";
  if (s.deadline_s < 0) return "challenge: the deadline must not be in the past";
  close();
  store_->open(s);
  JudgeSettings js;
  js.backend = backend_;
  js.paths = paths_;
  queue_ = std::make_unique<JudgeQueue>(store_, js, machine_shape(backend_));
  const auto& specs = usercode::template_specs();
  for (size_t i = 0; i < specs.size(); ++i)
    if (specs[i]->name == s.template_name) template_index_ = static_cast<int>(i);
  message_.clear();
  return std::nullopt;
}

void Challenge::close() {
  store_->close();
  queue_.reset();  // joins the workers
}

std::optional<LiveRequest> Challenge::take_live_request() {
  auto r = std::move(live_);
  live_.reset();
  return r;
}

nlohmann::ordered_json Challenge::summary() const {
  nlohmann::ordered_json j;
  const ChallengeSettings s = store_->settings();
  j["template"] = s.template_name;
  j["open"] = store_->is_open();
  j["submissions"] = store_->total();
  std::vector<double> lat = store_->latencies();
  j["judged"] = lat.size();
  if (!lat.empty()) {
    std::sort(lat.begin(), lat.end());
    j["submit_to_verdict_s_p50"] = lat[lat.size() / 2];
    j["submit_to_verdict_s_p99"] = lat[std::min(lat.size() - 1, lat.size() * 99 / 100)];
    j["submit_to_verdict_s_max"] = lat.back();
  }
  // Where the time goes: each stage's median, and submit to the final word (explain's).
  const std::vector<Submission> done = store_->done();
  if (!done.empty()) {
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    std::vector<double> compile, run, explain, final_s;
    for (const Submission& s : done) {
      compile.push_back(s.verdict.compile_ms);
      if (s.verdict.run_ms > 0) run.push_back(s.verdict.run_ms);
      if (s.verdict.explain_ms > 0) explain.push_back(s.verdict.explain_ms);
      final_s.push_back(s.done_s - s.submitted_s);
    }
    j["compile_ms_p50"] = median(compile);
    if (!run.empty()) j["run_ms_p50"] = median(run);
    if (!explain.empty()) j["explain_ms_p50"] = median(explain);
    std::sort(final_s.begin(), final_s.end());
    j["submit_to_final_s_p50"] = final_s[final_s.size() / 2];
    j["submit_to_final_s_p99"] = final_s[std::min(final_s.size() - 1, final_s.size() * 99 / 100)];
  }
  nlohmann::ordered_json board = nlohmann::ordered_json::array();
  for (const Standing& st : store_->standings()) board.push_back({{"device", st.device}, {"ms", st.ms}});
  j["standings"] = board;
  nlohmann::ordered_json b = nlohmann::ordered_json::object();
  for (const auto& [v, ms] : store_->builtins()) b[v] = ms;
  j["builtins"] = b;
  if (queue_) j["runners"] = queue_->shape().devices;
  return j;
}

}  // namespace cv::challenge

#include "challenge/challenge_api.h"

#include <algorithm>
#include <cmath>

#include "class/rate_limit.h"
#include "usercode/templates/template_registry.h"

namespace cv::challenge {

using classvote::error_reply;
using classvote::HttpReply;
using classvote::HttpRequest;
using classvote::json_reply;
using classvote::parse_body;
using nlohmann::json;

namespace {

constexpr long long kMaxSubmitBody = 400 * 1024;  // the source (64 KiB) escaped as JSON, with room

std::map<int, classvote::Device> devices_by_number(const classvote::VoteStore& votes) {
  std::map<int, classvote::Device> out;
  for (const auto& d : votes.devices()) out[d.number] = d;
  return out;
}

json marks_json(const std::vector<Mark>& marks) {
  json a = json::array();
  for (const Mark& m : marks)
    a.push_back({{"line", m.line}, {"column", m.column}, {"severity", m.severity}, {"message", m.message}});
  return a;
}

json challenge_json(const ApiContext& ctx, const classvote::VoteStore& votes, const std::string& token) {
  const ChallengeSettings s = ctx.store->settings();
  json j;
  j["open"] = ctx.store->is_open();
  j["backend"] = ctx.backend;
  j["max_source_bytes"] = kMaxSourceBytes;
  const auto me = votes.device(token);
  j["name"] = me ? me->name : "";
  const double left = ctx.store->seconds_left();
  j["seconds_left"] = std::isfinite(left) ? json(std::max(0.0, left)) : json(nullptr);
  j["goal"] = s.goal.kind == Goal::Kind::Fastest ? json{{"kind", "fastest"}}
                                                 : json{{"kind", "target"}, {"target_ms", s.goal.target_ms}};
  const usercode::TemplateSpec* t = usercode::find_template(s.template_name);
  if (!t) return j;
  j["template"] = t->name;
  j["description"] = t->description;
  j["declaration"] = usercode::declaration_text(*t);
  j["reference"] = t->reference_text;
  j["tolerance"] = t->tolerance_text.empty() ? "exact" : t->tolerance_text;
  try {
    j["starter"] = ctx.starters->get(*t, ctx.paths);
  } catch (const std::exception&) {
    j["starter"] = "// template: " + t->name + "\n";
  }
  return j;
}

}  // namespace

json submission_json(const Submission& s, int queue_position) {
  json j;
  j["id"] = s.id;
  j["stage"] = to_string(s.stage);
  j["submitted_s"] = s.submitted_s;
  if (queue_position > 0) j["ahead"] = queue_position - 1;
  if (!s.has_verdict) {
    if (!s.verdict.marks.empty()) j["marks"] = marks_json(s.verdict.marks);
    return j;
  }
  const Verdict& v = s.verdict;
  j["outcome"] = to_string(v.outcome);
  j["correct"] = v.outcome == Verdict::Outcome::Correct;
  j["message"] = v.message;
  j["message_line"] = v.message_line;
  j["marks"] = marks_json(v.marks);
  j["seconds_to_verdict"] = s.verdict_s - s.submitted_s;
  if (v.reps > 0)
    j["time"] = {{"min_ms", v.ms_min}, {"median_ms", v.ms_median}, {"max_ms", v.ms_max}, {"reps", v.reps},
                 {"audited_launches", v.audited_launches}, {"n", v.n}, {"backend", v.backend}};
  j["findings"] = v.findings;
  if (!v.explain_note.empty()) j["explain_note"] = v.explain_note;
  j["explained"] = s.stage == Stage::Done;
  // Explain's race check can still turn a correct verdict wrong.
  j["final"] = s.stage == Stage::Done || v.outcome != Verdict::Outcome::Correct;
  return j;
}

json leaderboard_json(const ChallengeStore& c, const classvote::VoteStore& votes, int me) {
  const auto devices = devices_by_number(votes);
  json rows = json::array();
  int rank = 0;
  for (const Standing& st : c.standings()) {
    const auto d = devices.find(st.device);
    std::string name = d == devices.end() || d->second.name.empty() ? "student " + std::to_string(st.device)
                                                                     : d->second.name;
    if (d != devices.end() && d->second.name_hidden) name = "(hidden)";
    rows.push_back({{"rank", ++rank}, {"name", name}, {"ms", st.ms}, {"meets_goal", st.meets_goal},
                    {"you", st.device == me}, {"submission", st.submission}, {"device", st.device}});
  }
  json builtins = json::array();
  for (const auto& [variant, ms] : c.builtins()) builtins.push_back({{"variant", variant}, {"ms", ms}});
  const ChallengeSettings s = c.settings();
  return {{"rows", rows}, {"builtins", builtins}, {"template", s.template_name},
          {"goal", s.goal.kind == Goal::Kind::Fastest ? "fastest" : "target"}, {"target_ms", s.goal.target_ms}};
}

// long: five short routes that share the limiters, read as one table.
void add_challenge_routes(classvote::ClassServer& server, const std::shared_ptr<classvote::VoteStore>& votes,
                          const ApiContext& ctx) {
  // Per phone: a few submits at once, then one every 5 s (and one in flight);
  // reads as the votes' API allows.
  auto submits = std::make_shared<classvote::RateLimiter>(3, 0.2, 1 << 14);
  auto reads = std::make_shared<classvote::RateLimiter>(20, 10, 1 << 14);
  classvote::ClassServer* server_at = &server;  // owns these routes: outlives them
  auto who = [votes](const std::string& token) { return token.empty() ? std::nullopt : votes->device(token); };

  server.add_route("GET", "/api/challenge", 0, [=](const HttpRequest& r) -> HttpReply {
    if (!who(r.token)) return error_reply(403, "join with the code first");
    if (!reads->allow(r.token)) return error_reply(429, "too many requests: wait a moment");
    return json_reply(200, challenge_json(ctx, *votes, r.token));
  });
  server.add_route("POST", "/api/name", classvote::kMaxBody, [=](const HttpRequest& r) -> HttpReply {
    const json j = parse_body(r.body);
    if (!j.is_object() || !j.contains("token") || !j["token"].is_string() || !j.contains("name") ||
        !j["name"].is_string())
      return error_reply(400, "send {\"token\", \"name\"}");
    const std::string token = j["token"].get<std::string>();
    if (token.size() > 64 || !who(token)) return error_reply(403, "join with the code first");
    if (!reads->allow(token)) return error_reply(429, "too many requests: wait a moment");
    const std::string why = votes->set_name(token, j["name"].get<std::string>());
    if (!why.empty()) return error_reply(400, why);
    return json_reply(200, {{"ok", true}});
  });
  server.add_route("POST", "/api/submit", kMaxSubmitBody, [=](const HttpRequest& r) -> HttpReply {
    const json j = parse_body(r.body);
    if (!j.is_object() || !j.contains("token") || !j["token"].is_string() || !j.contains("source") ||
        !j["source"].is_string())
      return error_reply(400, "send {\"token\", \"source\"}");
    const std::string token = j["token"].get<std::string>();
    const auto me = token.size() <= 64 ? who(token) : std::nullopt;
    if (!me) return error_reply(403, "join with the code first");
    if (me->name.empty()) return error_reply(409, "choose a display name first");
    if (!submits->allow(token)) return error_reply(429, "one kernel every 5 seconds: wait a moment");
    // Kernels waiting per address: as many as the address may join devices a
    // minute (the teacher raises it where a class shares one address).
    const auto cap = static_cast<size_t>(std::max(1.0, server_at->joins_per_minute()));
    const ChallengeStore::Outcome o =
        ctx.store->submit({token, me->number, r.address}, j["source"].get<std::string>(), cap);
    if (!o.id) return error_reply(o.status, o.why);
    const uint64_t id = o.id;
    return json_reply(202, {{"id", id}});
  });
  server.add_route("GET", "/api/submissions", 0, [=](const HttpRequest& r) -> HttpReply {
    const auto me = who(r.token);
    if (!me) return error_reply(403, "join with the code first");
    if (!reads->allow(r.token)) return error_reply(429, "too many requests: wait a moment");
    const auto queue = ctx.store->queue();
    json list = json::array();
    for (const Submission& s : ctx.store->of_device(me->number, 10)) {
      int pos = 0;
      for (size_t i = 0; i < queue.size(); ++i)
        if (queue[i].id == s.id) pos = static_cast<int>(i) + 1;
      list.push_back(submission_json(s, pos));  // no text: the page keeps its own
    }
    return json_reply(200, {{"submissions", list}, {"queue", queue.size()}});
  });
  server.add_route("GET", "/api/leaderboard", 0, [=](const HttpRequest& r) -> HttpReply {
    const auto me = who(r.token);
    if (!me) return error_reply(403, "join with the code first");
    if (!reads->allow(r.token)) return error_reply(429, "too many requests: wait a moment");
    return json_reply(200, leaderboard_json(*ctx.store, *votes, me->number));
  });
}

}  // namespace cv::challenge

// The votes' JSON API (docs/class_server.md): join with the code, follow the
// teacher's step, vote. Every body is hostile: parsed without exceptions,
// each field's type and size checked, nothing echoed back.
#include "class/class_server.h"

namespace cv::classvote {

using nlohmann::json;

HttpReply ClassServer::api_join(const HttpRequest& r) {
  if (!joins_.allow(r.address))
    return error_reply(429, "too many joins from this address: the teacher can allow more per minute");
  const json j = parse_body(r.body);
  if (!j.is_object() || !j.contains("code") || !j["code"].is_string() ||
      j["code"].get_ref<const std::string&>().size() > 16)
    return error_reply(400, "send {\"code\": \"ABCDE\"}");
  // Guessing codes is slow: a few wrong ones, then one per five seconds per
  // address (only wrong ones count).
  if (!wrong_codes_.has_room(r.address))
    return error_reply(429, "too many wrong codes from this address: wait a moment");
  JoinRefusal why = JoinRefusal::None;
  const auto token = store_.join(j["code"].get<std::string>(), r.address, &why);
  if (why == JoinRefusal::Full) return error_reply(403, "the class is full");
  if (why == JoinRefusal::Removed) return error_reply(403, "the teacher removed this device");
  if (!token) {
    wrong_codes_.allow(r.address);
    return error_reply(403, "wrong code");
  }
  return json_reply(200, {{"token", *token}});
}

HttpReply ClassServer::api_step(const HttpRequest& r) {
  if (r.token.empty() || !store_.known(r.token)) return error_reply(403, "join with the code first");
  if (!per_token_.allow(r.token)) return error_reply(429, "too many requests: wait a moment");
  return json_reply(200, store_.view(r.token));
}

HttpReply ClassServer::api_vote(const HttpRequest& r) {
  const json j = parse_body(r.body);
  if (!j.is_object() || !j.contains("token") || !j["token"].is_string() || !j.contains("round") ||
      !j["round"].is_number_unsigned() || (j.contains("choice") == j.contains("value")))
    return error_reply(400, "send {\"token\", \"round\", and \"choice\" or \"value\"}");
  const std::string token = j["token"].get<std::string>();
  if (token.size() > 64 || !store_.known(token)) return error_reply(403, "join with the code first");
  if (!per_token_.allow(token)) return error_reply(429, "too many votes: wait a moment");
  const uint64_t round = j["round"].get<uint64_t>();
  uint64_t seq = 0;
  VoteResult v;
  if (j.contains("choice")) {
    if (!j["choice"].is_number_integer()) return error_reply(400, "\"choice\" is a whole number");
    const long long c = j["choice"].get<long long>();
    v = store_.vote_choice(token, round, c < 0 || c > 1000 ? -2 : static_cast<int>(c), &seq);
  } else {
    if (!j["value"].is_number()) return error_reply(400, "\"value\" is a number");
    v = store_.vote_number(token, round, j["value"].get<double>(), &seq);
  }
  if (v != VoteResult::Ok) return error_reply(http_status(v), to_string(v));
  return json_reply(200, {{"ok", true}, {"seq", seq}});
}

}  // namespace cv::classvote

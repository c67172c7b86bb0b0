// libFuzzer target: the class server's routes (app/class: the votes' API;
// app/challenge: the challenge's), through ClassServer::dispatch, no socket.
// The input picks a route and a token and is the request body ("$T" in it
// becomes a joined student's token, to reach past the token checks). Every
// reply must be a 2xx-5xx JSON object, an error must say why, and no reply may
// hold the marker "<q>" that only the input can bring (nothing echoed).
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "challenge/challenge_api.h"
#include "class/class_server.h"
#include "class/vote_store.h"

namespace {

using cv::classvote::HttpRequest;

struct World {
  std::shared_ptr<cv::classvote::VoteStore> votes = std::make_shared<cv::classvote::VoteStore>("QRS7K");
  std::unique_ptr<cv::classvote::ClassServer> server;
  std::shared_ptr<cv::challenge::ChallengeStore> store = std::make_shared<cv::challenge::ChallengeStore>();
  std::string named, unnamed;  // two students' tokens
  World() {
    cv::classvote::ServerOptions o;
    o.web_dir = CUDAVIZ_WEB_DIR;
    o.token_burst = o.address_burst = 1e12;  // reach the handlers, not only the limits
    server = std::make_unique<cv::classvote::ClassServer>(*votes, o);
    cv::challenge::add_challenge_routes(*server, votes, {store, "cpu", {}});
    cv::challenge::ChallengeSettings s;
    s.template_name = "count3";
    store->open(s);
    named = *votes->join("QRS7K", "10.0.0.1");
    unnamed = *votes->join("QRS7K", "10.0.0.2");
    if (!votes->set_name(named, "Ada").empty()) std::abort();
    cv::classvote::Question q;
    q.kind = cv::classvote::Question::Kind::Number;
    votes->publish(q);
  }
};

const char* const kRoutes[][2] = {
    {"POST", "/api/join"},       {"GET", "/api/step"},        {"POST", "/api/vote"},
    {"POST", "/api/name"},       {"POST", "/api/submit"},     {"GET", "/api/challenge"},
    {"GET", "/api/submissions"}, {"GET", "/api/leaderboard"}, {"GET", "/"},
    {"GET", "/challenge.html"},  {"POST", "/api/step"},       {"GET", "/../etc/passwd"},
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World w;
  if (size < 2) return 0;
  const auto& route = kRoutes[data[0] % (sizeof kRoutes / sizeof kRoutes[0])];
  const std::string& token = data[1] % 3 == 0 ? w.named : data[1] % 3 == 1 ? w.unnamed : std::string();
  std::string body(reinterpret_cast<const char*>(data + 2), size - 2);
  for (size_t at = body.find("$T"); at != std::string::npos; at = body.find("$T", at + token.size()))
    body.replace(at, 2, token);
  const HttpRequest r{route[0], route[1], "10.0.0." + std::to_string(data[1] % 7), token, body};
  const cv::classvote::HttpReply reply = w.server->dispatch(r);
  if (reply.status < 200 || reply.status > 599) std::abort();
  if (reply.type == "application/json") {
    const nlohmann::json j = nlohmann::json::parse(reply.body, nullptr, false);
    if (!j.is_object()) std::abort();
    if (reply.status >= 400 && !(j.contains("error") && j["error"].is_string())) std::abort();
  }
  if (body.find("<q>") != std::string::npos && reply.body.find("<q>") != std::string::npos) std::abort();
  return 0;
}

#pragma once
// One HTTP request as the class server's routes see it (the body already read
// and bounded), and the reply a route gives. The server (class_server.cpp)
// turns libmicrohttpd's calls into these, so the routes (the votes' API, the
// challenge's) stay plain functions, testable without a socket.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

namespace cv::classvote {

struct HttpRequest {
  std::string method;   // "GET", "POST"
  std::string path;     // without the query
  std::string address;  // the client's IPv4 address
  std::string token;    // the X-Class-Token header ("" when none)
  std::string body;     // POST only, at most the route's max_body bytes
};

struct HttpReply {
  int status = 200;
  std::string type = "application/json";
  std::string body;
};

// Student text is never echoed; dump() escapes any non-ASCII in what the app wrote.
inline HttpReply json_reply(int status, const nlohmann::json& j) {
  return {status, "application/json", j.dump(-1, ' ', true)};
}
inline HttpReply error_reply(int status, const std::string& why) {
  return json_reply(status, {{"error", why}});
}

// Every API body is one flat JSON object: nesting deeper than this is refused
// before the parser builds anything from it.
constexpr int kMaxJsonDepth = 4;

// How deep `body` nests its arrays and objects (brackets inside strings do
// not count); stops counting past `limit`.
inline int json_depth(const std::string& body, int limit = kMaxJsonDepth) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : body) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

// A request body as a JSON object, or a discarded value (is_object() false)
// for anything else: not JSON, another type, or nested past kMaxJsonDepth.
// Never throws.
inline nlohmann::json parse_body(const std::string& body) {
  if (json_depth(body) > kMaxJsonDepth) return nlohmann::json(nlohmann::json::value_t::discarded);
  nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  return j.is_object() ? j : nlohmann::json(nlohmann::json::value_t::discarded);
}

}  // namespace cv::classvote

#pragma once
// One HTTP request as the class server's routes see it (the body already read
// and bounded), and the reply a route gives. The server (class_server.cpp)
// turns libmicrohttpd's calls into these, so the routes (the votes' API, the
// challenge's) stay plain functions, testable without a socket.
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

}  // namespace cv::classvote

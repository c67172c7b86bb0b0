#pragma once
// The class server (docs/class_server.md): civetweb (Debian's
// libcivetweb-dev) on one address the teacher chose, serving the students'
// page (the files of assets/web/, read once at start, by exact name) and a
// small JSON API over the VoteStore. It runs on civetweb's own threads; the
// frame only reads the store's snapshot.
//
// Limits: request bodies of at most 1 KiB, headers of at most 4 KiB, one
// connection per request (a thread per connection: keep-alive would let 300
// phones hold every thread), per-address and per-phone rate limits, and a
// malformed request gets a 4xx and changes nothing.
#include <atomic>
#include <map>
#include <optional>
#include <string>

#include "class/rate_limit.h"
#include "class/vote_store.h"

struct mg_context;
struct mg_connection;

namespace cv::classvote {

constexpr int kDefaultPort = 8787;
constexpr long long kMaxBody = 1024;

struct ServerOptions {
  std::string address = "127.0.0.1";  // one interface's IPv4 address, never 0.0.0.0
  int port = kDefaultPort;            // 0: any free port (tests)
  std::string web_dir;                // assets/web
  int threads = 16;
  // Requests per client address (every request), joins per address, wrong
  // codes per address, and requests per phone (its token).
  double address_burst = 2000, address_rate = 1000;
  double join_burst = 400, join_rate = 5;
  double wrong_code_burst = 10, wrong_code_rate = 0.2;
  double token_burst = 20, token_rate = 10;
};

struct ServerCounters {
  std::atomic<unsigned long long> requests{0}, ok{0}, client_errors{0}, rate_limited{0};
};

class ClassServer {
 public:
  ClassServer(VoteStore& store, ServerOptions options);
  ~ClassServer();
  ClassServer(const ClassServer&) = delete;
  ClassServer& operator=(const ClassServer&) = delete;

  // Why it could not start (port in use, no such address, no page files), or nullopt.
  std::optional<std::string> start();
  void stop();
  bool running() const { return ctx_ != nullptr; }
  int port() const { return port_; }  // the bound port
  std::string url() const;            // http://ADDRESS:PORT/
  const ServerCounters& counters() const { return counters_; }

  // The civetweb callback (public for the C trampoline).
  int handle(mg_connection* conn);

 private:
  struct File {
    std::string body, type;
  };
  int reply(mg_connection* conn, int status, const std::string& type, const std::string& body);
  int reply_json(mg_connection* conn, int status, const nlohmann::json& j);
  int error(mg_connection* conn, int status, const std::string& why);
  int api_join(mg_connection* conn, const std::string& addr);
  int api_step(mg_connection* conn);
  int api_vote(mg_connection* conn);
  // The body of a POST (at most kMaxBody), or the error already sent.
  std::optional<std::string> read_body(mg_connection* conn, int* status);

  VoteStore& store_;
  ServerOptions opt_;
  std::map<std::string, File> files_;  // "/" and "/NAME" -> the file
  mg_context* ctx_ = nullptr;
  int port_ = 0;
  RateLimiter per_address_, joins_, wrong_codes_, per_token_;
  ServerCounters counters_;
};

// The web files a server may serve from `dir`: plain files whose names are
// letters, digits, '-', '_' and one '.', with a known extension; never a
// subfolder or a link out of it. Pure, for tests.
std::map<std::string, std::string> web_files(const std::string& dir, std::string* error);

}  // namespace cv::classvote

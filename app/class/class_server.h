#pragma once
// The class server (docs/class_server.md): libmicrohttpd (Debian's
// libmicrohttpd-dev) on one address the teacher chose, serving the students'
// pages (the files of assets/web/ and the packaged CodeMirror editor's, read
// once at start, by exact name) and small JSON APIs: the votes' (here, over
// the VoteStore) and any added with add_route() before start (the challenge's).
//
// Event-driven (epoll, a few threads): an idle, slow or half-sent connection
// holds a socket, never a thread, so it cannot delay another client. Limits:
// connections per address and in all, an idle connection closed after a few
// seconds, each route's body size (checked from Content-Length before any
// byte is read), per-address and per-phone rate limits, and a malformed
// request gets a 4xx and changes nothing.
#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "class/http_types.h"
#include "class/rate_limit.h"
#include "class/vote_store.h"

struct MHD_Daemon;
struct MHD_Connection;

namespace cv::classvote {

constexpr int kDefaultPort = 8787;
constexpr long long kMaxBody = 1024;  // the votes' API

struct ServerOptions {
  std::string address = "127.0.0.1";  // one interface's IPv4 address, never 0.0.0.0
  int port = kDefaultPort;            // 0: any free port (tests)
  std::string web_dir;                // assets/web
  std::string codemirror_dir;         // Debian's libjs-codemirror ("" or missing: a plain textarea)
  int threads = 4;                    // event loops (each serves many connections)
  unsigned connections_per_address = 24;  // a browser opens up to 6; NAT'd phones share one
  unsigned connections = 2000;        // in all (lowered to the process's file limit)
  unsigned idle_timeout_s = 3;        // a connection that sends nothing this long is closed
  // Requests per client address (every request), wrong codes per address,
  // requests per phone (its token); joins per address per minute (the teacher
  // may raise it: set_joins_per_minute).
  double address_burst = 2000, address_rate = 1000;
  double joins_per_minute = 20;
  double wrong_code_burst = 10, wrong_code_rate = 0.2;
  double token_burst = 20, token_rate = 10;
};

struct ServerCounters {
  std::atomic<unsigned long long> requests{0}, ok{0}, client_errors{0}, rate_limited{0};
};

class ClassServer {
 public:
  using Handler = std::function<HttpReply(const HttpRequest&)>;

  ClassServer(VoteStore& store, ServerOptions options);
  ~ClassServer();
  ClassServer(const ClassServer&) = delete;
  ClassServer& operator=(const ClassServer&) = delete;

  // A route of `method` at exactly `path`; a POST's body is JSON of at most
  // `max_body` bytes. Before start() only (the table is read without a lock).
  void add_route(const std::string& method, const std::string& path, long long max_body, Handler h);

  // Why it could not start (port in use, no such address, no page files), or nullopt.
  std::optional<std::string> start();
  void stop();
  bool running() const { return daemon_ != nullptr; }
  int port() const { return port_; }  // the bound port
  std::string url() const;            // http://ADDRESS:PORT/
  const ServerCounters& counters() const { return counters_; }
  bool has_editor() const { return has_editor_; }  // CodeMirror's files were found
  void set_joins_per_minute(double n);
  double joins_per_minute() const { return joins_per_minute_.load(); }

  // What a request gets (the routes and the files): public for the C
  // trampoline and for tests without a socket.
  HttpReply dispatch(const HttpRequest& r);
  // A request's head, before its body: a refusal (404, 405, 411, 413, 415,
  // 429) or nullopt to read the body. `content_length` -1: none given.
  std::optional<HttpReply> admit(const HttpRequest& head, const std::string& content_type,
                                 long long content_length);
  void count(int status);

 private:
  struct File {
    std::string body, type;
  };
  struct Route {
    std::string method;
    long long max_body = 0;
    Handler handler;
  };
  std::optional<std::string> load_files();
  HttpReply api_join(const HttpRequest& r);
  HttpReply api_step(const HttpRequest& r);
  HttpReply api_vote(const HttpRequest& r);

  VoteStore& store_;
  ServerOptions opt_;
  std::map<std::string, File> files_;   // "/" and "/NAME" -> the file
  std::map<std::string, Route> routes_;  // by path
  MHD_Daemon* daemon_ = nullptr;
  int port_ = 0;
  bool has_editor_ = false;
  std::atomic<double> joins_per_minute_;
  RateLimiter per_address_, joins_, wrong_codes_, per_token_;
  ServerCounters counters_;
};

// The web files a server may serve from `dir`: plain files whose names are
// letters, digits, '-', '_' and one '.', with a known extension; never a
// subfolder or a link out of it. Pure, for tests.
std::map<std::string, std::string> web_files(const std::string& dir, std::string* error);

// The files of Debian's libjs-codemirror the editor page uses, by the name it
// asks for ("/cm/codemirror.js"), from `dir` (/usr/share/javascript/codemirror);
// empty when any is missing.
std::map<std::string, std::string> codemirror_files(const std::string& dir);

}  // namespace cv::classvote

// The class server under abuse, on loopback (each attacker from an address of
// its own in 127/8, the phone from another): idle, slow and half-sent
// connections do not delay a phone; connections per address are capped;
// joins per address per minute are capped and the teacher can raise it; the
// class size cap; a removed device; numeric outliers at the histogram's
// edges; a revealed step keeps its votes when the teacher comes back; no
// internal key in what the phones read. Bounded in count and time.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <regex>
#include <thread>

#include "class/class_server.h"
#include "class/vote_store.h"
#include "lessons/lesson_values.h"

using namespace cv::classvote;
using Clock = std::chrono::steady_clock;

namespace {

std::string web_dir() { return std::string(CUDAVIZ_SOURCE_DIR) + "/assets/web"; }

// A connection from 127.0.0.`from` to the server; -1 when refused.
int connect_from(int from, int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in src{};
  src.sin_family = AF_INET;
  src.sin_addr.s_addr = htonl(0x7f000000u | static_cast<unsigned>(from));
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&src), sizeof src) != 0) {
    if (fd >= 0) close(fd);
    return -1;
  }
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

void send_all(int fd, const std::string& s) {
  size_t sent = 0;
  while (sent < s.size()) {
    const ssize_t n = send(fd, s.data() + sent, s.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;
    sent += static_cast<size_t>(n);
  }
}

// Reads until the peer closes or `ms` pass: what came back.
std::string read_reply(int fd, int ms) {
  std::string in;
  char buf[4096];
  const auto end = Clock::now() + std::chrono::milliseconds(ms);
  while (Clock::now() < end) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 20) <= 0) continue;
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    in.append(buf, static_cast<size_t>(n));
    const auto head = in.find("\r\n\r\n");
    if (head != std::string::npos) {  // a whole reply (Content-Length) ends the wait
      const auto cl = in.find("Content-Length: ");
      if (cl != std::string::npos && in.size() >= head + 4 + std::stoul(in.substr(cl + 16))) break;
    }
  }
  return in;
}

int status_of(const std::string& reply) {
  return reply.rfind("HTTP/1.", 0) == 0 && reply.size() > 12 ? std::atoi(reply.c_str() + 9) : 0;
}

std::string body_of(const std::string& reply) {
  const auto b = reply.find("\r\n\r\n");
  return b == std::string::npos ? "" : reply.substr(b + 4);
}

// One request on a connection of its own from 127.0.0.`from`.
std::string request(int from, int port, const std::string& req, int ms = 3000) {
  const int fd = connect_from(from, port);
  if (fd < 0) return "";
  send_all(fd, req);
  std::string r = read_reply(fd, ms);
  close(fd);
  return r;
}

std::string post(const std::string& path, const std::string& body) {
  return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

struct Server {
  VoteStore store{"QRS7K"};
  ClassServer server;
  explicit Server(ServerOptions o = {}) : server(store, [&] {
    o.address = "127.0.0.1";
    o.port = 0;
    o.web_dir = web_dir();
    return o;
  }()) {}
  int port() const { return server.port(); }
};

double p99(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, v.size() * 99 / 100)];
}

}  // namespace

TEST(ClassAbuse, IdleSlowAndHalfSentConnectionsDoNotDelayAPhone) {
  ServerOptions o;
  o.token_burst = 1000;  // the phone polls faster than a page does
  Server s(o);
  ASSERT_FALSE(s.server.start());
  const std::string token = *s.store.join("QRS7K");
  std::vector<int> held;
  // 100 idle connections (10 addresses), 50 slow ones sending a header a byte
  // at a time (5 addresses), and 10 that promise a 100-byte body and send 5.
  for (int i = 0; i < 100; ++i) held.push_back(connect_from(2 + i / 10, s.port()));
  std::vector<int> slow;
  for (int i = 0; i < 50; ++i) slow.push_back(connect_from(20 + i / 10, s.port()));
  for (int i = 0; i < 10; ++i) {
    const int fd = connect_from(30, s.port());
    send_all(fd, "POST /api/vote HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":");
    held.push_back(fd);
  }
  for (int fd : held) ASSERT_GE(fd, 0);
  const std::string slow_header = "GET /api/step HTTP/1.1\r\nHost: x\r\nX-Pad: aaaaaaaaaaaaaaaaaaaa\r\n";
  std::atomic<bool> stop{false};
  std::thread trickle([&] {  // one byte per slow connection every 50 ms
    for (size_t k = 0; !stop && k < slow_header.size(); ++k) {
      for (int fd : slow) send(fd, &slow_header[k], 1, MSG_NOSIGNAL | MSG_DONTWAIT);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  // The phone: 100 polls of its step, each on a new connection.
  std::vector<double> ms;
  for (int i = 0; i < 100; ++i) {
    const auto t0 = Clock::now();
    const std::string r = request(40, s.port(), "GET /api/step HTTP/1.1\r\nHost: x\r\nX-Class-Token: " + token + "\r\n\r\n");
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    ASSERT_EQ(status_of(r), 200) << r;
  }
  stop = true;
  trickle.join();
  const double q = p99(ms);
  std::printf("phone's step p99 with 100 idle, 50 slow, 10 half-sent connections open: %.1f ms\n", q);
  RecordProperty("phone_step_p99_ms", std::to_string(q));
  EXPECT_LT(q, 1000.0);  // the target is 200 ms; generous here (a loaded CI machine)
  // The half-sent ones are closed after the idle timeout, unanswered.
  const auto t0 = Clock::now();
  const std::string half = read_reply(held.back(), 6000);
  EXPECT_EQ(status_of(half), 0) << half;
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 5.5);
  for (int fd : held) close(fd);
  for (int fd : slow) close(fd);
}

TEST(ClassAbuse, ConnectionsPerAddressAreCapped) {
  ServerOptions o;
  o.connections_per_address = 8;
  Server s(o);
  ASSERT_FALSE(s.server.start());
  std::vector<int> fds;
  for (int i = 0; i < 8; ++i) fds.push_back(connect_from(50, s.port()));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // The ninth from that address is closed unanswered; another address is served.
  EXPECT_EQ(status_of(request(50, s.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 1000)), 0);
  EXPECT_EQ(status_of(request(51, s.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n")), 200);
  for (int fd : fds) close(fd);
}

TEST(ClassAbuse, JoinsPerAddressPerMinuteTheTeacherCanRaise) {
  ServerOptions o;
  o.joins_per_minute = 20;
  Server s(o);
  int ok = 0, limited = 0;
  for (int i = 0; i < 400; ++i) {
    const HttpReply r = s.server.dispatch({"POST", "/api/join", "10.0.0.7", "", R"({"code":"QRS7K"})"});
    ok += r.status == 200;
    limited += r.status == 429;
  }
  EXPECT_EQ(ok, 20);
  EXPECT_EQ(limited, 380);
  EXPECT_NE(s.server.dispatch({"POST", "/api/join", "10.0.0.7", "", R"({"code":"QRS7K"})"}).body.find("per minute"),
            std::string::npos);
  EXPECT_EQ(s.server.dispatch({"POST", "/api/join", "10.0.0.8", "", R"({"code":"QRS7K"})"}).status, 200);
  s.server.set_joins_per_minute(600);  // 10 a second from now on
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  EXPECT_EQ(s.server.dispatch({"POST", "/api/join", "10.0.0.7", "", R"({"code":"QRS7K"})"}).status, 200);
  EXPECT_EQ(s.store.tally()->joined, 22);  // 20, one from another address, one after the raise
}

TEST(ClassAbuse, ClassSizeCapAndARemovedDevice) {
  Server s;
  s.store.set_max_devices(3);
  std::vector<std::string> tokens;
  for (int i = 0; i < 3; ++i) {
    const HttpReply r = s.server.dispatch({"POST", "/api/join", "10.0.1." + std::to_string(i), "", R"({"code":"QRS7K"})"});
    ASSERT_EQ(r.status, 200);
    tokens.push_back(nlohmann::json::parse(r.body)["token"]);
  }
  const HttpReply full = s.server.dispatch({"POST", "/api/join", "10.0.1.9", "", R"({"code":"QRS7K"})"});
  EXPECT_EQ(full.status, 403);
  EXPECT_NE(full.body.find("full"), std::string::npos);
  const auto devices = s.store.devices();
  ASSERT_EQ(devices.size(), 3u);
  EXPECT_EQ(devices[1].address, "10.0.1.1");
  ASSERT_TRUE(s.store.remove_device(devices[1].number, true));
  EXPECT_EQ(s.server.dispatch({"GET", "/api/step", "10.0.1.1", tokens[1], ""}).status, 403);
  EXPECT_EQ(s.server.dispatch({"GET", "/api/step", "10.0.1.0", tokens[0], ""}).status, 200);
  const HttpReply again = s.server.dispatch({"POST", "/api/join", "10.0.1.1", "", R"({"code":"QRS7K"})"});
  EXPECT_EQ(again.status, 403);
  EXPECT_NE(again.body.find("removed"), std::string::npos);
  s.store.set_max_devices(4);
  EXPECT_EQ(s.server.dispatch({"POST", "/api/join", "10.0.1.9", "", R"({"code":"QRS7K"})"}).status, 200);
}

TEST(ClassAbuse, AnOutlierIsCountedAtTheEdgeWithoutStretchingTheAxis) {
  std::vector<double> votes = {0.30, 0.33, 0.35, 0.36, 0.40, 0.5, 1e300};
  const Histogram h = make_histogram(votes, 0.346, 8);
  ASSERT_EQ(h.counts.size(), 8u);
  EXPECT_LT(h.edges.back(), 10.0);  // not 1e300
  EXPECT_EQ(h.above, 1);
  int total = 0;
  for (int c : h.counts) total += c;
  EXPECT_EQ(total, 7);          // every vote counted
  EXPECT_GE(h.counts.back(), 1);  // the outlier in the last bin
  // A negative outlier among signed values, and a lesson's own range.
  const Histogram lin = make_histogram({-1, 0, 1, 2, -1e12}, std::nullopt, 4);
  EXPECT_GT(lin.edges.front(), -100.0);
  EXPECT_EQ(lin.below, 1);
  const Histogram given = make_histogram({5, 50, 500}, std::nullopt, 2, Range{10, 100});
  EXPECT_EQ(given.edges.front(), 10.0);
  EXPECT_EQ(given.below, 1);
  EXPECT_EQ(given.above, 1);
}

TEST(ClassAbuse, ARevealedStepKeepsItsVotesWhenTheTeacherComesBack) {
  VoteStore s("CODE7");
  const std::string a = *s.join("CODE7"), b = *s.join("CODE7");
  Question q;
  q.kind = Question::Kind::Choice;
  q.choices = {"x", "y"};
  const uint64_t r1 = s.publish(q);
  ASSERT_EQ(s.vote_choice(a, r1, 1), VoteResult::Ok);
  ASSERT_EQ(s.vote_choice(b, r1, 1), VoteResult::Ok);
  Reveal rev;
  rev.correct_choice = 1;
  rev.measured = "y";
  s.reveal(rev);
  const uint64_t r2 = s.publish(q);  // the next step
  EXPECT_NE(r2, r1);
  EXPECT_EQ(s.tally()->voted, 0);
  ASSERT_TRUE(s.revisit(r1));  // PageUp
  EXPECT_EQ(s.tally()->counts, (std::vector<int>{0, 2}));
  EXPECT_TRUE(s.tally()->revealed);
  EXPECT_EQ(s.view(a)["result"]["measured"], "y");
  EXPECT_EQ(s.vote_choice(a, r1, 0), VoteResult::Closed);
  EXPECT_FALSE(s.revisit(r2));  // never revealed: a fresh round instead
}

TEST(ClassAbuse, NoInternalKeyInAVerdict) {
  cv::lessons::Prediction p;
  p.kind = cv::lessons::Prediction::Kind::Choice;
  p.answer = "true";
  p.choices = {{"right", "racy.correct", false}, {"wrong", "racy.correct", true}};
  const auto v = cv::lessons::judge(p, {}, {1, 2}, std::nullopt);
  EXPECT_FALSE(v.measured);
  EXPECT_FALSE(std::regex_search(v.summary, std::regex("[a-z_]+\\.[a-z_]+"))) << v.summary;
  EXPECT_EQ(v.missing, "racy.correct");
  p.kind = cv::lessons::Prediction::Kind::Number;
  p.answer = "atomic.ms_median";
  EXPECT_FALSE(std::regex_search(cv::lessons::judge(p, {}, {}, 3.0).summary, std::regex("[a-z_]+\\.[a-z_]+")));
}

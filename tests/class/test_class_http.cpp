// The class server over real HTTP on 127.0.0.1: 300 phones join
// and vote within 10 s, every vote counted once, vote-to-"frame" latency p99
// at most 200 ms; a burst of 10,000 malformed or oversized requests is all
// 4xx or dropped, changes nothing, and the server serves on; nothing outside
// assets/web is served; a port in use is a clear message. Bounded in count and
// time; every server stops with its test.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <regex>
#include <thread>

#include "class/class_room.h"
#include "class/class_server.h"
#include "class/vote_store.h"

using namespace cv::classvote;
using Clock = std::chrono::steady_clock;

namespace {

struct Resp {
  int status = 0;  // 0: no answer (the connection was dropped)
  std::string body;
};

// One request on its own connection (the server closes after each answer).
Resp raw(int port, const std::string& request, int timeout_ms = 5000) {
  Resp r;
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return r;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return r;
  }
  size_t sent = 0;
  while (sent < request.size()) {
    const ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  shutdown(fd, SHUT_WR);
  std::string in;
  char buf[4096];
  const auto end = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (Clock::now() < end) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    in.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  if (in.rfind("HTTP/1.", 0) == 0 && in.size() > 12) r.status = std::atoi(in.c_str() + 9);
  const auto body = in.find("\r\n\r\n");
  if (body != std::string::npos) r.body = in.substr(body + 4);
  return r;
}

Resp get(int port, const std::string& path, const std::string& token = "") {
  std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  if (!token.empty()) req += "X-Class-Token: " + token + "\r\n";
  return raw(port, req + "\r\n");
}

Resp post(int port, const std::string& path, const std::string& body) {
  return raw(port, "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
}

std::string web_dir() { return std::string(CUDAVIZ_SOURCE_DIR) + "/assets/web"; }

struct Server {
  VoteStore store{"QRS7K"};
  ClassServer server;
  explicit Server(ServerOptions o = {}) : server(store, [&] {
    o.address = "127.0.0.1";
    o.port = 0;  // any free port: tests run side by side
    o.web_dir = web_dir();
    // Every simulated phone here comes from 127.0.0.1: the per-address caps
    // (connections, joins a minute) are tested in test_class_abuse.cpp.
    o.connections_per_address = 4096;
    o.joins_per_minute = 1e6;
    return o;
  }()) {}
  int port() const { return server.port(); }
};

}  // namespace

TEST(ClassHttp, ServesThePageAndTheApi) {
  Server s;
  ASSERT_FALSE(s.server.start());
  ASSERT_GT(s.port(), 0);
  EXPECT_EQ(s.server.url(), "http://127.0.0.1:" + std::to_string(s.port()) + "/");
  const Resp page = get(s.port(), "/");
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("<form id=\"join-form\""), std::string::npos);
  EXPECT_EQ(get(s.port(), "/app.js").status, 200);
  EXPECT_EQ(get(s.port(), "/style.css").status, 200);
  // Join: the wrong code refused, the right one gives a token.
  EXPECT_EQ(post(s.port(), "/api/join", R"({"code":"AAAAA"})").status, 403);
  const Resp j = post(s.port(), "/api/join", R"({"code":"qrs7k"})");
  ASSERT_EQ(j.status, 200) << j.body;
  const std::string token = nlohmann::json::parse(j.body)["token"];
  // The step, then a vote, then the step shows it.
  Question q;
  q.kind = Question::Kind::Choice;
  q.question = "<b>which</b>?";
  q.choices = {"a", "b"};
  const uint64_t round = s.store.publish(q);
  Resp st = get(s.port(), "/api/step", token);
  ASSERT_EQ(st.status, 200);
  auto v = nlohmann::json::parse(st.body);
  EXPECT_EQ(v["round"], round);
  EXPECT_EQ(v["question"], "<b>which</b>?");  // data, escaped by the page (textContent)
  EXPECT_EQ(get(s.port(), "/api/step").status, 403);           // no token
  EXPECT_EQ(get(s.port(), "/api/step", "forged").status, 403);  // not one given
  const std::string vote = R"({"token":")" + token + R"(","round":)" + std::to_string(round);
  EXPECT_EQ(post(s.port(), "/api/vote", vote + R"(,"choice":1})").status, 200);
  EXPECT_EQ(post(s.port(), "/api/vote", vote + R"(,"choice":7})").status, 400);
  EXPECT_EQ(post(s.port(), "/api/vote", vote + R"(,"value":2})").status, 400);
  v = nlohmann::json::parse(get(s.port(), "/api/step", token).body);
  EXPECT_EQ(v["your_vote"]["choice"], 1);
  EXPECT_EQ(s.store.tally()->counts, (std::vector<int>{0, 1}));
  s.store.reveal({});
  EXPECT_EQ(post(s.port(), "/api/vote", vote + R"(,"choice":0})").status, 409);  // after the reveal
  EXPECT_EQ(s.store.tally()->counts, (std::vector<int>{0, 1}));
}

TEST(ClassHttp, NothingOutsideTheWebFolder) {
  Server s;
  ASSERT_FALSE(s.server.start());
  for (const char* path :
       {"/../CMakeLists.txt", "/..%2fCMakeLists.txt", "/%2e%2e/%2e%2e/etc/passwd", "/../../etc/passwd",
        "/assets/web/index.html", "/web/app.js", "//etc/passwd", "/index.html/", "/app.js%00.css",
        "/.hidden", "/lessons/001-counting.md", "/%2fetc%2fpasswd", "/web/../../CMakeLists.txt"}) {
    const Resp r = get(s.port(), path);
    // 4xx or dropped; or one of the page's own files (a server may decode "%00"
    // into the end of the name: "/app.js%00.css" is "/app.js").
    const bool own = r.status == 200 && (r.body == get(s.port(), "/index.html").body ||
                                         r.body == get(s.port(), "/app.js").body ||
                                         r.body == get(s.port(), "/style.css").body);
    EXPECT_TRUE(r.status == 0 || (r.status >= 400 && r.status < 500) || own) << path << ": " << r.status;
    EXPECT_EQ(r.body.find("root:"), std::string::npos) << path;
    EXPECT_EQ(r.body.find("cmake_minimum_required"), std::string::npos) << path;
  }
  EXPECT_EQ(get(s.port(), "/index.html?x=../../etc/passwd").status, 200);  // a query is ignored
  EXPECT_EQ(get(s.port(), "/../../etc/passwd").status, 404);
}

TEST(ClassHttp, APortInUseIsAClearMessage) {
  Server a;
  ASSERT_FALSE(a.server.start());
  VoteStore store("ABCD");
  ServerOptions o;
  o.address = "127.0.0.1";
  o.port = a.port();
  o.web_dir = web_dir();
  ClassServer b(store, o);
  const auto err = b.start();
  ASSERT_TRUE(err);
  EXPECT_NE(err->find(std::to_string(a.port())), std::string::npos) << *err;
  EXPECT_NE(err->find("cannot listen"), std::string::npos) << *err;
  EXPECT_FALSE(b.running());
  EXPECT_EQ(get(a.port(), "/").status, 200);  // the first serves on
  o.address = "0.0.0.0";
  EXPECT_TRUE(ClassServer(store, o).start());  // never every interface
  o.address = "127.0.0.1";
  o.web_dir = "/nonexistent";
  EXPECT_TRUE(ClassServer(store, o).start());  // no page: said, not served empty
}

// 300 phones, each: join, read the step, vote, change the vote. A "frame"
// thread reads the snapshot every 16 ms, as the app's render loop does; a
// vote's latency is from just before its request to the first frame whose
// snapshot counts it.
TEST(ClassHttp, ThreeHundredPhonesVoteWithinTenSeconds) {
  Server s;
  ASSERT_FALSE(s.server.start());
  Question q;
  q.kind = Question::Kind::Choice;
  q.choices = {"a", "b", "c", "d"};
  const uint64_t round = s.store.publish(q);
  constexpr int kPhones = 300, kThreads = 24;
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::vector<std::pair<Clock::time_point, uint64_t>> frames;  // when each seq was first seen
  std::thread frame([&] {
    uint64_t seen = 0;
    while (!stop) {
      const auto t = s.store.tally();
      if (t->seq > seen) {
        std::lock_guard<std::mutex> lock(mu);
        frames.emplace_back(Clock::now(), t->seq);
        seen = t->seq;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(16));
    }
  });
  struct Sent {
    Clock::time_point at;
    uint64_t seq;
  };
  std::vector<Sent> sent;
  std::vector<int> final_choice(kPhones, -1);
  std::atomic<int> failures{0};
  const auto t0 = Clock::now();
  std::vector<std::thread> phones;
  for (int w = 0; w < kThreads; ++w)
    phones.emplace_back([&, w] {
      std::mt19937 rng(w);
      for (int i = w; i < kPhones; i += kThreads) {
        const Resp j = post(s.port(), "/api/join", R"({"code":"QRS7K"})");
        if (j.status != 200) {
          ++failures;
          continue;
        }
        const std::string token = nlohmann::json::parse(j.body)["token"];
        if (get(s.port(), "/api/step", token).status != 200) ++failures;
        for (int k = 0; k < 2; ++k) {  // a vote, then a change of mind
          const int c = static_cast<int>(rng() % 4);
          const auto at = Clock::now();
          const Resp v = post(s.port(), "/api/vote",
                              R"({"token":")" + token + R"(","round":)" + std::to_string(round) +
                                  R"(,"choice":)" + std::to_string(c) + "}");
          if (v.status != 200) {
            ++failures;
            continue;
          }
          final_choice[i] = c;
          std::lock_guard<std::mutex> lock(mu);
          sent.push_back({at, nlohmann::json::parse(v.body)["seq"].get<uint64_t>()});
        }
      }
    });
  for (auto& p : phones) p.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the last frame sees the last vote
  stop = true;
  frame.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_LT(seconds, 10.0) << "300 phones took " << seconds << " s";
  // Every phone counted once, with its last vote.
  std::vector<int> expected(4, 0);
  for (int c : final_choice)
    if (c >= 0) expected[c]++;
  const auto t = s.store.tally();
  EXPECT_EQ(t->joined, kPhones);
  EXPECT_EQ(t->voted, kPhones);
  EXPECT_EQ(t->counts, expected);
  EXPECT_EQ(t->seq, 2u * kPhones);
  // Latency: the first frame whose snapshot has the vote's number.
  std::vector<double> ms;
  for (const Sent& v : sent) {
    const auto it = std::find_if(frames.begin(), frames.end(),
                                 [&](const auto& f) { return f.second >= v.seq; });
    ASSERT_NE(it, frames.end());
    ms.push_back(std::chrono::duration<double, std::milli>(it->first - v.at).count());
  }
  std::sort(ms.begin(), ms.end());
  const double p99 = ms[ms.size() * 99 / 100];
  std::printf("300 phones: %.2f s, vote-to-frame latency p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
              seconds, ms[ms.size() / 2], p99, ms.back());
  EXPECT_LE(p99, 200.0);
}

// Malformed, oversized, forged and unknown requests from 16 clients at once:
// each answered 4xx or dropped, the store untouched, the server serving on.
TEST(ClassHttp, TenThousandBadRequestsChangeNothing) {
  Server s;
  ASSERT_FALSE(s.server.start());
  Question q;
  q.kind = Question::Kind::Choice;
  q.choices = {"a", "b"};
  const uint64_t round = s.store.publish(q);
  const std::string token = *s.store.join("QRS7K");
  ASSERT_EQ(s.store.vote_choice(token, round, 1), VoteResult::Ok);
  const auto before = s.store.tally();
  const std::string big(5000, 'x');
  const std::string r = std::to_string(round);
  const std::vector<std::string> bad = {
      std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11),  // a TLS hello
      "GET /../../etc/passwd HTTP/1.1\r\n\r\n",
      "GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\n\r\n",
      "BREW /coffee HTCPCP/1.0\r\n\r\n",
      "DELETE / HTTP/1.1\r\n\r\n",
      "POST /api/vote HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n" + big,
      "POST /api/join HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{\"code\":",
      "POST /api/join HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n{\"code\":[1,2,3]}",
      "POST /api/vote HTTP/1.1\r\nContent-Length: 40\r\n\r\n{\"token\":\"" + token + "\",\"round\":1}",
      "POST /api/vote HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
      "POST /api/vote HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 46\r\n\r\n{\"token\":\"forged\",\"round\":" + r + ",\"choice\":0}    ",
      "POST /api/vote HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"token\":\"" + token + "\",\"round\":" + r + ",\"choice\":-3,\"value\":1}",
      "POST /api/vote HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2000000000\r\n\r\n{",
      "GET /api/step HTTP/1.1\r\nX-Class-Token: " + std::string(300, 'a') + "\r\n\r\n",
      "GET / HTTP/1.1\r\nX-Junk: " + std::string(20000, 'h') + "\r\n\r\n",
      "GET /index.html HTTP/1.1\r\n",  // never finished
      "\r\n\r\n\r\n",
  };
  constexpr int kTotal = 10000, kThreads = 16;
  std::atomic<int> four{0}, dropped{0}, other{0};
  std::atomic<int> next{0};
  std::vector<std::thread> clients;
  const auto t0 = Clock::now();
  for (int w = 0; w < kThreads; ++w)
    clients.emplace_back([&] {
      for (int i = next++; i < kTotal; i = next++) {
        const Resp resp = raw(s.port(), bad[static_cast<size_t>(i) % bad.size()], 2000);
        if (resp.status == 0)
          ++dropped;
        else if (resp.status >= 400 && resp.status < 500)
          ++four;
        else
          ++other;
      }
    });
  for (auto& c : clients) c.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf("10000 bad requests in %.1f s: %d answered 4xx, %d dropped, %d otherwise\n", seconds,
              four.load(), dropped.load(), other.load());
  EXPECT_EQ(other.load(), 0);
  EXPECT_EQ(four + dropped, kTotal);
  const auto after = s.store.tally();
  EXPECT_EQ(after->version, before->version);  // nothing written or changed
  EXPECT_EQ(after->counts, before->counts);
  EXPECT_EQ(after->joined, 1);
  // Still serving (once the address's allowance refills: at most 2 s).
  Resp page;
  for (int i = 0; i < 40 && page.status != 200; ++i) {
    page = get(s.port(), "/");
    if (page.status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(page.status, 200);
  Resp vote;
  for (int i = 0; i < 40 && vote.status != 200; ++i) {  // the allowance refills at 1000/s
    vote = post(s.port(), "/api/vote", R"({"token":")" + token + R"(","round":)" + r + R"(,"choice":0})");
    if (vote.status == 429) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    else break;
  }
  EXPECT_EQ(vote.status, 200);
  EXPECT_EQ(s.store.tally()->counts, (std::vector<int>{1, 0}));
}

TEST(ClassHttp, WrongCodesAreRateLimited) {
  Server s;
  ASSERT_FALSE(s.server.start());
  int refused = 0, limited = 0;
  const auto t0 = Clock::now();
  for (int i = 0; i < 30; ++i) {
    const int st = post(s.port(), "/api/join", R"({"code":"ZZZZZ"})").status;
    refused += st == 403;
    limited += st == 429;
  }
  // The allowance of wrong codes (10), then one per five seconds.
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_GE(refused, 10);
  EXPECT_LE(refused, 10 + static_cast<int>(seconds / 5) + 1);
  EXPECT_EQ(refused + limited, 30);
  if (seconds < 4) {  // no wrong code allowed back yet: even the right one waits
    EXPECT_EQ(post(s.port(), "/api/join", R"({"code":"QRS7K"})").status, 429);
    EXPECT_EQ(s.store.tally()->joined, 0);
  }
}

// The app's side (class/class_room.h): one stdout line per start, a new code
// each start, a stop that never waits in the frame, a refused address said.
TEST(ClassRoom, StartPrintsOneLineAndStopDoesNotWait) {
  ClassRoom room(web_dir());
  testing::internal::CaptureStdout();
  ASSERT_FALSE(room.start("127.0.0.1", 0));
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(std::regex_match(out, std::regex("class server: http://127\\.0\\.0\\.1:[0-9]+/ code [A-Z0-9]{5}\n")))
      << out;
  EXPECT_EQ(out, "class server: " + room.url() + " code " + room.code() + "\n");
  EXPECT_TRUE(room.running());
  // A vote reaches the frame's snapshot at the next poll, with its latency.
  VoteStore& store = *room.store();
  const uint64_t round = store.publish([] {
    Question q;
    q.kind = Question::Kind::Choice;
    q.choices = {"a", "b"};
    return q;
  }());
  ASSERT_EQ(store.vote_choice(*store.join(room.code()), round, 1), VoteResult::Ok);
  room.poll();
  EXPECT_EQ(room.tally().counts, (std::vector<int>{0, 1}));
  EXPECT_LT(room.summary()["vote_to_frame_ms_p99"].get<double>(), 200.0);
  const std::string first = room.code();
  const auto t0 = Clock::now();
  room.stop();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 0.2);  // the server stops on a thread of its own
  EXPECT_FALSE(room.running());
  EXPECT_EQ(room.summary()["votes_accepted"], 1);  // the last tally stays readable
  testing::internal::CaptureStdout();
  ASSERT_FALSE(room.start("127.0.0.1", 0));
  testing::internal::GetCapturedStdout();
  EXPECT_NE(room.code(), first);  // a new code each start
  EXPECT_TRUE(room.start("0.0.0.0", 0));  // never every interface
  EXPECT_FALSE(room.running());
  EXPECT_NE(room.message().find("0.0.0.0"), std::string::npos);
}

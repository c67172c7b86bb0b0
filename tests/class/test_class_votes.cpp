// The class's votes: the store counts each phone once per step,
// a changed vote moves its count, the reveal closes voting, a new step starts
// empty; the histogram, the export rows, the rate limits, the page's files,
// and the command line's --class-server.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "class/class_results.h"
#include "class/class_server.h"
#include "class/net_interfaces.h"
#include "class/qr.h"
#include "class/rate_limit.h"
#include "class/vote_store.h"
#include "cli.h"

using namespace cv::classvote;

namespace {

Question choice_question(int n = 3) {
  Question q;
  q.kind = Question::Kind::Choice;
  q.step = 2;
  q.steps = 5;
  q.question = "Is the racy count right?";
  for (int i = 0; i < n; ++i) q.choices.push_back("choice " + std::to_string(i));
  return q;
}

}  // namespace

TEST(ClassVotes, JoinNeedsTheCodeAndGivesDistinctTokens) {
  VoteStore s("ABCDE");
  EXPECT_FALSE(s.join("ABCDF"));
  EXPECT_FALSE(s.join(""));
  EXPECT_FALSE(s.join("ABCDEF"));
  auto a = s.join("ABCDE"), b = s.join("abcde");  // case does not matter
  ASSERT_TRUE(a && b);
  EXPECT_NE(*a, *b);
  EXPECT_EQ(a->size(), 32u);
  EXPECT_TRUE(s.known(*a));
  EXPECT_FALSE(s.known("0123"));
  EXPECT_EQ(s.tally()->joined, 2);
}

TEST(ClassVotes, EachTokenCountsOncePerStepAndMayChange) {
  VoteStore s("CODE7");
  const uint64_t round = s.publish(choice_question());
  std::vector<std::string> t;
  for (int i = 0; i < 5; ++i) t.push_back(*s.join("CODE7"));
  EXPECT_EQ(s.vote_choice(t[0], round, 0), VoteResult::Ok);
  EXPECT_EQ(s.vote_choice(t[0], round, 0), VoteResult::Ok);  // the same again: still one
  EXPECT_EQ(s.vote_choice(t[1], round, 1), VoteResult::Ok);
  EXPECT_EQ(s.vote_choice(t[2], round, 1), VoteResult::Ok);
  EXPECT_EQ(s.tally()->counts, (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(s.vote_choice(t[1], round, 2), VoteResult::Ok);  // changed: moves, not adds
  auto tl = s.tally();
  EXPECT_EQ(tl->counts, (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(tl->voted, 3);
  EXPECT_EQ(tl->seq, 5u);  // every accepted vote is numbered
  // Refused, and nothing changes.
  EXPECT_EQ(s.vote_choice("not-a-token", round, 0), VoteResult::BadToken);
  EXPECT_EQ(s.vote_choice(t[3], round, 3), VoteResult::BadChoice);
  EXPECT_EQ(s.vote_choice(t[3], round, -1), VoteResult::BadChoice);
  EXPECT_EQ(s.vote_choice(t[3], round + 1, 0), VoteResult::WrongRound);
  EXPECT_EQ(s.vote_number(t[3], round, 3.0), VoteResult::BadChoice);  // a number for a choice
  EXPECT_EQ(s.tally()->counts, (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(s.tally()->seq, 5u);
}

TEST(ClassVotes, CloseAndRevealStopVotingANewStepStartsEmpty) {
  VoteStore s("CODE7");
  const uint64_t r1 = s.publish(choice_question(2));
  const auto a = *s.join("CODE7"), b = *s.join("CODE7");
  ASSERT_EQ(s.vote_choice(a, r1, 1), VoteResult::Ok);
  const auto closed = s.close();
  EXPECT_TRUE(closed->closed);
  EXPECT_EQ(closed->counts, (std::vector<int>{0, 1}));
  EXPECT_EQ(s.vote_choice(b, r1, 0), VoteResult::Closed);  // after the run: refused
  EXPECT_EQ(s.view(a)["open"], false);
  EXPECT_EQ(s.view(a).contains("result"), false);  // closed but not yet revealed
  Reveal rv;
  rv.correct_choice = 1;
  rv.measured = "wrong";
  rv.shown = {{"racy count", "1,234"}};
  s.reveal(rv);
  const auto v = s.view(a);
  EXPECT_EQ(v["revealed"], true);
  EXPECT_EQ(v["result"]["counts"], nlohmann::json({0, 1}));
  EXPECT_EQ(v["result"]["correct"], 1);
  EXPECT_EQ(v["result"]["shown"][0]["value"], "1,234");
  EXPECT_EQ(v["your_vote"]["choice"], 1);
  // The next step: a new round, no votes, voting open; the last result stays readable.
  Question q;
  q.kind = Question::Kind::Number;
  q.unit = "ms";
  const uint64_t r2 = s.publish(q);
  EXPECT_NE(r1, r2);
  EXPECT_EQ(s.tally()->voted, 0);
  EXPECT_EQ(s.vote_choice(a, r1, 0), VoteResult::WrongRound);
  EXPECT_EQ(s.vote_number(a, r2, std::nan("")), VoteResult::BadValue);
  EXPECT_EQ(s.vote_number(a, r2, INFINITY), VoteResult::BadValue);
  EXPECT_EQ(s.vote_number(a, r2, 12.5), VoteResult::Ok);
  EXPECT_EQ(s.vote_number(b, r2, 40), VoteResult::Ok);
  EXPECT_EQ(s.vote_number(b, r2, 20), VoteResult::Ok);
  EXPECT_EQ(s.tally()->numbers.size(), 2u);
  EXPECT_EQ(s.view(b)["your_vote"]["value"], 20);
  EXPECT_EQ(s.view(b)["last_result"]["result"]["measured"], "wrong");
  EXPECT_FALSE(s.view(b).contains("result"));  // nobody sees the numbers before the reveal
}

TEST(ClassVotes, NoQuestionRefusesVotes) {
  VoteStore s("CODE7");
  const auto a = *s.join("CODE7");
  Question q;  // a step that asks nothing
  const uint64_t r = s.publish(q);
  EXPECT_EQ(s.vote_choice(a, r, 0), VoteResult::NoQuestion);
  EXPECT_EQ(http_status(VoteResult::NoQuestion), 409);
  EXPECT_EQ(http_status(VoteResult::BadToken), 403);
}

TEST(ClassVotes, ConcurrentVotersAreEachCountedOnce) {
  VoteStore s("CODE7");
  const uint64_t round = s.publish(choice_question(4));
  std::vector<std::string> tokens;
  for (int i = 0; i < 400; ++i) tokens.push_back(*s.join("CODE7"));
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = t; i < 400; i += 8) {
        s.vote_choice(tokens[i], round, (i + 1) % 4);  // first vote, then the final one
        s.vote_choice(tokens[i], round, i % 4);
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(s.tally()->counts, (std::vector<int>{100, 100, 100, 100}));
  EXPECT_EQ(s.tally()->voted, 400);
  EXPECT_EQ(s.tally()->seq, 800u);
}

TEST(ClassVotes, TheClassCanBeFull) {
  VoteStore s("CODE7", 2);
  EXPECT_TRUE(s.join("CODE7"));
  EXPECT_TRUE(s.join("CODE7"));
  bool full = false;
  EXPECT_FALSE(s.join("CODE7", &full));
  EXPECT_TRUE(full);
}

TEST(ClassVotes, JoinCodesAreShortUnambiguousAndNew) {
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    const std::string c = make_join_code(5);
    EXPECT_EQ(c.size(), 5u);
    EXPECT_EQ(c.find_first_of("01OIL"), std::string::npos) << c;
    seen.insert(c);
  }
  EXPECT_GT(seen.size(), 45u);  // 31^5 codes: repeats are rare
  EXPECT_EQ(make_join_code(2).size(), 4u);
  EXPECT_EQ(make_join_code(9).size(), 6u);
}

TEST(ClassVotes, HistogramHoldsTheVotesAndTheMeasurement) {
  const Histogram h = make_histogram({1, 2, 3, 4}, 10.0, 4);
  ASSERT_EQ(h.counts.size(), 4u);
  EXPECT_FALSE(h.log);  // 1..10: a factor of 10, not over it
  EXPECT_DOUBLE_EQ(h.edges.front(), 1);
  EXPECT_DOUBLE_EQ(h.edges.back(), 10);  // the measured value is inside
  int total = 0;
  for (int c : h.counts) total += c;
  EXPECT_EQ(total, 4);  // the measurement is not a vote
  const Histogram lg = make_histogram({0.1, 1.5, 20, 100}, std::nullopt, 3);
  EXPECT_TRUE(lg.log);
  EXPECT_EQ(lg.counts, (std::vector<int>{1, 1, 2}));
  const Histogram one = make_histogram({5, 5, 5}, std::nullopt, 8);
  EXPECT_EQ(one.counts[0] + one.counts[7] + one.counts[3] + one.counts[4], 3);
  EXPECT_TRUE(make_histogram({}, std::nullopt).counts.empty());
}

TEST(ClassVotes, ExportHasOneRowPerStepAndQuotesText) {
  StepVotes a;
  a.step = 1;
  a.title = "Many threads, one counter";
  a.question = "Is the answer right, \"really\"?";
  a.kind = "choice";
  a.choices = {"right", "wrong"};
  a.counts = {4, 9};
  a.voted = 13;
  a.joined = 14;
  a.measured = "wrong";
  a.correct_choice = 1;
  a.verdict = "answer: wrong; 9 of 13 hands chose it";
  StepVotes b;
  b.step = 2;
  b.question = "=1+1";  // a formula in a spreadsheet: must not run
  b.kind = "number";
  b.unit = "ms";
  b.numbers = {3, 1, 2, 10};
  b.measured_value = 2.5;
  const std::string csv = to_csv({a, b});
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);  // header + 2 rows
  EXPECT_NE(csv.find("\"Is the answer right, \"\"really\"\"?\""), std::string::npos) << csv;
  EXPECT_NE(csv.find("right | wrong,4 | 9,13,14"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",'=1+1,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",2.5,"), std::string::npos) << csv;  // median of 1,2,3,10
  const auto j = to_json({a, b});
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["counts"], nlohmann::ordered_json({4, 9}));
  EXPECT_EQ(j[0]["correct_choice"], "wrong");
  EXPECT_EQ(j[1]["median"], 2.5);
  EXPECT_EQ(j[1]["measured_value"], 2.5);
}

TEST(ClassVotes, RateLimiterAllowsABurstThenTheRate) {
  RateLimiter r(3, 2);  // 3 at once, then 2 a second
  const auto t0 = RateLimiter::Clock::now();
  EXPECT_TRUE(r.allow("a", t0));
  EXPECT_TRUE(r.allow("a", t0));
  EXPECT_TRUE(r.allow("a", t0));
  EXPECT_FALSE(r.allow("a", t0));
  EXPECT_TRUE(r.allow("b", t0));  // per key
  EXPECT_FALSE(r.has_room("a", t0));
  EXPECT_TRUE(r.allow("a", t0 + std::chrono::milliseconds(500)));  // one more after 0.5 s
  EXPECT_FALSE(r.allow("a", t0 + std::chrono::milliseconds(500)));
  RateLimiter small(1, 1, 2);  // at most two keys remembered
  EXPECT_TRUE(small.allow("x", t0));
  EXPECT_TRUE(small.allow("y", t0));
  EXPECT_FALSE(small.allow("z", t0));  // both busy: a newcomer waits
  EXPECT_TRUE(small.allow("z", t0 + std::chrono::seconds(2)));  // full buckets forgotten
}

TEST(ClassVotes, WebFilesArePlainFilesOfTheFolderOnly) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("cv_web_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "sub");
  for (const char* f : {"index.html", "app.js", "style.css", ".hidden.js", "notes.txt", "sub/x.js"})
    std::ofstream(dir / f) << "x";
  fs::create_symlink("/etc/hostname", dir / "link.css");
  std::string err;
  const auto files = web_files(dir.string(), &err);
  EXPECT_TRUE(err.empty()) << err;
  std::set<std::string> names;
  for (const auto& [n, p] : files) names.insert(n);
  EXPECT_EQ(names, (std::set<std::string>{"index.html", "app.js", "style.css"}));
  fs::remove_all(dir);
  web_files(dir.string(), &err);
  EXPECT_NE(err.find("missing"), std::string::npos);
  // The shipped page has what it needs.
  err.clear();
  const auto shipped = web_files(std::string(CUDAVIZ_SOURCE_DIR) + "/assets/web", &err);
  EXPECT_TRUE(err.empty()) << err;
  EXPECT_TRUE(shipped.count("index.html") && shipped.count("app.js") && shipped.count("style.css"));
}

TEST(ClassVotes, QrCodeOfTheAddress) {
  const auto q = make_qr("http://192.168.100.200:8787/");
  ASSERT_TRUE(q);
  EXPECT_GE(q->size, 21);
  EXPECT_EQ((q->size - 17) % 4, 0);  // 21, 25, 29...: a QR version's size
  // The finder pattern's corner is dark, the module inside its ring is light.
  EXPECT_TRUE(q->at(0, 0));
  EXPECT_FALSE(q->at(1, 1));
  EXPECT_TRUE(q->at(2, 2));
}

TEST(ClassVotes, InterfacesAndAddresses) {
  const auto all = list_interfaces();
  ASSERT_FALSE(all.empty());
  EXPECT_TRUE(all.back().loopback);  // loopback last: the default is one a class can reach
  EXPECT_TRUE(one_ipv4_address(default_address(all)));
  EXPECT_TRUE(one_ipv4_address("127.0.0.1"));
  EXPECT_FALSE(one_ipv4_address("0.0.0.0"));
  EXPECT_FALSE(one_ipv4_address("localhost"));
  EXPECT_FALSE(one_ipv4_address("::1"));
}

TEST(ClassVotes, CommandLineClassServer) {
  auto run = [](std::vector<std::string> a) { return cv::parse_command_line(a).run; };
  auto o = run({"--class-server"});
  EXPECT_TRUE(o.class_server);
  EXPECT_EQ(o.class_port, -1);
  EXPECT_EQ(o.class_address, "");
  o = run({"--class-server", "--frames", "3"});  // the value may be left out mid-line
  EXPECT_TRUE(o.class_server);
  EXPECT_EQ(o.frames, 3);
  o = run({"--class-server", "9000"});
  EXPECT_EQ(o.class_port, 9000);
  o = run({"--class-server=127.0.0.1:0"});
  EXPECT_EQ(o.class_address, "127.0.0.1");
  EXPECT_EQ(o.class_port, 0);
  o = run({"--class-server", "10.0.0.7"});
  EXPECT_EQ(o.class_address, "10.0.0.7");
  EXPECT_EQ(o.class_port, -1);
  EXPECT_FALSE(run({}).class_server);
  for (const char* bad : {"0.0.0.0:8787", "0.0.0.0", "99999", "-1", "1.2.3:80", "abc"})
    EXPECT_THROW(run({"--class-server", bad}), cv::UsageError) << bad;
}

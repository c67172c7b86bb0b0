// Challenge mode without a GPU or a runner: the queue's fair order and one
// kernel in flight per student, the display-name rule, the API's refusals
// (through the server's dispatch, no socket), the leaderboard, and the
// judge's words (no internal key).
#include <gtest/gtest.h>

#include <regex>
#include <thread>

#include "challenge/challenge_api.h"
#include "challenge/challenge_store.h"
#include "challenge/judge_words.h"
#include "class/display_name.h"
#include "usercode/templates/template_registry.h"

using namespace cv::challenge;
using cv::classvote::HttpReply;
using nlohmann::json;

namespace {

ChallengeSettings count3() {
  ChallengeSettings s;
  s.template_name = "count3";
  return s;
}

Verdict correct(double ms) {
  Verdict v;
  v.outcome = Verdict::Outcome::Correct;
  v.ms_min = v.ms_median = v.ms_max = ms;
  v.reps = 3;
  return v;
}

}  // namespace

TEST(Challenge, OneInFlightPerStudentAndRoundRobin) {
  ChallengeStore c;
  std::string why;
  EXPECT_EQ(c.submit("a", 1, "k", &why), 0u);  // not open
  c.open(count3());
  const uint64_t a1 = c.submit("a", 1, "kernel a1", &why);
  ASSERT_NE(a1, 0u) << why;
  EXPECT_EQ(c.submit("a", 1, "kernel a2", &why), 0u);
  EXPECT_NE(why.find("still being judged"), std::string::npos);
  const uint64_t b1 = c.submit("b", 2, "kernel b1", &why);
  std::atomic<bool> stop{false};
  Submission s;
  // a1 is judged; a's next kernel then waits behind b's first (fewest judged first).
  ASSERT_TRUE(c.take(ChallengeStore::Work::Compile, stop, s));
  EXPECT_EQ(s.id, a1);
  c.compiled(a1, {}, {});
  ASSERT_TRUE(c.take(ChallengeStore::Work::Run, stop, s));
  c.ran(a1, correct(2.0));
  const uint64_t a2 = c.submit("a", 1, "kernel a2", &why);
  ASSERT_NE(a2, 0u) << why;
  const uint64_t c1 = c.submit("c", 3, "kernel c1", &why);
  ASSERT_TRUE(c.take(ChallengeStore::Work::Compile, stop, s));
  EXPECT_EQ(s.id, b1);
  ASSERT_TRUE(c.take(ChallengeStore::Work::Compile, stop, s));
  EXPECT_EQ(s.id, c1);
  ASSERT_TRUE(c.take(ChallengeStore::Work::Compile, stop, s));
  EXPECT_EQ(s.id, a2);
  EXPECT_EQ(c.queue().size(), 4u);  // a1 waits for explain, the three others to be judged
  stop = true;
  EXPECT_FALSE(c.take(ChallengeStore::Work::Compile, stop, s));
}

TEST(Challenge, BoundsAndDeadline) {
  ChallengeStore c;
  ChallengeSettings s = count3();
  s.deadline_s = 1e-3;
  c.open(s);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // past it
  std::string why;
  EXPECT_EQ(c.submit("a", 1, "k", &why), 0u);
  EXPECT_NE(why.find("deadline"), std::string::npos);
  c.open(count3());
  EXPECT_EQ(c.submit("a", 1, std::string(kMaxSourceBytes + 1, 'x'), &why), 0u);
  EXPECT_NE(why.find("KiB"), std::string::npos);
  EXPECT_EQ(c.submit("a", 1, "  \n", &why), 0u);
  EXPECT_EQ(c.submit("a", 1, std::string("a\0b", 3), &why), 0u);
}

TEST(Challenge, LeaderboardKeepsEachStudentsBestCorrect) {
  ChallengeStore c;
  c.open(count3());
  std::atomic<bool> stop{false};
  auto judge = [&](const std::string& token, int device, Verdict v) {
    std::string why;
    const uint64_t id = c.submit(token, device, "k", &why);
    Submission s;
    c.take(ChallengeStore::Work::Compile, stop, s);
    c.compiled(id, {}, {});
    c.take(ChallengeStore::Work::Run, stop, s);
    c.ran(id, v);
    if (c.take(ChallengeStore::Work::Explain, stop, s)) c.explained(id, {});
  };
  judge("a", 1, correct(3.0));
  judge("b", 2, correct(1.0));
  Verdict wrong;
  wrong.outcome = Verdict::Outcome::Wrong;
  wrong.ms_median = 0.1;
  judge("a", 1, wrong);  // faster but wrong: not on the board
  judge("a", 1, correct(5.0));  // slower: the best stays
  const auto st = c.standings();
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st[0].device, 2);
  EXPECT_EQ(st[1].device, 1);
  EXPECT_DOUBLE_EQ(st[1].ms, 3.0);
}

TEST(Challenge, ACorrectKernelReachesTheBoardOnlyOnceExplainFoundNoRace) {
  ChallengeStore c;
  c.open(count3());
  std::atomic<bool> stop{false};
  Submission s;
  auto run = [&](const std::string& token, int device) {
    std::string why;
    const uint64_t id = c.submit(token, device, "k", &why);
    c.take(ChallengeStore::Work::Compile, stop, s);
    c.compiled(id, {}, {});
    c.take(ChallengeStore::Work::Run, stop, s);
    c.ran(id, correct(1.0));
    EXPECT_TRUE(c.standings().empty());  // right once, not yet checked for races
    const json mid = submission_json(*c.submission(id), 0);
    EXPECT_EQ(mid["outcome"], "correct");
    EXPECT_FALSE(mid["final"].get<bool>());
    EXPECT_TRUE(c.take(ChallengeStore::Work::Explain, stop, s));
    return id;
  };
  const uint64_t racy = run("a", 1);
  Verdict race;
  race.racy = true;
  c.explained(racy, race);
  EXPECT_TRUE(c.standings().empty());
  const json j = submission_json(*c.submission(racy), 0);
  EXPECT_EQ(j["outcome"], "wrong");
  EXPECT_TRUE(j["final"].get<bool>());
  EXPECT_NE(j["message"].get<std::string>().find("race"), std::string::npos);
  const uint64_t clean = run("b", 2);
  c.explained(clean, {});
  ASSERT_EQ(c.standings().size(), 1u);
  EXPECT_EQ(c.standings()[0].submission, clean);
}

TEST(Challenge, NamesFollowTheRule) {
  using cv::classvote::name_problem;
  EXPECT_FALSE(name_problem("Ada"));
  EXPECT_FALSE(name_problem("Grace H-2.b_x"));
  for (const char* bad : {"", " Ada", "Ada ", "<script>", "a\"b", "abcdefghijklmnopqrstu", "A  B", "-x", "\xc3\xa9t\xc3\xa9"})
    EXPECT_TRUE(name_problem(bad)) << bad;
  EXPECT_NE(name_problem("<b>")->find("1 to 20 characters"), std::string::npos);
}

TEST(Challenge, TheApiRefusesWhatItShould) {
  auto votes = std::make_shared<cv::classvote::VoteStore>("QRS7K");
  cv::classvote::ServerOptions o;
  o.web_dir = std::string(CUDAVIZ_SOURCE_DIR) + "/assets/web";
  cv::classvote::ClassServer server(*votes, o);
  auto store = std::make_shared<ChallengeStore>();
  add_challenge_routes(server, votes, {store, "cpu", {}});
  store->open(count3());
  const std::string token = *votes->join("QRS7K", "10.0.0.1");
  auto post = [&](const std::string& path, const json& body) {
    return server.dispatch({"POST", path, "10.0.0.1", "", body.dump()});
  };
  const std::string src = "// template: count3\n";
  EXPECT_EQ(post("/api/submit", {{"token", token}, {"source", src}}).status, 409);  // no name yet
  const HttpReply bad_name = post("/api/name", {{"token", token}, {"name", "<img src=x>"}});
  EXPECT_EQ(bad_name.status, 400);
  EXPECT_EQ(bad_name.body.find("<img"), std::string::npos);  // never echoed
  EXPECT_EQ(post("/api/name", {{"token", token}, {"name", "Ada"}}).status, 200);
  EXPECT_EQ(post("/api/submit", {{"token", "forged"}, {"source", src}}).status, 403);
  EXPECT_EQ(post("/api/submit", {{"token", token}, {"source", 5}}).status, 400);
  EXPECT_EQ(server.dispatch({"POST", "/api/submit", "10.0.0.1", "", "{not json"}).status, 400);
  EXPECT_EQ(post("/api/submit", {{"token", token}, {"source", std::string(kMaxSourceBytes + 1, 'x')}}).status, 413);
  EXPECT_EQ(post("/api/submit", {{"token", token}, {"source", src}}).status, 202);
  EXPECT_EQ(post("/api/submit", {{"token", token}, {"source", src}}).status, 409);  // one in flight
  const HttpReply mine = server.dispatch({"GET", "/api/submissions", "10.0.0.1", token, ""});
  ASSERT_EQ(mine.status, 200);
  const json j = json::parse(mine.body);
  ASSERT_EQ(j["submissions"].size(), 1u);
  EXPECT_EQ(j["submissions"][0]["stage"], "queued");
  const HttpReply info = server.dispatch({"GET", "/api/challenge", "10.0.0.1", token, ""});
  ASSERT_EQ(info.status, 200);
  const json ci = json::parse(info.body);
  EXPECT_EQ(ci["template"], "count3");
  EXPECT_EQ(ci["name"], "Ada");
  EXPECT_FALSE(ci["declaration"].get<std::string>().empty());
  EXPECT_EQ(server.dispatch({"GET", "/api/leaderboard", "10.0.0.2", "", ""}).status, 403);
  // The submit limit: a body over its route's size is refused from its length.
  EXPECT_EQ(server.admit({"POST", "/api/submit", "10.0.0.1", "", ""}, "application/json", 10 << 20)->status, 413);
  EXPECT_EQ(server.admit({"POST", "/api/vote", "10.0.0.1", "", ""}, "application/json", 2000)->status, 413);
  EXPECT_FALSE(server.admit({"POST", "/api/submit", "10.0.0.1", "", ""}, "application/json", 2000));
}

TEST(Challenge, VerdictWordsHoldNoInternalKey) {
  const cv::usercode::TemplateSpec* t = cv::usercode::find_template("count3");
  ASSERT_TRUE(t);
  nlohmann::ordered_json f;
  f["result"] = 5592404;
  f["reference"] = 5592405;
  f["correct"] = false;
  const std::string w = wrong_words(*t, f);
  EXPECT_NE(w.find("5592404"), std::string::npos);
  EXPECT_NE(w.find("5592405"), std::string::npos);
  EXPECT_EQ(w.find("result"), std::string::npos) << w;
  f["first_failure"] = "n = 1: your count 0, the reference 1";
  EXPECT_EQ(wrong_words(*t, f), "wrong: n = 1: your count 0, the reference 1");
  cv::emu::Explain x;
  x.racy_elements = 3;
  cv::emu::Race r;
  r.sentence = "race on out[0]: thread (1,0,0) of block (0,0,0) wrote it at line 9";
  x.races.push_back(r);
  cv::emu::SectorLine s;
  s.line = 7;
  s.buffer = "data";
  s.bytes = 4;
  s.requests = 10;
  s.sectors = 320;
  s.sectors_per_request = 32;
  s.efficiency = 0.125;
  x.sectors.push_back(s);
  cv::emu::Branch b;
  b.line = 8;
  b.warps = 10;
  b.divergent_warps = 4;
  x.branches.push_back(b);
  const auto words = explain_words(x, 1024);
  ASSERT_EQ(words.size(), 4u);
  EXPECT_NE(words[0].find("race"), std::string::npos);
  EXPECT_NE(words[2].find("line 7"), std::string::npos);
  EXPECT_NE(words[3].find("line 8"), std::string::npos);
  for (const auto& s2 : words) EXPECT_FALSE(std::regex_search(s2, std::regex("[a-z]+_[a-z]+"))) << s2;
  EXPECT_NE(explain_words({}, 64)[0].find("no race"), std::string::npos);
}

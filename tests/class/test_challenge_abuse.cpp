// Challenge mode against a hostile class, without a runner (the routes through
// the server's dispatch, the store directly): a student submitting 1000 times,
// a hundred names from one address, the queue's caps in all and per address,
// the fair order across addresses, the texts kept within their bound, bodies
// nested deep, names that break the rule (the refusal names the rule, never
// echoes the name), names alike but for case, and the starting file cached
// until it changes.
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "challenge/challenge_api.h"
#include "challenge/challenge_store.h"
#include "challenge/judge_words.h"
#include "challenge/starter_cache.h"
#include "class/display_name.h"
#include "usercode/compile/compile.h"
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

// A server with the challenge's routes and an open count3 challenge.
struct Room {
  std::shared_ptr<cv::classvote::VoteStore> votes = std::make_shared<cv::classvote::VoteStore>("QRS7K");
  std::unique_ptr<cv::classvote::ClassServer> server;
  std::shared_ptr<ChallengeStore> store;
  explicit Room(StoreLimits limits = {}) : store(std::make_shared<ChallengeStore>(limits)) {
    cv::classvote::ServerOptions o;
    o.web_dir = std::string(CUDAVIZ_SOURCE_DIR) + "/assets/web";
    server = std::make_unique<cv::classvote::ClassServer>(*votes, o);
    add_challenge_routes(*server, votes, {store, "cpu", {}});
    store->open(count3());
  }
  HttpReply post(const std::string& path, const std::string& from, const json& body) {
    return server->dispatch({"POST", path, from, "", body.dump()});
  }
  // A student from `from` with a name: the token ("" when refused).
  std::string student(const std::string& from, const std::string& name) {
    const auto token = votes->join("QRS7K", from);
    if (!token || post("/api/name", from, {{"token", *token}, {"name", name}}).status != 200) return "";
    return *token;
  }
};

const std::string kSource = "// template: count3\n__global__ void k() {}\n";

// Takes every stage of `id` to its end with a correct verdict of `ms`.
void judge(ChallengeStore& c, uint64_t id, double ms) {
  std::atomic<bool> stop{false};
  Submission s;
  ASSERT_TRUE(c.take(ChallengeStore::Work::Compile, stop, s));
  ASSERT_EQ(s.id, id);
  c.compiled(id, {}, {});
  ASSERT_TRUE(c.take(ChallengeStore::Work::Run, stop, s));
  Verdict v;
  v.outcome = Verdict::Outcome::Correct;
  v.ms_median = ms;
  c.ran(id, v);
  ASSERT_TRUE(c.take(ChallengeStore::Work::Explain, stop, s));
  c.explained(id, {});
}

}  // namespace

TEST(ChallengeAbuse, AThousandSubmitsFromOneStudentQueueOneKernel) {
  Room r;
  const std::string token = r.student("10.0.0.1", "Mallory");
  ASSERT_FALSE(token.empty());
  int accepted = 0, in_flight = 0, limited = 0, other = 0;
  for (int i = 0; i < 1000; ++i) {
    const int s = r.post("/api/submit", "10.0.0.1", {{"token", token}, {"source", kSource}}).status;
    (s == 202 ? accepted : s == 409 ? in_flight : s == 429 ? limited : other)++;
  }
  EXPECT_EQ(accepted, 1);
  EXPECT_EQ(other, 0);
  EXPECT_GE(limited, 990);  // 3 at once, then one per 5 s
  EXPECT_EQ(r.store->queue().size(), 1u);
  EXPECT_EQ(r.store->total(), 1u);
}

TEST(ChallengeAbuse, AHundredNamesFromOneAddressAreBoundedByItsJoinsAndItsQueue) {
  Room r;
  // The server's joins per address per minute (20) bound the names; the
  // store's dispatch here skips that limit (it is the join route's), so the
  // queue's own per-address cap is what stops the rest.
  std::vector<std::string> tokens;
  for (int i = 0; i < 100; ++i) tokens.push_back(r.student("10.0.0.9", "bot " + std::to_string(i)));
  int accepted = 0, capped = 0;
  for (const auto& t : tokens) {
    const HttpReply rep = r.post("/api/submit", "10.0.0.9", {{"token", t}, {"source", kSource}});
    if (rep.status == 202) ++accepted;
    if (rep.status == 429) {
      ++capped;
      EXPECT_NE(rep.body.find("kernels waiting"), std::string::npos) << rep.body;
    }
  }
  EXPECT_EQ(accepted, static_cast<int>(r.server->joins_per_minute()));  // 20 by default
  EXPECT_EQ(capped, 100 - accepted);
  // A student elsewhere is queued, and judged before the address's other 19.
  const std::string honest = r.student("10.0.0.2", "Ada");
  const HttpReply mine = r.post("/api/submit", "10.0.0.2", {{"token", honest}, {"source", kSource}});
  ASSERT_EQ(mine.status, 202);
  const uint64_t id = json::parse(mine.body)["id"];
  std::atomic<bool> stop{false};
  Submission s;
  ASSERT_TRUE(r.store->take(ChallengeStore::Work::Compile, stop, s));  // the flood's oldest
  EXPECT_NE(s.id, id);
  ASSERT_TRUE(r.store->take(ChallengeStore::Work::Compile, stop, s));
  EXPECT_EQ(s.id, id);  // then the other address, not the flood's second
  // The teacher raising the joins per minute (a class behind one address) raises the cap.
  r.server->set_joins_per_minute(200);
  EXPECT_EQ(r.post("/api/submit", "10.0.0.9", {{"token", tokens[50]}, {"source", kSource}}).status, 202);
}

TEST(ChallengeAbuse, TheQueueIsCappedInAll) {
  ChallengeStore c(StoreLimits{4, 1 << 20, 100, 0});
  c.open(count3());
  for (int d = 1; d <= 4; ++d)
    EXPECT_EQ(c.submit({"t", d, "10.0.0." + std::to_string(d)}, kSource).status, 202);
  const auto full = c.submit({"t", 5, "10.0.0.5"}, kSource);
  EXPECT_EQ(full.id, 0u);
  EXPECT_EQ(full.status, 503);
  EXPECT_NE(full.why.find("4 kernels waiting"), std::string::npos) << full.why;
  judge(c, 1, 1.0);  // one judged: room for one more
  EXPECT_EQ(c.submit({"t", 5, "10.0.0.5"}, kSource).status, 202);
}

TEST(ChallengeAbuse, OldTextsAreDroppedToStayWithinTheBoundButNotTheBest) {
  const size_t size = 1000;
  ChallengeStore c(StoreLimits{8, 5 * size, 6, 0});
  c.open(count3());
  const std::string text(size, 'x');
  std::vector<uint64_t> ids;
  for (int i = 0; i < 10; ++i) {
    const auto o = c.submit({"t", 1, "10.0.0.1"}, text);
    ASSERT_EQ(o.status, 202) << o.why;
    ids.push_back(o.id);
    judge(c, o.id, i == 0 ? 0.5 : 1.0 + i);  // the first is the student's best
    EXPECT_LE(c.held_bytes(), 5 * size);
  }
  EXPECT_FALSE(c.submission(ids[0])->source.empty());  // the best keeps its text
  EXPECT_TRUE(c.submission(ids[9])->source.size() == size);
  EXPECT_FALSE(c.submission(ids[1]));  // past the records' bound: gone
  EXPECT_LE(c.total(), 6u);
  ASSERT_EQ(c.standings().size(), 1u);
  EXPECT_EQ(c.standings()[0].submission, ids[0]);
}

TEST(ChallengeAbuse, ExplainWaitsWhileKernelsWaitForTheirFirstVerdict) {
  ChallengeStore c(StoreLimits{8, 1 << 20, 100, 1e6});
  c.open(count3());
  std::atomic<bool> stop{false};
  Submission s;
  const uint64_t a = c.submit({"a", 1, "10.0.0.1"}, kSource).id;
  const uint64_t b = c.submit({"b", 2, "10.0.0.2"}, kSource).id;
  ASSERT_TRUE(c.take(ChallengeStore::Work::Compile, stop, s));
  c.compiled(a, {}, {});
  ASSERT_TRUE(c.take(ChallengeStore::Work::Run, stop, s));
  Verdict wrong;
  wrong.outcome = Verdict::Outcome::Wrong;
  c.ran(a, wrong);  // a waits for explain; b waits to compile
  std::atomic<uint64_t> explained{0};
  std::thread explainer([&] {
    Submission e;
    if (c.take(ChallengeStore::Work::Explain, stop, e)) explained = e.id;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  EXPECT_EQ(explained.load(), 0u);  // b still waits to compile: explain yields
  ASSERT_TRUE(c.take(ChallengeStore::Work::Compile, stop, s));
  EXPECT_EQ(s.id, b);
  explainer.join();  // nothing waits to compile now
  EXPECT_EQ(explained.load(), a);
}

TEST(ChallengeAbuse, DeepOrHugeBodiesAreRefusedAndNothingIsEchoed) {
  Room r;
  const std::string token = r.student("10.0.0.1", "Ada");
  std::string deep = "{\"token\": \"" + token + "\", \"source\": ";
  for (int i = 0; i < 5000; ++i) deep += "[";
  EXPECT_EQ(r.server->dispatch({"POST", "/api/submit", "10.0.0.1", "", deep}).status, 400);
  EXPECT_EQ(r.server->dispatch({"POST", "/api/vote", "10.0.0.1", "", "[[[[[[[[1]]]]]]]]"}).status, 400);
  // Brackets inside strings are text, not depth.
  EXPECT_EQ(cv::classvote::json_depth("{\"a\": \"[[[[[[[[[[\"}"), 1);
  EXPECT_EQ(cv::classvote::json_depth("{\"a\": \"\\\"[[[[[[\"}"), 1);
  EXPECT_EQ(r.post("/api/submit", "10.0.0.1", {{"token", token}, {"source", kSource}, {"x", {{"y", {1}}}}}).status,
            202);  // depth 3: fine
  const HttpReply name = r.post("/api/name", "10.0.0.1", {{"token", token}, {"name", std::string(500, 'A')}});
  EXPECT_EQ(name.status, 400);
  EXPECT_NE(name.body.find("500 bytes, over 20"), std::string::npos) << name.body;
  EXPECT_EQ(name.body.find("AAAA"), std::string::npos);
  // A token too long to be one is never looked up.
  EXPECT_EQ(r.post("/api/submit", "10.0.0.1", {{"token", std::string(100000, 'a')}, {"source", kSource}}).status,
            403);
  // No reply names an internal key, a path or the student's token to another.
  const HttpReply board = r.server->dispatch({"GET", "/api/leaderboard", "10.0.0.1", token, ""});
  EXPECT_EQ(board.body.find(token), std::string::npos);
  const HttpReply info = r.server->dispatch({"GET", "/api/challenge", "10.0.0.1", token, ""});
  EXPECT_EQ(info.body.find(CUDAVIZ_SOURCE_DIR), std::string::npos);
}

TEST(ChallengeAbuse, ARefusedNameSaysWhichRuleAndNamesDifferingOnlyInCaseClash) {
  using cv::classvote::name_problem;
  EXPECT_NE(name_problem("")->find("empty"), std::string::npos);
  EXPECT_NE(name_problem("a<b")->find("character 2 is not allowed"), std::string::npos);
  EXPECT_NE(name_problem("-ab")->find("first character"), std::string::npos);
  EXPECT_NE(name_problem("ab ")->find("no space at the end"), std::string::npos);
  EXPECT_NE(name_problem("a  b")->find("two in a row"), std::string::npos);
  EXPECT_NE(name_problem("\xc3\xa9")->find("character 1"), std::string::npos);
  for (const char* bad : {"", "a<b", "-ab", "ab ", "abcdefghijklmnopqrstu"})
    EXPECT_NE(name_problem(bad)->find(cv::classvote::kNameRule), std::string::npos) << bad;
  Room r;
  ASSERT_FALSE(r.student("10.0.0.1", "Ada").empty());
  const auto other = *r.votes->join("QRS7K", "10.0.0.2");
  const HttpReply clash = r.post("/api/name", "10.0.0.2", {{"token", other}, {"name", "ADA"}});
  EXPECT_EQ(clash.status, 400);
  EXPECT_NE(clash.body.find("another student"), std::string::npos);
  EXPECT_EQ(r.post("/api/name", "10.0.0.2", {{"token", other}, {"name", "Ada 2"}}).status, 200);
}

TEST(ChallengeAbuse, TheStartingFileIsReadAgainOnlyWhenItChanges) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("cudaviz_starter_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "count3.cu";
  auto write = [&](const std::string& text) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
  };
  write("// template: count3\n// first\n");
  cv::usercode::TemplateSpec t = *cv::usercode::find_template("count3");
  t.file = file.string();  // a full path: read from there
  StarterCache cache;
  EXPECT_NE(cache.get(t, {}).find("first"), std::string::npos);
  for (int i = 0; i < 50; ++i) cache.get(t, {});
  EXPECT_EQ(cache.reads(), 1);
  write("// template: count3\n// second, longer\n");
  std::filesystem::last_write_time(file, std::filesystem::last_write_time(file) + std::chrono::seconds(2));
  EXPECT_NE(cache.get(t, {}).find("second"), std::string::npos);
  EXPECT_EQ(cache.reads(), 2);
  std::filesystem::remove(file);
  EXPECT_THROW(cache.get(t, {}), std::runtime_error);
  write("// template: count3\n// back\n");
  EXPECT_NE(cache.get(t, {}).find("back"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(ChallengeAbuse, CompilerWordsAboutAnotherFileNeverReachTheStudent) {
  // What a kernel that reached /etc/passwd got back from the host compiler.
  auto result = std::make_shared<cv::usercode::CompileResult>();
  result->ok = false;
  result->error = "kernel.cu:0: error: found ':' in nested-name-specifier (in the app's passwd, line 1)";
  result->diagnostics.push_back({0, 0, cv::usercode::Severity::Error,
                                 "'root' does not name a type (in the app's passwd, line 1)"});
  result->diagnostics.push_back({3, 5, cv::usercode::Severity::Error, "'nope' was not declared in this scope"});
  Compiled c;
  c.result = result;
  Verdict v;
  ASSERT_TRUE(compile_failed(c, v));
  const std::string shown = submission_json([&] {
    Submission s;
    s.has_verdict = true;
    s.verdict = v;
    return s;
  }(), 0).dump();
  EXPECT_EQ(shown.find("root"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("nested-name"), std::string::npos) << shown;
  EXPECT_NE(shown.find("passwd, line 1, outside your kernel"), std::string::npos) << shown;
  EXPECT_NE(shown.find("'nope' was not declared"), std::string::npos) << shown;  // the student's own line
  EXPECT_EQ(words_for_student("(in the app's /etc/x\ny, line 1)").find("/etc"), std::string::npos);
}

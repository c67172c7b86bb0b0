// The loops NVVM unrolled, read from PTX for explain's pairing of lanes
// (usercode/compile/unrolled_loops.h): a line whose accesses sit in a body of
// U copies and a remainder loop of one is reported with U and the remainder's
// place; every other shape keeps the source's order. On hand-written PTX (each
// shape) and on NVRTC's own PTX of the shipped sum3 kernels, whose two
// layouts Nsight Compute measured (docs/insight.md).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "usercode/client/explain_launch.h"
#include "usercode/compile/compile.h"
#include "usercode/compile/unrolled_loops.h"
#include "usercode/templates/template_registry.h"

namespace cv::usercode {
namespace {

bool nvrtc_missing() { return nvrtc_status().find("NVRTC 1") != 0; }

// A function whose line 7 loads in a remainder loop ($R, one copy) and an
// unrolled body ($B, `copies`), in the order given; `extra` goes after them.
std::string ptx(bool remainder_first, int copies, const std::string& extra = "") {
  const std::string rem =
      "$R:\n\t.loc\t1 7 3\n\tld.global.u32 \t%r1, [%rd1];\n\tadd.s64 \t%rd1, %rd1, 4;\n"
      "\tsetp.ne.s64 \t%p1, %rd1, %rd2;\n\t@%p1 bra \t$R;\n";
  std::string body = "$B:\n\t.loc\t1 7 3\n";
  for (int c = 0; c < copies; ++c) body += "\tld.global.u32 \t%r2, [%rd3+" + std::to_string(4 * c) + "];\n";
  body += "\tadd.s64 \t%rd3, %rd3, 16;\n\tsetp.ne.s64 \t%p2, %rd3, %rd4;\n\t@%p2 bra \t$B;\n";
  return ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n"
         "\t.reg .pred %p<4>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n" +
         (remainder_first ? rem + body : body + rem) + extra + "\tret;\n}\n" +
         "\t.file\t1 \"/some/dir/walk.cu\"\n\t.file\t2 \"/some/dir/cudaviz.h\"\n";
}

TEST(UnrolledLoops, ABodyOfCopiesAndARemainderLoopAreFoundWithTheRemaindersPlace) {
  auto first = unrolled_loops(ptx(true, 4), "walk.cu");
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].line, 7);
  EXPECT_EQ(first[0].unroll, 4u);
  EXPECT_TRUE(first[0].remainder_first);
  auto last = unrolled_loops(ptx(false, 8), "walk.cu");
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].unroll, 8u);
  EXPECT_FALSE(last[0].remainder_first);
  EXPECT_FALSE(first[0].body_stores);
  // A store in the body (a line of its own): what it repeats it loads again in each pass.
  std::string stores = ptx(true, 4);
  stores.replace(stores.find("\tadd.s64 \t%rd3"), 0, "\t.loc\t1 8 3\n\tst.global.u32 \t[%rd6], %r2;\n");
  auto with_store = unrolled_loops(stores, "walk.cu");
  ASSERT_EQ(with_store.size(), 1u);
  EXPECT_TRUE(with_store[0].body_stores);
  // The student's file is matched by its name; another file's lines are not the student's.
  EXPECT_TRUE(unrolled_loops(ptx(true, 4), "other.cu").empty());
}

TEST(UnrolledLoops, OtherShapesKeepTheSourcesOrder) {
  // One copy in each loop: two loops over the line, not an unrolled one.
  EXPECT_TRUE(unrolled_loops(ptx(true, 1), "walk.cu").empty());
  // Copies that are not a multiple of the remainder's (three there, four in the body).
  std::string three = ptx(true, 4);
  const std::string rem = "$R:\n\t.loc\t1 7 3\n";
  three.replace(three.find(rem) + rem.size(), 0,
                "\tld.global.u32 \t%r3, [%rd1+4];\n\tld.global.u32 \t%r3, [%rd1+8];\n");
  EXPECT_TRUE(unrolled_loops(three, "walk.cu").empty());
  // An access of the line outside both loops: a thread's passes are not one run.
  EXPECT_TRUE(unrolled_loops(ptx(true, 4, "\t.loc\t1 7 3\n\tld.global.u32 \t%r3, [%rd5];\n"), "walk.cu").empty());
  // Shared memory is not global memory.
  std::string shared = ptx(true, 4);
  for (size_t at; (at = shared.find("ld.global")) != std::string::npos;) shared.replace(at, 9, "ld.shared");
  EXPECT_TRUE(unrolled_loops(shared, "walk.cu").empty());
}

TEST(UnrolledLoops, LoopsInsideAnotherLoopKeepTheSourcesOrder) {
  // Both loops inside an outer loop: a thread runs them once per outer pass.
  std::string nested = ptx(true, 4);
  nested.replace(nested.find("$R:"), 0, "$O:\n");
  nested.replace(nested.find("\tret;"), 0, "\tsetp.ne.s64 \t%p3, %rd5, %rd6;\n\t@%p3 bra \t$O;\n");
  EXPECT_TRUE(unrolled_loops(nested, "walk.cu").empty());
}

TEST(UnrolledLoops, AnInlinedHelpersAccessCountsAtTheStudentsLine) {
  // The prelude's operator[] (file 2) inlined at the student's line 9.
  std::string inl = ptx(true, 4);
  for (size_t at = 0; (at = inl.find("\t.loc\t1 7 3\n", at)) != std::string::npos;) {
    const std::string loc = "\t.loc\t2 87 12, function_name $L__info_string0, inlined_at 1 9 5\n";
    inl.replace(at, 12, loc);
    at += loc.size();
  }
  auto found = unrolled_loops(inl, "walk.cu");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].line, 9);
}

// Explain's request carries the layout of the PTX its caller hands it (the
// challenge's judge: its own compile's), without compiling the file again.
TEST(UnrolledLoops, ExplainsRequestCarriesTheLayoutOfTheGivenPtx) {
  const TemplateSpec* t = find_template("count3");
  ASSERT_TRUE(t);
  ExplainOptions o;
  o.file_name = "walk.cu";
  o.ptx = ptx(true, 4);
  const emu::ExplainRequest q = make_explain_request(*t, "// template: count3\n", o);
  ASSERT_EQ(q.unrolled.size(), 1u);
  EXPECT_EQ(q.unrolled[0].line, 7);
  EXPECT_TRUE(q.unrolled[0].remainder_first);
  // And the wire keeps it.
  std::vector<char> blob;
  const emu::ExplainRequest back = emu::decode_explain_request(emu::encode_explain_request(q, blob), blob);
  ASSERT_EQ(back.unrolled.size(), 1u);
  EXPECT_EQ(back.unrolled[0].unroll, 4u);
  EXPECT_TRUE(back.unrolled[0].remainder_first);
  EXPECT_EQ(back.unrolled[0].body_stores, q.unrolled[0].body_stores);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int line_of(const std::string& src, const std::string& marker) {
  const size_t at = src.find(marker);
  return at == std::string::npos ? 0 : 1 + static_cast<int>(std::count(src.begin(), src.begin() + at, '\n'));
}

// What Nsight Compute measured on the H100 (2026-11-27): sum3.cu's loop
// unrolled with the remainder after the body (1.125 sectors a request, as
// the source's order gives), sum3_hoisted.cu's with it first (1.00), and
// sum3_naive.cu's v[a] loaded once per pass of its body (its atomic may write).
TEST(UnrolledLoops, NvrtcUnrollsTheShippedSum3LoopsAsMeasured) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  struct Case {
    const char* file;
    const char* marker;
    bool remainder_first, body_stores;
  };
  for (const Case& c : {Case{"sum3.cu", "mine += v[k]", false, false},
                        Case{"sum3_hoisted.cu", "item1 + item2 + v[i]", true, true},
                        Case{"sum3_naive.cu", "v[aIndex]) + v[bIndex] + v[i]", true, true},
                        Case{"sum3_shared.cu", "item1 + item2 + v[i]", true, false}}) {
    CompileRequest req;
    req.source = slurp(std::string(CUDAVIZ_SOURCE_DIR) + "/assets/kernels/" + c.file);
    req.file_name = c.file;
    req.arch = "compute_90";
    const CompileResult r = compile(req);
    ASSERT_TRUE(r.ok) << c.file << ": " << r.first_error() << r.error;
    const auto found = unrolled_loops(r.ptx, r.file_name);
    ASSERT_EQ(found.size(), 1u) << c.file;
    EXPECT_EQ(found[0].line, line_of(req.source, c.marker)) << c.file;
    EXPECT_EQ(found[0].unroll, 4u) << c.file;
    EXPECT_EQ(found[0].remainder_first, c.remainder_first) << c.file;
    EXPECT_EQ(found[0].body_stores, c.body_stores) << c.file;
  }
}

}  // namespace
}  // namespace cv::usercode

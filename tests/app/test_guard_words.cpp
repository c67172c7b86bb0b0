// A guard record in a student's words (docs/guard.md): the access, the
// nearest buffer and how far outside it, the thread, block and line; shared
// and local windows; misalignment; the table the runner writes.
#include <gtest/gtest.h>

#include "usercode/runner/guard_runtime.h"
#include "usercode/runner/guard_words.h"

namespace cv::usercode::guard {
namespace {

const std::vector<GuardSite> kSites = {
    {12, "write", "global", 4, "st.global.f32", "fountain_step", false},
    {17, "read", "global", 16, "ld.global.v4.f32", "fountain_step", false},
    {20, "write", "shared", 8, "st.shared.u64", "pi_samples", false},
    {9, "read", "local", 4, "ld.local.f32", "k", false},
    {0, "atomic", "generic", 8, "atom.add.u64", "k", false},
};

Record record(unsigned site, Space space, Reason reason, unsigned long long address) {
  Record r{};
  r.hit = 1, r.site = site, r.space = static_cast<unsigned>(space), r.reason = static_cast<unsigned>(reason);
  r.address = address;
  r.thread[0] = 3, r.block[0] = 7;
  return r;
}

std::vector<BufferView> buffers() {
  return {{reinterpret_cast<void*>(0x7f0000000000ull), 1048576ull * 16, 16, "in", false},
          {reinterpret_cast<void*>(0x7f1000000000ull), 1048576ull * 4, 4, "out", true}};
}

TEST(GuardWords, FarPastABuffersEnd) {
  const unsigned long long end = 0x7f1000000000ull + 1048576ull * 4;
  const std::string w = describe(record(0, Space::Global, Reason::Outside, end + (16ull << 30)), kSites, buffers());
  EXPECT_EQ(w, "write of 4 bytes to out at 16 GiB past its end (index 4296015872 of 1048576) by thread "
               "(3,0,0) of block (7,0,0) at line 12");
}

TEST(GuardWords, BeforeAStartAndNull) {
  const std::string before =
      describe(record(1, Space::Global, Reason::Outside, 0x7f0000000000ull - 64), kSites, buffers());
  EXPECT_NE(before.find("read of 16 bytes from in at 64 bytes before its start (index -4 of 1048576)"),
            std::string::npos) << before;
  EXPECT_NE(before.find("at line 17"), std::string::npos);
  const std::string null = describe(record(4, Space::Global, Reason::Outside, 8), kSites, buffers());
  EXPECT_NE(null.find("atomic of 8 bytes on a null pointer"), std::string::npos) << null;
  EXPECT_EQ(null.find("at line"), std::string::npos) << "line 0: not said";
  const std::string none = describe(record(0, Space::Global, Reason::Outside, 0x123456789ull), kSites, {});
  EXPECT_NE(none.find("outside every buffer"), std::string::npos) << none;
}

TEST(GuardWords, Misaligned) {
  const std::string w =
      describe(record(1, Space::Global, Reason::Misaligned, 0x7f1000000000ull + 4), kSites, buffers());
  EXPECT_NE(w.find("read of 16 bytes from out at byte 4, not a multiple of 16"), std::string::npos) << w;
}

TEST(GuardWords, SharedAndLocalWindows) {
  Record s = record(2, Space::Shared, Reason::Outside, 8192);
  s.shared_lo = 0, s.shared_hi = 8192;
  const std::string sw = describe(s, kSites, buffers());
  EXPECT_NE(sw.find("write of 8 bytes to shared memory at byte 8192 of the block's 8 KiB of shared "
                    "memory (8 bytes past its end)"),
            std::string::npos) << sw;
  Record l = record(3, Space::Local, Reason::Outside, 0xfffc00 + (1ull << 28));
  l.local_lo = 0xfffc00, l.local_hi = 0xfffc00 + 32;
  const std::string lw = describe(l, kSites, buffers());
  EXPECT_NE(lw.find("read of 4 bytes from a local array"), std::string::npos) << lw;
  EXPECT_NE(lw.find("256 MiB past the end of the thread's frame of 32 bytes"), std::string::npos) << lw;
  EXPECT_NE(sentence(s, kSites, buffers()).find("the guard stopped a write"), std::string::npos);
  const nlohmann::json j = record_json(s, kSites);
  EXPECT_EQ(j["line"], 20);
  EXPECT_EQ(j["space"], "shared");
  EXPECT_EQ(j["access"], "write");
}

TEST(GuardWords, TheTableHoldsBuffersThenModuleGlobals) {
  std::vector<BufferView> b = buffers();
  b.push_back({nullptr, 0, 4, "ids", true});  // a buffer that is not there: left out
  const Table t = make_table(b, {{0x1000, 0x1030}});
  ASSERT_EQ(t.count, 3u);
  EXPECT_EQ(t.entry[0].begin, 0x7f0000000000ull);
  EXPECT_EQ(t.entry[0].end, 0x7f0000000000ull + 1048576ull * 16);
  EXPECT_EQ(t.entry[2].begin, 0x1000u);
  EXPECT_EQ(t.entry[3].begin, 0u) << "unused entries are {0, 0} and match nothing";
  std::vector<BufferView> many(kTableEntries + 3, BufferView{reinterpret_cast<void*>(0x5000), 64, 4, "x", true});
  EXPECT_EQ(make_table(many, {}).count, kTableEntries);
  EXPECT_EQ(byte_words(1536), "1.5 KiB");
  EXPECT_EQ(byte_words(1), "1 byte");
}

}  // namespace
}  // namespace cv::usercode::guard

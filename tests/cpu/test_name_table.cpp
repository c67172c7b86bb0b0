// The variant tables (common/name_table.h): each kernel folder's names are
// written once and to_string / parse_variant / all_variants agree with them;
// the CLI spellings scripts rely on stay.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "fountain/fountain.h"
#include "labs/corelated/corelated.h"
#include "labs/pi/pi.h"
#include "labs/reduce/reduce.h"
#include "labs/reverse/reverse.h"
#include "labs/sum3/sum3.h"
#include "nbody/nbody.h"
#include "swarm/swarm.h"

namespace {

// Every value of the table round-trips, names are unique, all_variants is the
// table's order, and unknown or differently-cased names are refused.
template <class E, size_t N, class ToString, class Parse, class All>
void check_table(const cv::Named<E> (&table)[N], ToString to_string, Parse parse, All all) {
  std::set<std::string> seen;
  ASSERT_EQ(all().size(), N);
  for (size_t i = 0; i < N; ++i) {
    const E v = table[i].value;
    EXPECT_EQ(all()[i], v) << table[i].name;
    EXPECT_STREQ(to_string(v), table[i].name);
    EXPECT_EQ(parse(table[i].name), v) << table[i].name;
    EXPECT_TRUE(seen.insert(table[i].name).second) << "written twice: " << table[i].name;
    EXPECT_EQ(cv::index_of(table, v), static_cast<int>(i));
    std::string upper = table[i].name;
    upper[0] = static_cast<char>(upper[0] - 'a' + 'A');
    EXPECT_FALSE(parse(upper)) << upper;
  }
  EXPECT_FALSE(parse("")) << "empty";
  EXPECT_FALSE(parse("all"));
  EXPECT_EQ(cv::names_of(table).size(), N);
}

}  // namespace

TEST(NameTable, EveryKernelFoldersVariantsRoundTrip) {
  using namespace cv;
  check_table(fountain::kVariants, [](auto v) { return fountain::to_string(v); },
              [](const std::string& s) { return fountain::parse_variant(s); },
              [] { return fountain::all_variants(); });
  check_table(swarm::kVariants, [](auto v) { return swarm::to_string(v); },
              [](const std::string& s) { return swarm::parse_variant(s); },
              [] { return swarm::all_variants(); });
  check_table(nbody::kVariants, [](auto v) { return nbody::to_string(v); },
              [](const std::string& s) { return nbody::parse_variant(s); },
              [] { return nbody::all_variants(); });
  check_table(sum3::kVariants, [](auto v) { return sum3::to_string(v); },
              [](const std::string& s) { return sum3::parse_variant(s); },
              [] { return sum3::all_variants(); });
  check_table(pi::kVariants, [](auto v) { return pi::to_string(v); },
              [](const std::string& s) { return pi::parse_variant(s); },
              [] { return pi::all_variants(); });
  check_table(reverse::kVariants, [](auto v) { return reverse::to_string(v); },
              [](const std::string& s) { return reverse::parse_variant(s); },
              [] { return reverse::all_variants(); });
  check_table(corelated::kVariants, [](auto v) { return corelated::to_string(v); },
              [](const std::string& s) { return corelated::parse_variant(s); },
              [] { return corelated::all_variants(); });
  check_table(reduce::kVariants, [](auto v) { return reduce::to_string(v); },
              [](const std::string& s) { return reduce::parse_variant(s); },
              [] { return reduce::all_variants(); });
}

TEST(NameTable, TheSpellingsScriptsUseStay) {
  using namespace cv;
  EXPECT_STREQ(fountain::to_string(fountain::Variant::Seed), "seed");  // --variant seed
  EXPECT_STREQ(nbody::to_string(nbody::Variant::Seed), "seed");
  EXPECT_STREQ(pi::to_string(pi::Variant::Seed), "seed");
  EXPECT_STREQ(pi::to_string(pi::Variant::CpuSerial), "cpu");
  EXPECT_STREQ(reduce::to_string(reduce::Variant::SharedTree), "shared_tree");
  EXPECT_STREQ(sum3::to_string(sum3::Variant::CpuSerial), "cpu_serial");
}

TEST(NameTable, ComboItemsGiveNameAndDescription) {
  const std::string items = cv::combo_items(cv::fountain::kVariants);
  EXPECT_EQ(items, std::string("lean (40 B/particle)\0seed (80 B/particle)\0", 42));
  const std::string nb = cv::combo_items(cv::nbody::kVariants);
  EXPECT_EQ(nb, std::string("seed (global memory)\0tiled (shared memory)\0fast\0", 48));
}

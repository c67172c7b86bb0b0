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

// One kernel folder's table against its three functions.
#define CHECK_TABLE(ns)                                               \
  check_table(                                                        \
      cv::ns::kVariants, [](auto v) { return cv::ns::to_string(v); }, \
      [](const std::string& s) { return cv::ns::parse_variant(s); },  \
      [] { return cv::ns::all_variants(); })

TEST(NameTable, EveryKernelFoldersVariantsRoundTrip) {
  CHECK_TABLE(fountain);
  CHECK_TABLE(swarm);
  CHECK_TABLE(nbody);
  CHECK_TABLE(sum3);
  CHECK_TABLE(pi);
  CHECK_TABLE(reverse);
  CHECK_TABLE(corelated);
  CHECK_TABLE(reduce);
}

TEST(NameTable, TheSpellingsScriptsUseStay) {
  using namespace cv;
  EXPECT_STREQ(fountain::to_string(fountain::Variant::Original), "original");
  EXPECT_STREQ(nbody::to_string(nbody::Variant::Original), "original");
  EXPECT_STREQ(pi::to_string(pi::Variant::Original), "original");
  // The older spelling scripts and presets use still names the same variant, and only it.
  EXPECT_EQ(fountain::parse_variant("seed"), fountain::Variant::Original);  // --variant seed
  EXPECT_EQ(nbody::parse_variant("seed"), nbody::Variant::Original);
  EXPECT_EQ(parse_name(pi::kVariants, "seed"), pi::Variant::Original);
  EXPECT_EQ(fountain::parse_variant("seeds"), std::nullopt);
  EXPECT_EQ(parse_name(reduce::kVariants, "seed"), std::nullopt);
  const auto aliases = aliases_of(fountain::kVariants);
  ASSERT_EQ(aliases.size(), 1u);
  EXPECT_EQ(aliases[0], (std::pair<std::string, std::string>{"seed", "original"}));
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

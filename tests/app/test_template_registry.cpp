// The template registry (usercode/templates/template_registry.h) and the generic launch:
// every registered template is complete and its file names it, the registry
// refuses duplicates and incomplete specs, a template's rules give the launch
// the runner expects, and the launch survives the wire unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "bench/bench.h"
#include "bench/kernel_action.h"
#include "usercode/wire/data_generators.h"
#include "usercode/wire/launch_request.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

TemplateSpec minimal(const std::string& name) {
  TemplateSpec t;
  t.name = name;
  t.file = name + ".cu";
  t.entry = name;
  t.feeds_name = "count3";
  t.shape = [](const Workload&) { return LaunchShape{}; };
  return t;
}

TEST(TemplateRegistry, EveryTemplateIsCompleteAndItsFilesNameIt) {
  ASSERT_FALSE(template_specs().empty());
  std::set<std::string> names, files;
  for (const TemplateEntry& e : template_entries()) {
    EXPECT_TRUE(names.insert(e.name).second) << e.name;
    EXPECT_TRUE(files.insert(e.file).second) << e.file;
    const std::string src = read_template_source(e, test_config().paths);
    EXPECT_EQ(template_from_source(src), e.spec->name) << e.file;
    EXPECT_EQ(find_template(e.name), e.spec) << e.name;
  }
  for (const TemplateSpec* t : template_specs()) {
    EXPECT_NO_THROW(check_can_register([&] {
      TemplateSpec copy = *t;  // the same spec under fresh names passes the same checks
      copy.name += "_copy";
      copy.file = "copy_" + copy.file;
      for (Example& e : copy.examples) e.name += "_copy", e.file = "copy_" + e.file;
      return copy;
    }())) << t->name;
    EXPECT_FALSE(t->description.empty()) << t->name;
    // What it feeds exists: a lab or scene with a bench target of that name.
    EXPECT_TRUE(bench::find_target(t->feeds_name)) << t->name << " feeds " << t->feeds_name;
    if (t->feeds == Feeds::Lab) {
      EXPECT_TRUE(t->check) << t->name << ": a lab template is checked";
      const bench::Target* lab = bench::find_target(t->feeds_name);
      EXPECT_TRUE(lab && lab->lab.action(bench::kYourKernelAction))
          << "the " << t->feeds_name << " lab offers 'run your kernel'";
    }
    for (const ArgSpec& a : t->args)
      if (a.is_span && !a.span.generator.empty())
        EXPECT_TRUE(has_generator(a.span.generator)) << t->name << "." << a.name << ": " << a.span.generator;
    for (const std::string& v : t->vs_variants) {
      const auto& known = bench::find_target(t->feeds_name)->variants;
      EXPECT_NE(std::find(known.begin(), known.end(), v), known.end()) << t->name << " vs " << v;
    }
  }
  for (const char* name : {"fountain_kernel", "fountain_particle", "count3", "pi", "reduce", "reverse",
                           "sum3", "corelated"})
    EXPECT_TRUE(find_template(name)) << name;
}

TEST(TemplateRegistry, RefusesDuplicatesAndIncompleteSpecs) {
  EXPECT_THROW(check_can_register(minimal("count3")), std::logic_error);  // a template's name
  TemplateSpec t = minimal("fresh_one");
  t.examples = {{"count3_racy", "", "fresh.cu"}};  // an example's name
  EXPECT_THROW(check_can_register(t), std::logic_error);
  t = minimal("fresh_two");
  t.file = "count3.cu";  // another template's file
  EXPECT_THROW(check_can_register(t), std::logic_error);
  t = minimal("fresh_three");
  t.examples = {{"fresh_three", "", "other.cu"}};  // itself twice
  EXPECT_THROW(check_can_register(t), std::logic_error);
  t = minimal("fresh_four");
  t.shape = nullptr;
  EXPECT_THROW(check_can_register(t), std::logic_error);
  t = minimal("fresh_five");
  SpanSpec s;
  s.elem_type = "int";
  s.elem_bytes = 4;
  s.size = [](const Workload&) { return 1ull; };
  s.source = SpanArg::From::Generate;  // no generator named
  t.args = {span_arg("a", s)};
  EXPECT_THROW(check_can_register(t), std::logic_error);
  t.args = {span_arg("a", SpanSpec{}), scalar_arg("a", {"int", nullptr})};
  EXPECT_THROW(check_can_register(t), std::logic_error);
  EXPECT_NO_THROW(check_can_register(minimal("fresh_six")));
}

TEST(TemplateRegistry, DeclarationComesFromTheArguments) {
  const TemplateSpec& c = *find_template("count3");
  EXPECT_EQ(parameter_text(c), "cv::Span<const int> data, cv::Span<unsigned long long> count");
  EXPECT_NE(declaration_text(c).find(
                "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count);"),
            std::string::npos)
      << declaration_text(c);
  EXPECT_NE(parameter_text(*find_template("fountain_kernel")).find("cv::Ids ids"), std::string::npos);
  EXPECT_NE(declaration_text(*find_template("fountain_particle")).find("CV_HD void particle_step("),
            std::string::npos);
}

TEST(TemplateLaunch, RulesGiveTheLaunch) {
  Workload w;
  w.n = 1000;
  w.seed = 9;
  w.block = {128, 1, 1};
  w.reps = 3;
  const LaunchRequest r = make_launch(*find_template("count3"), w, "lab");
  EXPECT_EQ(r.module, "lab");
  EXPECT_EQ(r.reps, 3);
  EXPECT_EQ(r.shape.grid[0], 8u);  // ceil(1000 / 128)
  EXPECT_EQ(r.shape.block[0], 128u);
  ASSERT_EQ(r.args.size(), 2u);
  const SpanArg& data = r.args[0].span;
  EXPECT_TRUE(r.args[0].is_span);
  EXPECT_EQ(data.from, SpanArg::From::Generate);
  EXPECT_EQ(data.generator, "lab_data");
  EXPECT_EQ(data.count, 1000u);
  EXPECT_EQ(data.seed, 9u);
  EXPECT_FALSE(data.writable);
  const SpanArg& count = r.args[1].span;
  EXPECT_EQ(count.from, SpanArg::From::Zero);
  EXPECT_EQ(count.count, 1u);
  EXPECT_EQ(count.elem_bytes, 8u);
  EXPECT_TRUE(count.read_back);

  // pi: scalars from the workload; 64 samples a thread.
  const LaunchRequest p = make_launch(*find_template("pi"), w);
  ASSERT_EQ(p.args.size(), 3u);
  unsigned long long n = 0;
  ASSERT_EQ(p.args[0].scalar.size(), sizeof n);
  std::memcpy(&n, p.args[0].scalar.data(), sizeof n);
  EXPECT_EQ(n, 1000u);
  EXPECT_EQ(p.shape.grid[0], 1u);

  // A scene template: runner-kept buffers start from its rules on a reset and
  // ping-pong; the scene's shared buffers replace them.
  Workload f;
  f.n = 5000;
  f.block = {16, 16, 1};
  f.reset = true;
  const LaunchRequest own = make_launch(*find_template("fountain_kernel"), f);
  EXPECT_EQ(own.args[0].span.from, SpanArg::From::State);
  EXPECT_EQ(own.args[0].span.init, SpanArg::Init::Bytes);
  EXPECT_EQ(own.args[0].span.init_bytes.size(), 5000u * 16);
  EXPECT_TRUE(own.args[1].span.read_back);
  ASSERT_EQ(own.swaps.size(), 1u);
  EXPECT_EQ(own.swaps[0], std::make_pair(std::string("in"), std::string("out")));
  EXPECT_EQ(own.shape.grid[0], 5u);  // width 71 over 16
  EXPECT_EQ(own.args[6].span.count, 0u) << "no colour view: ids is empty";
  f.shared["in"] = SharedBuffer{SharedBuffer::Kind::CudaVmm, 1, -1, 5000 * 16};
  f.shared["out"] = SharedBuffer{SharedBuffer::Kind::CudaVmm, 2, -1, 5000 * 16};
  f.values["colour_by"] = 2;
  f.shared["ids"] = SharedBuffer{SharedBuffer::Kind::CudaVmm, 3, -1, 5000 * 4};
  const LaunchRequest in_place = make_launch(*find_template("fountain_kernel"), f);
  EXPECT_EQ(in_place.args[0].span.from, SpanArg::From::Shared);
  EXPECT_FALSE(in_place.args[1].span.read_back) << "the app's own buffer never travels back";
  EXPECT_TRUE(in_place.swaps.empty());
  EXPECT_EQ(in_place.args[6].span.count, 5000u);
  int mode = 0;
  ASSERT_GE(in_place.args[6].span.tail.size(), sizeof mode);
  std::memcpy(&mode, in_place.args[6].span.tail.data(), sizeof mode);
  EXPECT_EQ(mode, 2);
  f.shared["out"].bytes = 100;  // too small for the particles
  EXPECT_THROW(make_launch(*find_template("fountain_kernel"), f), std::invalid_argument);
}

TEST(LaunchWire, RoundTrips) {
  LaunchRequest r;
  r.module = "lab";
  r.shape.grid[0] = 7, r.shape.grid[1] = 3;
  r.shape.block[0] = 64, r.shape.block[2] = 2;
  r.shape.dynamic_shared_bytes = 512;
  r.reps = 4;
  r.cpu_items = 99;
  r.swaps = {{"a", "b"}};
  LaunchArg s;
  s.name = "n";
  s.scalar = bytes_of(123456789ull);
  LaunchArg g;
  g.name = "data";
  g.is_span = true;
  g.span.from = SpanArg::From::Generate;
  g.span.generator = "lab_data";
  g.span.gen_n = 10;
  g.span.seed = 5;
  g.span.count = 10;
  g.span.elem_bytes = 4;
  g.span.writable = false;
  LaunchArg k;
  k.name = "a";
  k.is_span = true;
  k.span.from = SpanArg::From::State;
  k.span.state = "a";
  k.span.init = SpanArg::Init::Bytes;
  k.span.init_bytes = {1, 2, 3, 4, 5, 6, 7, 8};
  k.span.count = 2;
  k.span.elem_bytes = 4;
  k.span.read_back = true;
  k.span.tail = {9, 0, 0, 0};
  LaunchArg sh;
  sh.name = "b";
  sh.is_span = true;
  sh.span.from = SpanArg::From::Shared;
  sh.span.shared_id = 77;
  sh.span.count = 2;
  sh.span.elem_bytes = 4;
  r.args = {s, g, k, sh};
  std::vector<char> blob;
  const nlohmann::json j = wire::encode_launch(r, blob);
  // Through text, as the socket carries it.
  const LaunchRequest back = wire::decode_launch(nlohmann::json::parse(j.dump()), blob);
  EXPECT_EQ(back.module, "lab");
  EXPECT_EQ(back.shape.grid[0], 7u);
  EXPECT_EQ(back.shape.grid[1], 3u);
  EXPECT_EQ(back.shape.block[2], 2u);
  EXPECT_EQ(back.shape.dynamic_shared_bytes, 512u);
  EXPECT_EQ(back.reps, 4);
  EXPECT_EQ(back.cpu_items, 99u);
  EXPECT_EQ(back.swaps, r.swaps);
  ASSERT_EQ(back.args.size(), 4u);
  EXPECT_EQ(back.args[0].scalar, s.scalar);
  EXPECT_EQ(back.args[1].span.generator, "lab_data");
  EXPECT_EQ(back.args[1].span.seed, 5u);
  EXPECT_FALSE(back.args[1].span.writable);
  EXPECT_EQ(back.args[2].span.init_bytes, k.span.init_bytes);
  EXPECT_EQ(back.args[2].span.tail, k.span.tail);
  EXPECT_TRUE(back.args[2].span.read_back);
  EXPECT_EQ(back.args[3].span.from, SpanArg::From::Shared);
  EXPECT_EQ(back.args[3].span.shared_id, 77u);
  // A reference outside the blob is refused with a sentence; so is every
  // request cut short (each length, none read past the bytes it was given),
  // one with bytes left over, and one whose span source is not known.
  nlohmann::json bad = j;
  bad["request"] = {blob.size(), 8};
  EXPECT_THROW(wire::decode_launch(bad, blob), std::runtime_error);
  const size_t bytes = j["request"][1].get<size_t>();
  for (size_t k = 0; k < bytes; ++k) {
    bad["request"] = {0, k};
    const std::vector<char> cut(blob.begin(), blob.begin() + static_cast<long>(k));
    EXPECT_THROW(wire::decode_launch(bad, cut), std::runtime_error) << k << " of " << bytes << " bytes";
  }
  std::vector<char> longer = blob;
  longer.push_back(0);
  bad["request"] = {0, longer.size()};
  EXPECT_THROW(wire::decode_launch(bad, longer), std::runtime_error);
  LaunchRequest odd = r;
  odd.args = {sh};
  std::vector<char> odd_blob;
  const nlohmann::json oj = wire::encode_launch(odd, odd_blob);
  // The source byte of the only span: after magic, module, shape, reps, cpu
  // items, the schedule, the count, its name and kind, elem_bytes, count,
  // writable, read_back.
  const size_t from_at = 4 + (8 + odd.module.size()) + 7 * 4 + 4 + 8 + 1 + 4 + (8 + sh.name.size()) + 1 + 4 + 8 + 1 + 1;
  ASSERT_EQ(odd_blob.at(from_at), static_cast<char>(SpanArg::From::Shared));
  odd_blob[from_at] = 9;
  EXPECT_THROW(wire::decode_launch(oj, odd_blob), std::runtime_error);
}

TEST(DataGenerators, KnownNamesAndSizes) {
  EXPECT_EQ(generate_data("lab_data", 100, 1).size(), 400u);
  EXPECT_EQ(generate_data("lab_data", 100, 1), generate_data("lab_data", 100, 1));
  EXPECT_NE(generate_data("lab_data", 100, 1), generate_data("lab_data", 100, 2));
  // n is the span's count (rows * 64 ids), as the launch passes it for every span.
  EXPECT_EQ(generate_data("corelated_ids", 10 * kCorelatedIdsPerRow, 2002).size(), 10u * kCorelatedIdsPerRow * 4);
  EXPECT_EQ(generate_data("corelated_offsets", 11, 2002).size(), 11u * 4);
  EXPECT_THROW(generate_data("teapot", 1, 1), std::invalid_argument);
}

}  // namespace
}  // namespace cv::usercode

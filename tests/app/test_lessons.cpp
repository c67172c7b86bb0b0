// Lessons: the file format, its checks against the app's own
// lists, the values a run measures, verdicts, and the Markdown subset.
#include <gtest/gtest.h>

#include <filesystem>

#include "lessons/lesson.h"
#include "lessons/lesson_values.h"
#include "lessons/markdown.h"
#include "test_config.h"

using namespace cv::lessons;

namespace {

const char* kGood = R"(# Counting

Intro text.

## Step: Serial count

```step
scene: fountain
variant: seed
count: 4096
block: 16x16
params.gravity: 0.0002
camera.distance: 9
lab: count3
run: lab count3
run.variant: cpu, atomic
run.n: 2^20, 1000
cpu.run.variant: cpu
cpu.run.n: 1000
predict: number
question: how many ms?
unit: ms
tolerance: 20%
range: 0.01 .. 2^10
answer: atomic.ms_median
cpu.answer: cpu.ms_median
show: time = cpu.ms_median, speed-up = cpu.ms_median / atomic.ms_median
cpu.show: time = cpu.ms_median
table: yes
```

Some **strong** text and `code`.

```
for (;;) {}
### Explanation   (inside code: not the explanation)
```

### Explanation

It was fast.

## Step: Which shape

```step
run: sweep fountain
run.variant: seed
run.shapes: 16x16, 1x1
gpu_only: yes
predict: choice
choices: square = 16x16.ms_median | one thread = 1x1.ms_median
answer: highest
panel: sweep
```

## Step: Look

```step
panel: memory
```
)";

// The problems a text has ("" when it parses).
std::vector<std::string> problems_of(const std::string& text) {
  try {
    parse_lesson(text, "bad.md", test_config().paths);
  } catch (const LessonError& e) {
    return e.problems();
  }
  return {};
}

// One step with `body` as its key block.
std::string one_step(const std::string& body) {
  return "# T\n\n## Step: S\n\n```step\n" + body + "\n```\n\ntext\n";
}

bool any_contains(const std::vector<std::string>& v, const std::string& what) {
  for (const auto& s : v)
    if (s.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(LessonParse, GoodFileGivesStepsPlansAndText) {
  const Lesson l = parse_lesson(kGood, "good.md", test_config().paths);
  EXPECT_EQ(l.title, "Counting");
  ASSERT_EQ(l.steps.size(), 3u);
  const Step& s = l.steps[0];
  EXPECT_EQ(s.title, "Serial count");
  EXPECT_EQ(s.gpu.state["scene"], "fountain");
  EXPECT_EQ(s.gpu.state["scenes"]["fountain"]["variant"], "seed");
  EXPECT_EQ(s.gpu.state["scenes"]["fountain"]["count"], 4096);
  EXPECT_EQ(s.gpu.state["scenes"]["fountain"]["params"]["gravity"], 0.0002);
  EXPECT_EQ(s.gpu.state["lab"]["name"], "count3");
  EXPECT_EQ(s.gpu.run.kind, RunSpec::Kind::Lab);
  EXPECT_EQ(s.gpu.run.variants, (std::vector<std::string>{"cpu", "atomic"}));
  EXPECT_EQ(s.gpu.run.ns, (std::vector<long long>{1 << 20, 1000}));
  EXPECT_EQ(s.cpu.run.variants, (std::vector<std::string>{"cpu"}));  // cpu.* overrides
  EXPECT_EQ(s.cpu.run.ns, (std::vector<long long>{1000}));
  EXPECT_EQ(s.gpu.predict.kind, Prediction::Kind::Number);
  EXPECT_EQ(s.gpu.predict.answer, "atomic.ms_median");
  EXPECT_EQ(s.cpu.predict.answer, "cpu.ms_median");
  EXPECT_DOUBLE_EQ(s.gpu.predict.tolerance, 0.2);
  EXPECT_TRUE(s.gpu.predict.tolerance_relative);
  ASSERT_TRUE(s.gpu.predict.range);
  EXPECT_DOUBLE_EQ(s.gpu.predict.range->first, 0.01);
  EXPECT_DOUBLE_EQ(s.gpu.predict.range->second, 1024);
  EXPECT_EQ(s.cpu.predict.range, s.gpu.predict.range);
  ASSERT_EQ(s.gpu.show.size(), 2u);
  EXPECT_EQ(s.gpu.show[1].label, "speed-up");
  EXPECT_EQ(s.gpu.show[1].key, "cpu.ms_median / atomic.ms_median");
  EXPECT_EQ(s.cpu.show.size(), 1u);
  EXPECT_TRUE(s.gpu.table);
  EXPECT_NE(s.text.find("**strong**"), std::string::npos);
  EXPECT_NE(s.text.find("inside code"), std::string::npos);  // a heading in code is code
  EXPECT_EQ(s.explanation, "\nIt was fast.\n\n");
  const Step& w = l.steps[1];
  EXPECT_TRUE(w.gpu_only);
  EXPECT_EQ(w.gpu.run.kind, RunSpec::Kind::Sweep);
  EXPECT_EQ(w.gpu.run.shapes.size(), 2u);
  EXPECT_EQ(w.gpu.predict.choices[1].label, "one thread");
  EXPECT_EQ(w.gpu.predict.choices[1].key, "1x1.ms_median");
  EXPECT_EQ(w.gpu.panel, "sweep");
  EXPECT_EQ(l.steps[2].gpu.panel, "memory");
  EXPECT_EQ(l.steps[2].gpu.run.kind, RunSpec::Kind::None);
}

TEST(LessonParse, ShippedLessonsAllLoad) {
  const auto files = shipped_lessons(test_config().paths);
  ASSERT_GE(files.size(), 5u) << "assets/lessons: " << lesson_dir(test_config().paths);
  for (const auto& f : files) {
    try {
      const Lesson l = load_lesson_file(f, test_config().paths);
      EXPECT_GE(l.steps.size(), 5u) << f;
      for (const Step& s : l.steps)
        if (s.gpu.predict.kind != Prediction::Kind::None)
          EXPECT_NE(s.gpu.run.kind, RunSpec::Kind::None) << f << ": " << s.title;
    } catch (const LessonError& e) {
      ADD_FAILURE() << f << ": " << e.problems().front();
    }
  }
}

TEST(LessonParse, MessagesNameFileStepAndField) {
  const auto p = problems_of(one_step("scene: fountain\nvariant: turbo"));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].find("bad.md:7:"), std::string::npos) << p[0];
  EXPECT_NE(p[0].find("step 1 'S'"), std::string::npos) << p[0];
  EXPECT_NE(p[0].find("field 'variant'"), std::string::npos) << p[0];
  EXPECT_NE(p[0].find("lean, original"), std::string::npos) << p[0];  // the valid names
}

TEST(LessonParse, UnknownNamesListTheValidOnes) {
  auto p = problems_of(one_step("scene: volcano"));
  ASSERT_FALSE(p.empty());
  EXPECT_TRUE(any_contains(p, "field 'scene'")) << p[0];
  EXPECT_TRUE(any_contains(p, "fountain, swarm, nbody, pi")) << p[0];

  p = problems_of(one_step("lab: sort"));
  EXPECT_TRUE(any_contains(p, "field 'lab'")) << p[0];
  EXPECT_TRUE(any_contains(p, "count3")) << p[0];

  p = problems_of(one_step("run: lab sorting"));
  EXPECT_TRUE(any_contains(p, "field 'run'") && any_contains(p, "corelated")) << p[0];

  p = problems_of(one_step("run: lab count3\nrun.variant: quick"));
  EXPECT_TRUE(any_contains(p, "field 'run.variant'") && any_contains(p, "racy, atomic")) << p[0];

  p = problems_of(one_step("panel: dashboard"));
  EXPECT_TRUE(any_contains(p, "field 'panel'") && any_contains(p, "occupancy")) << p[0];
}

TEST(LessonParse, EachKindOfMistakeIsNamed) {
  struct Case {
    const char* body;
    const char* field;
  };
  const Case cases[] = {
      {"colour: red", "field 'colour': unknown key"},
      {"scene: pi\nscene: pi", "field 'scene': given twice"},
      {"variant: seed", "field 'variant': needs 'scene'"},
      {"scene: fountain\ncount: lots", "field 'count'"},
      {"scene: fountain\nblock: 2000x1", "field 'block'"},
      {"run: lab count3\nrun.n: -5", "field 'run.n'"},
      {"run: lab count3\nrun.shapes: 8x8", "field 'run.shapes': only a sweep"},
      {"run: sweep fountain", "field 'run': a sweep needs run.shapes"},
      {"run: frames many", "field 'run'"},
      {"run: dance", "field 'run'"},
      {"run.n: 5", "field 'run.n': needs 'run'"},
      {"run: lab count3\npredict: number\ntolerance: 10%", "field 'answer': missing"},
      {"run: lab count3\npredict: number\nanswer: cpu.ms_median\ntolerance: lots",
       "field 'tolerance'"},
      {"run: lab count3\npredict: choice\nchoices: a | b\nanswer: c", "field 'answer': 'c'"},
      {"run: lab count3\npredict: choice\nchoices: a | b\nanswer: lowest",
       "field 'answer': 'lowest' needs every choice bound"},
      {"run: lab count3\npredict: choice\nchoices: only one\nanswer: only one",
       "field 'choices'"},
      {"run: lab count3\npredict: guess\nanswer: x", "field 'predict'"},
      {"run: lab count3\nshow: quick.ms_median", "field 'show': 'quick'"},
      {"run: lab count3\nrun.variant: cpu\nshow: atomic.ms_median", "not among run.variant"},
      {"run: lab count3\nshow: ms_median", "not SELECTOR.FIELD"},
      {"run: frames 10\nshow: gb", "not measured by a scene run"},
      {"show: fps", "needs a run"},
      {"run: sweep fountain\nrun.shapes: 8x8\nshow: 4x4.ms_median", "not a shape of run.shapes"},
      {"gpu_only: maybe", "field 'gpu_only'"},
      {"run: lab count3\ncpu.run.variant: fast_cpu", "field 'cpu.run.variant'"},
      {"scene: fountain\nparams.gravity: 5", "field 'params.gravity'"},
      {"just words", "not 'key: value'"},
      {"table: perhaps", "field 'table'"},
      {"run: lab count3\npredict: number\nanswer: cpu.ms_median\ntolerance: 5%\nrange: 3 to 4",
       "field 'range': '3 to 4' is not two numbers"},
      {"run: lab count3\npredict: number\nanswer: cpu.ms_median\ntolerance: 5%\nrange: 4 .. 3",
       "field 'range': '4 .. 3': LO must be below HI"},
      {"run: lab count3\npredict: number\nanswer: cpu.ms_median\ntolerance: 5%\nrange: 1 .. inf",
       "field 'range': '1 .. inf'"},
      {"run: lab count3\npredict: choice\nchoices: a | b\nanswer: a\nrange: 0 .. 1",
       "field 'range': a choice prediction takes no range"},
      {"range: 0 .. 1", "field 'range': needs 'predict'"},
  };
  for (const Case& c : cases) {
    const auto p = problems_of(one_step(c.body));
    EXPECT_TRUE(any_contains(p, c.field))
        << "body: " << c.body << "\nwanted: " << c.field << "\ngot: " << (p.empty() ? "(none)" : p[0]);
    EXPECT_TRUE(any_contains(p, "bad.md:")) << c.body;
  }
}

TEST(LessonParse, FileLevelProblems) {
  EXPECT_TRUE(any_contains(problems_of("no title\n## Step: a\n```step\npanel: memory\n```\n"),
                           "no title"));
  EXPECT_TRUE(any_contains(problems_of("# T\n\ntext only\n"), "no steps"));
  EXPECT_TRUE(any_contains(problems_of("# T\n## Step: a\n```step\npanel: memory\n"),
                           "not closed"));
  EXPECT_TRUE(any_contains(problems_of("# T\n## Step:\ntext\n"), "field 'title'"));
  try {
    load_lesson_file("/nonexistent/lesson.md", test_config().paths);
    FAIL() << "a missing file loaded";
  } catch (const LessonError& e) {
    EXPECT_TRUE(any_contains(e.problems(), "/nonexistent/lesson.md"));
  }
}

TEST(LessonParse, EveryProblemIsListedNotJustTheFirst) {
  const auto p = problems_of(
      "# T\n## Step: a\n```step\ncolour: red\n```\n## Step: b\n```step\npanel: nope\n```\n");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_TRUE(any_contains(p, "step 1 'a'"));
  EXPECT_TRUE(any_contains(p, "step 2 'b'"));
}

TEST(LessonValues, BenchRowsByVariantAndSize) {
  Values v;
  nlohmann::ordered_json a = {{"bench", "sum3"}, {"variant", "naive"}, {"n", 800},
                              {"ms_median", 4.0}, {"vs", {{"cpu", 10.0}}}};
  nlohmann::ordered_json b = {{"bench", "sum3"}, {"variant", "naive"}, {"n", 1600},
                              {"ms_median", 32.0}, {"block", {16, 16, 1}}};
  add_bench_rows({a, b}, v);
  EXPECT_EQ(lookup(v, "naive@800.ms_median")->get<double>(), 4.0);
  EXPECT_EQ(lookup(v, "naive.ms_median")->get<double>(), 32.0);  // the last row of a variant
  EXPECT_EQ(lookup(v, "naive@800.vs.cpu")->get<double>(), 10.0);
  EXPECT_EQ(lookup(v, "naive.block")->get<std::string>(), "16x16x1");
  EXPECT_DOUBLE_EQ(lookup(v, "naive@1600.ms_median / naive@800.ms_median")->get<double>(), 8.0);
  EXPECT_FALSE(lookup(v, "shared.ms_median"));
  EXPECT_FALSE(lookup(v, "naive.ms_median / shared.ms_median"));
  add_sweep_row("16x16", {{"ms_median", 1.5}}, v);
  EXPECT_EQ(lookup(v, "16x16.ms_median")->get<double>(), 1.5);
}

TEST(LessonValues, Formats) {
  EXPECT_EQ(format_value("a.ms_median", 12.345), "12.3 ms");
  EXPECT_EQ(format_value("a.gb_per_s", 1500.0), "1500 GB/s");
  EXPECT_EQ(format_value("a.samples_per_s", 2.5e9), "2.5 G/s");
  EXPECT_EQ(format_value("a.correct", true), "yes");
  EXPECT_EQ(format_value("a.vs.b", 2.0), "2x");
  EXPECT_EQ(format_value("a.ms_median / b.ms_median", 3.25), "3.25x");
  EXPECT_EQ(format_value("fps", 60.0), "60 fps");
  EXPECT_EQ(format_value("a.pairs_per_s", 657014.0), "657 k/s");
  EXPECT_EQ(format_value("a.result", 3436), "3436");
}

TEST(LessonValues, VerdictForChoices) {
  Prediction p;
  p.kind = Prediction::Kind::Choice;
  p.choices = {{"atomic", "atomic.ms_median", false}, {"cub", "cub.ms_median", false}};
  p.answer = "lowest";
  Values v{{"atomic.ms_median", 5.0}, {"cub.ms_median", 2.0}};
  Verdict d = judge(p, v, {3, 10}, std::nullopt);
  EXPECT_TRUE(d.measured);
  EXPECT_EQ(d.correct_choice, 1);
  EXPECT_TRUE(d.right);  // most hands on the measured answer
  EXPECT_NE(d.summary.find("10 of 13"), std::string::npos) << d.summary;
  d = judge(p, v, {10, 3}, std::nullopt);
  EXPECT_FALSE(d.right);
  p.answer = "highest";
  EXPECT_EQ(judge(p, v, {0, 0}, std::nullopt).correct_choice, 0);
  // "true": the choice whose value holds, "!" negates.
  Prediction r;
  r.kind = Prediction::Kind::Choice;
  r.choices = {{"right", "racy.correct", false}, {"wrong", "racy.correct", true}};
  r.answer = "true";
  EXPECT_EQ(judge(r, {{"racy.correct", false}}, {1, 1}, std::nullopt).correct_choice, 1);
  EXPECT_EQ(judge(r, {{"racy.correct", true}}, {1, 1}, std::nullopt).correct_choice, 0);
  EXPECT_FALSE(judge(r, {}, {1, 1}, std::nullopt).measured);  // not run (no GPU)
  // A fixed answer needs no measurement.
  Prediction f;
  f.kind = Prediction::Kind::Choice;
  f.choices = {{"a", "", false}, {"b", "", false}};
  f.answer = "b";
  EXPECT_EQ(judge(f, {}, {0, 4}, std::nullopt).correct_choice, 1);
}

TEST(LessonValues, VerdictForNumbers) {
  Prediction p;
  p.kind = Prediction::Kind::Number;
  p.answer = "cpu.ms_median";
  p.unit = "ms";
  p.tolerance = 0.2;
  p.tolerance_relative = true;
  const Values v{{"cpu.ms_median", 10.0}};
  EXPECT_TRUE(judge(p, v, {}, 11.5).right);
  EXPECT_FALSE(judge(p, v, {}, 12.5).right);
  EXPECT_FALSE(judge(p, v, {}, std::nullopt).right);
  EXPECT_TRUE(judge(p, v, {}, std::nullopt).measured);
  p.tolerance_relative = false;
  p.tolerance = 3;
  EXPECT_TRUE(judge(p, v, {}, 12.5).right);
  EXPECT_FALSE(judge(p, v, {}, 13.5).right);
  EXPECT_FALSE(judge(p, {}, {}, 10.0).measured);
}

TEST(LessonMarkdown, BlocksAndSpans) {
  const auto b = parse_markdown(
      "# Title\n\nA **bold** and *em* word with `code` and ms_median.\nsame paragraph\n\n"
      "- one\n  continued\n- two\n\n1. first\n\n```\nint x;\n```\n");
  ASSERT_EQ(b.size(), 6u);
  EXPECT_EQ(b[0].kind, Block::Kind::Heading);
  EXPECT_EQ(b[0].level, 1);
  EXPECT_EQ(b[1].kind, Block::Kind::Paragraph);
  std::string plain;
  int strong = 0, em = 0, code = 0;
  for (const Span& s : b[1].spans) {
    plain += s.text;
    strong += s.strong, em += s.em, code += s.code;
  }
  EXPECT_EQ(strong, 1);
  EXPECT_EQ(em, 1);
  EXPECT_EQ(code, 1);
  EXPECT_NE(plain.find("ms_median"), std::string::npos);  // snake_case is not emphasis
  EXPECT_NE(plain.find("same paragraph"), std::string::npos);
  EXPECT_EQ(b[2].kind, Block::Kind::Bullet);
  EXPECT_EQ(b[2].spans.back().text, " continued");
  EXPECT_EQ(b[3].kind, Block::Kind::Bullet);
  EXPECT_EQ(b[4].kind, Block::Kind::Numbered);
  EXPECT_EQ(b[4].number, "1.");
  EXPECT_EQ(b[5].kind, Block::Kind::Code);
  EXPECT_EQ(b[5].code, (std::vector<std::string>{"int x;"}));
}

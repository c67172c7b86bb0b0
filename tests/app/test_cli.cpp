#include <gtest/gtest.h>

#include "cli.h"

using cv::Command;
using cv::parse_command_line;
using cv::UsageError;

static Command parse(std::vector<std::string> a) {
  return parse_command_line(a);
}

static std::string usage_error(std::vector<std::string> a) {
  try {
    parse_command_line(a);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(Cli, DefaultsOpenTheFountain) {
  Command c = parse({});
  EXPECT_EQ(c.kind, Command::Kind::Run);
  EXPECT_EQ(c.run.scene, "fountain");
  EXPECT_EQ(c.run.backend, "auto");
  EXPECT_EQ(c.run.frames, 0);
}

TEST(Cli, RunFlags) {
  Command c =
      parse({"--frames", "30", "--screenshot=out.png", "--backend", "cpu", "--n", "1000", "--block",
             "32,8", "--scene", "fountain", "--size", "640x480", "--variant", "seed"});
  EXPECT_EQ(c.run.frames, 30);
  EXPECT_EQ(*c.run.screenshot, "out.png");
  EXPECT_EQ(c.run.backend, "cpu");
  EXPECT_EQ(*c.run.n, 1000);
  EXPECT_EQ(c.run.block->x, 32);
  EXPECT_EQ(c.run.block->y, 8);
  EXPECT_EQ(c.run.width, 640);
  EXPECT_EQ(*c.run.variant, "seed");
}

TEST(Cli, EveryScene) {
  for (const char* s : {"fountain", "swarm", "nbody", "pi"})
    EXPECT_EQ(parse({"--scene", s}).run.scene, s);
  EXPECT_NE(usage_error({"--scene", "nbody2"}).find("fountain, swarm, nbody, pi"),
            std::string::npos);
}

TEST(Cli, Bench) {
  Command c = parse({"bench", "fountain", "--n", "65536", "--block", "16,16", "--variant", "all",
                     "--reps", "50"});
  EXPECT_EQ(c.kind, Command::Kind::Bench);
  EXPECT_EQ(c.bench.target, "fountain");
  EXPECT_EQ(*c.bench.n, 65536);
  EXPECT_EQ(c.bench.block->x, 16);
  EXPECT_EQ(c.bench.reps, 50);
  EXPECT_EQ(c.bench.variant, "all");
}

TEST(Cli, Sweep) {
  Command c = parse({"sweep", "fountain", "--shapes", "8x8,16x16,256x1,1x256", "--csv", "o.csv"});
  EXPECT_EQ(c.kind, Command::Kind::Sweep);
  ASSERT_EQ(c.sweep.shapes.size(), 4u);
  EXPECT_EQ(c.sweep.shapes[2].x, 256);
  EXPECT_EQ(c.sweep.shapes[3].y, 256);
  EXPECT_EQ(*c.sweep.csv, "o.csv");
}

TEST(Cli, BadInputNamesTheProblem) {
  EXPECT_NE(usage_error({"--bogus"}).find("unknown flag '--bogus'"), std::string::npos);
  EXPECT_NE(usage_error({"--frames"}).find("needs a value"), std::string::npos);
  EXPECT_NE(usage_error({"--frames", "10", "--frames", "20"}).find("more than once"),
            std::string::npos);
  EXPECT_NE(usage_error({"--frames", "abc"}).find("not a whole number"), std::string::npos);
  EXPECT_NE(usage_error({"--frames", "0"}).find("out of range"), std::string::npos);
  EXPECT_NE(usage_error({"--n", "-5"}).find("out of range"), std::string::npos);
  EXPECT_NE(usage_error({"--n", "99999999999999999999999"}).find("out of range"),
            std::string::npos);
  EXPECT_NE(usage_error({"--n", "12abc"}).find("not a whole number"), std::string::npos);
  EXPECT_NE(usage_error({"--block", "64,32"}).find("1024"), std::string::npos);
  EXPECT_NE(usage_error({"--block", "0,4"}).find("at least 1"), std::string::npos);
  EXPECT_NE(usage_error({"--block", "1,1,65"}).find("64"), std::string::npos);
  EXPECT_NE(usage_error({"--block", "a"}).find("bad block shape"), std::string::npos);
  EXPECT_NE(usage_error({"--backend", "opencl"}).find("auto, cuda, cpu"), std::string::npos);
  EXPECT_NE(usage_error({"--scene", "tetris"}).find("tetris"), std::string::npos);
  EXPECT_NE(usage_error({"--size", "big"}).find("WxH"), std::string::npos);
  EXPECT_NE(usage_error({"stray"}).find("unexpected argument"), std::string::npos);
  EXPECT_NE(usage_error({"bench"}).find("name a scene or lab"), std::string::npos);
  EXPECT_NE(usage_error({"bench", "fountain", "--shapes", "8x8"}).find("unknown flag"),
            std::string::npos);
  EXPECT_NE(usage_error({"sweep", "fountain"}).find("--shapes is required"), std::string::npos);
  EXPECT_NE(usage_error({"sweep", "fountain", "--shapes", "8x8,,16x16"}).find("bad block shape"),
            std::string::npos);
  EXPECT_NE(usage_error({"bench", "fountain", "--reps", "0"}).find("out of range"),
            std::string::npos);
  EXPECT_NE(usage_error({"--screenshot="}).find("empty value"), std::string::npos);
}

// `bombcheckers selfplay` and `bombcheckers analyse` as a user runs them: their output, their
// exit codes, and their answers to bad flags.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/process.hpp"

namespace {

using namespace std::chrono_literals;

struct Ran {
  int code = -1;
  std::string out;
  std::string err;
};

Ran run(std::vector<std::string> args) {
  bc::test::Process p(std::move(args));
  Ran r;
  r.code = p.wait(120s);
  r.out = p.all_stdout();
  r.err = p.stderr_text();
  return r;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Selfplay, PrintsEveryGameAndTheScore) {
  const Ran r = run({"selfplay", "--variant", "classic", "--a", "2", "--b", "1", "--games", "2",
                     "--nodes", "300", "--max-turns", "30"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "game 1: A (level 2) plays black: ")) << r.out;
  EXPECT_TRUE(has(r.out, "game 2: A (level 2) plays white: ")) << r.out;
  EXPECT_TRUE(has(r.out, "A (level 2) vs B (level 1): +")) << r.out;
  EXPECT_TRUE(has(r.out, " in 2 games; score of A ")) << r.out;
}

TEST(Selfplay, RepeatedOptsAndQuiet) {
  const Ran r =
      run({"selfplay", "--variant", "kaboom", "--opt", "width=4", "--opt", "height=4", "--opt",
           "connect=3", "--a", "3", "--b", "1", "--games", "2", "--nodes", "500", "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(has(r.out, "game 1:")) << r.out;
  EXPECT_TRUE(has(r.out, "A (level 3) vs B (level 1): ")) << r.out;
}

TEST(Selfplay, TheSameSeedPlaysTheSameMatch) {
  const std::vector<std::string> args{"selfplay", "--variant",   "bomb",    "--a",    "2",
                                      "--b",      "2",           "--games", "2",      "--nodes",
                                      "200",      "--max-turns", "40",      "--seed", "9"};
  const Ran a = run(args);
  const Ran b = run(args);
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
}

TEST(Analyse, SearchesAPositionToTheGivenDepth) {
  const Ran r = run(
      {"analyse", "--variant", "bomb", "--fen", "fire:Bc3,a1:d4,d6,f6,f4,h8,a7", "--depth", "4"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "fire to move")) << r.out;
  EXPECT_TRUE(has(r.out, "depth  4  score ")) << r.out;
  EXPECT_TRUE(has(r.out, "best ")) << r.out;
}

TEST(Analyse, PlaysMovesFirstAndSolvesSmallKaboomBoards) {
  const Ran moved =
      run({"analyse", "--variant", "classic", "--moves", "c3-d4 f6-e5", "--nodes", "20000"});
  ASSERT_EQ(moved.code, 0) << moved.err;
  EXPECT_TRUE(has(moved.out, "best ")) << moved.out;
  const Ran solved = run({"analyse", "--variant", "kaboom", "--opt", "width=4", "--opt", "height=4",
                          "--opt", "connect=3", "--nodes", "50000"});
  ASSERT_EQ(solved.code, 0) << solved.err;
  EXPECT_TRUE(has(solved.out, "solved: ")) << solved.out;
}

TEST(Commands, HelpListsTheFlags) {
  const Ran s = run({"selfplay", "--help"});
  EXPECT_EQ(s.code, 0);
  EXPECT_TRUE(has(s.out, "--games N")) << s.out;
  const Ran a = run({"analyse", "--help"});
  EXPECT_EQ(a.code, 0);
  EXPECT_TRUE(has(a.out, "--fen TEXT")) << a.out;
}

TEST(Commands, BadFlagsAreRefusedWithTheReason) {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases{
      {{"selfplay", "--a", "9"}, "--a 9: levels are 1..8"},
      {{"selfplay", "--variant", "chess"}, "--variant chess: unknown variant"},
      {{"selfplay", "--games"}, "--games needs a value"},
      {{"selfplay", "--opt", "width"}, "--opt: wants name=value"},
      {{"selfplay", "--variant", "kaboom", "--opt", "width=99"}, "selfplay: "},
      {{"analyse", "--fen", "x:zz9:"}, "analyse: "},
      {{"analyse", "--variant", "classic", "--moves", "a1-b2"}, "analyse: "},
      {{"analyse", "--bogus"}, "unknown option '--bogus'"},
  };
  for (const auto& c : cases) {
    const Ran r = run(c.args);
    EXPECT_EQ(r.code, 2) << c.args.back();
    EXPECT_TRUE(has(r.err, c.says)) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

}  // namespace

// `bombcheckers selfplay`, `analyse`, `perft` and `replay` as a user runs them: their output, their
// exit codes, and their answers to bad flags.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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

Ran run(std::vector<std::string> args, std::vector<std::string> env = {}) {
  bc::test::Process p(std::move(args), std::move(env));
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

// 3x3 connect 3 with a bomb each: x wins in 15 by the middle column (ai/README.md's table).
TEST(SolveCommand, PrintsTheValueAndEveryFirstTurn) {
  const Ran r = run({"solve", "--variant", "kaboom", "--width", "3", "--height", "3", "--connect",
                     "3", "--bombs", "1"});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* line :
       {"kaboom 3x3, connect 3, 1 bomb each\n", "value: x wins in 15\n", "best: b\n",
        "turns:\n  a    x wins in 17\n  Ba   tie in 9\n  b    x wins in 15\n",
        "positions: ", "time: "})
    EXPECT_TRUE(has(r.out, line)) << line << "\n" << r.out;
  const Ran tie = run({"solve", "--width", "3", "--height", "3", "--connect", "3", "--bombs", "0"});
  ASSERT_EQ(tie.code, 0) << tie.err;
  // A tie says how far its end is (Gamesman's remoteness): here the board fills.
  EXPECT_TRUE(has(tie.out, "value: tie in 9\nbest: a b c\n")) << tie.out;
  // The rule options reach the game: 4x3 connect 3 is x's in 9 normally.
  const Ran misere =
      run({"solve", "--width", "4", "--height", "3", "--connect", "3", "--bombs", "0", "--misere"});
  ASSERT_EQ(misere.code, 0) << misere.err;
  EXPECT_TRUE(has(misere.out, "kaboom 4x3, connect 3, 0 bombs each, misere\nvalue: o wins in 11\n"))
      << misere.out;
  const Ran super = run(
      {"solve", "--width", "4", "--height", "3", "--connect", "3", "--bombs", "1", "--superbomb"});
  ASSERT_EQ(super.code, 0) << super.err;
  EXPECT_TRUE(has(super.out, "superbomb\nvalue: x wins in 15\n")) << super.out;  // 11 without
}

TEST(SolveCommand, OverBudgetExitsOne) {
  const Ran r = run({"solve", "--width", "4", "--height", "4", "--connect", "4", "--bombs", "1",
                     "--max-positions", "1000"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(has(r.err, "solve: over budget after ")) << r.err;
  EXPECT_FALSE(has(r.out, "value: ")) << r.out;
}

TEST(PerftCommand, CountsTheTreeDepthByDepth) {
  const Ran json = run({"perft", "--variant", "classic", "--depth", "3", "--json"});
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_TRUE(has(json.out, "{\"variant\":\"classic\",\"depth\":3,\"nodes\":[7,49,302],"))
      << json.out;
  const Ran table = run({"perft", "--depth=2"});  // classic by default
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_TRUE(has(table.out, "depth           leaves")) << table.out;
  EXPECT_TRUE(has(table.out, "    2               49 ")) << table.out;
}

TEST(ReplayCommand, ChecksARecordFile) {
  const auto file = std::filesystem::temp_directory_path() / "bc_app_test_record.json";
  std::ofstream(file) << R"({"variant":"classic","actions":[]})";
  const Ran r = run({"replay", "--pdn", file.string()});
  std::filesystem::remove(file);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, file.string() + ": classic, game 1, 0 actions, version 0")) << r.out;
  EXPECT_TRUE(has(r.out, "[Variant \"classic\"]")) << r.out;
}

TEST(ReplayCommand, TheDataDirectoryHasAnEnvironmentTwin) {
  const Ran env = run({"replay", "ABCDEF"}, {"BOMBCHECKERS_DATA_DIR=/nonexistent-bc-env"});
  EXPECT_EQ(env.code, 2);
  EXPECT_TRUE(has(env.err, "there is no store at /nonexistent-bc-env/bombcheckers.db")) << env.err;
  const Ran flag = run({"replay", "ABCDEF", "--data-dir", "/nonexistent-bc-flag"},
                       {"BOMBCHECKERS_DATA_DIR=/nonexistent-bc-env"});  // the flag wins
  EXPECT_EQ(flag.code, 2);
  EXPECT_TRUE(has(flag.err, "there is no store at /nonexistent-bc-flag/")) << flag.err;
}

TEST(Commands, HelpListsTheFlags) {
  const Ran s = run({"selfplay", "--help"});
  EXPECT_EQ(s.code, 0);
  EXPECT_TRUE(has(s.out, "--games N")) << s.out;
  const Ran a = run({"analyse", "--help"});
  EXPECT_EQ(a.code, 0);
  EXPECT_TRUE(has(a.out, "--fen TEXT")) << a.out;
  const Ran p = run({"perft", "--help"});
  EXPECT_EQ(p.code, 0);
  for (const char* flag : {"--variant V", "--depth N", "--json", "--help"})
    EXPECT_TRUE(has(p.out, flag)) << p.out;
  const Ran solve = run({"solve", "--help"});
  EXPECT_EQ(solve.code, 0);
  for (const char* flag :
       {"--width W", "--connect N", "--misere", "--superbomb", "--max-positions P", "--time-ms T"})
    EXPECT_TRUE(has(solve.out, flag)) << solve.out;
  const Ran r = run({"replay", "--help"});
  EXPECT_EQ(r.code, 0);
  for (const char* flag :
       {"FILE|ROOM", "--data-dir DIR", "env BOMBCHECKERS_DATA_DIR", "--game N", "--pdn", "--help"})
    EXPECT_TRUE(has(r.out, flag)) << r.out;
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
      {{"selfplay", "extra"}, "selfplay: unexpected argument 'extra'"},
      {{"perft", "--depth", "abc"}, "perft: --depth abc: wants a whole number from 1 to 30"},
      {{"perft", "--depth", "0"}, "perft: --depth 0: wants a whole number from 1 to 30"},
      {{"perft", "--depth", "31"}, "perft: --depth 31: wants a whole number from 1 to 30"},
      {{"perft", "--variant", "chess"}, "perft: --variant chess: unknown variant"},
      {{"perft", "--bogus"}, "perft: unknown option '--bogus'"},
      {{"perft", "--depth"}, "perft: --depth needs a value"},
      {{"perft", "8"}, "perft: unexpected argument '8'"},
      {{"replay"}, "replay: needs a record FILE or a ROOM id"},
      {{"replay", "--pdn"}, "replay: needs a record FILE or a ROOM id"},
      {{"replay", "ABCDEF", "GHIJKL"}, "replay: argument 'GHIJKL': only one FILE or ROOM"},
      {{"replay", "ABCDEF", "--game", "x"}, "replay: --game x: wants a game number"},
      {{"replay", "ABCDEF", "--game", "0"}, "replay: --game 0: wants a game number"},
      {{"replay", "ABCDEF", "--game"}, "replay: --game needs a value"},
      {{"replay", "ABCDEF", "--data-dir="}, "replay: --data-dir : empty path"},
      {{"replay", "--bogus"}, "replay: unknown option '--bogus'"},
      {{"replay", "no/such/file.json"}, "replay: 'no/such/file.json' is neither a file nor a room"},
      {{"replay", "ABCDEF", "--data-dir", "/nonexistent-bc"}, "replay: there is no store at "},
      {{"solve", "--variant", "classic"}, "solve: --variant: only kaboom can be solved"},
      {{"solve"}, "solve: 7x6 is over the solver's 24 cells"},
      {{"solve", "--width", "5", "--height", "5"}, "solve: 5x5 is over the solver's 24 cells"},
      {{"solve", "--width", "2"}, "solve: "},
      {{"solve", "--width", "x"}, "solve: --width x: wants a whole number"},
      {{"solve", "--max-positions", "0"}, "solve: --max-positions 0: wants 1..4000000000"},
  };
  for (const auto& c : cases) {
    const Ran r = run(c.args);
    EXPECT_EQ(r.code, 2) << c.args.back() << r.err;
    EXPECT_TRUE(has(r.err, c.says)) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

}  // namespace

// Position and turn text round trips, and the command-line tools' exit codes.
#include <random>
#include <string>
#include <vector>

#include "bc/ai_cli.hpp"
#include "test_helpers.hpp"

namespace bc::ai {
namespace {

TEST(Notation, PositionAndTurnsRoundTrip) {
  for (VariantId v : kAllVariants) {
    std::mt19937_64 rng(7);
    Game g = std::get<Game>(Game::create(v, default_options(v)));
    for (int i = 0; i < 30 && !g.over(); ++i) {
      const auto back = parse_position(v, g.options(), format_position(g));
      ASSERT_TRUE(std::holds_alternative<Game>(back)) << format_position(g);
      EXPECT_EQ(std::get<Game>(back).pieces(), g.pieces());
      EXPECT_EQ(std::get<Game>(back).turn(), g.turn());
      EXPECT_EQ(std::get<Game>(back).bombs_left(), g.bombs_left());
      const auto all = g.turns();
      for (const Turn& t : all) {
        const auto parsed = parse_turn(g, format_turn(t));
        ASSERT_TRUE(std::holds_alternative<Turn>(parsed)) << format_turn(t);
        EXPECT_EQ(std::get<Turn>(parsed), t);
      }
      g = *test::play(g, all[static_cast<std::size_t>(rng() % all.size())]);
    }
  }
}

TEST(Notation, ExamplesFromTheHeader) {
  const Game g = test::position(VariantId::Bomb, "fire:c3,Bd4,KSe5:Bf6,g7");
  ASSERT_EQ(g.pieces().size(), 5u);
  EXPECT_EQ(g.piece_at({4, 4})->rank, Rank::King);
  EXPECT_EQ(g.piece_at({4, 4})->kind, Kind::Shield);
  EXPECT_EQ(format_position(g), "fire:c3,Bd4,KSe5:Bf6,g7");
  EXPECT_TRUE(std::holds_alternative<std::string>(
      parse_position(VariantId::Bomb, default_options(VariantId::Bomb), "fire:c4:")));
  EXPECT_TRUE(std::holds_alternative<std::string>(
      parse_position(VariantId::Bomb, default_options(VariantId::Bomb), "nobody:c3:")));
  const auto played = play_turns(std::get<Game>(Game::create(VariantId::Classic, default_options(VariantId::Classic))),
                                 "c3-d4 f6-e5 d4xf6");
  ASSERT_TRUE(std::holds_alternative<Game>(played));
  EXPECT_EQ(format_score(kWin - 3), "win in 3");
  EXPECT_EQ(format_score(-125), "-1.25");
}

int run(int (*cmd)(std::span<const std::string_view>), std::vector<std::string_view> args) {
  return cmd(args);
}

TEST(Cli, SelfplaySmallMatch) {
  EXPECT_EQ(run(cli_selfplay, {"--variant", "kaboom", "--opt", "width=4", "--opt", "height=4",
                               "--opt", "connect=3", "--a", "3", "--b", "1", "--games", "2",
                               "--nodes", "500", "--quiet"}),
            0);
  EXPECT_EQ(run(cli_selfplay, {"--variant", "classic", "--a", "2", "--b", "1", "--games", "2",
                               "--nodes", "300", "--max-turns", "30"}),
            0);
}

TEST(Cli, AnalyseAPosition) {
  EXPECT_EQ(run(cli_analyse, {"--variant", "bomb", "--fen", "fire:Bc3,a1:d4,d6,f6,f4,h8,a7",
                              "--depth", "4"}),
            0);
  EXPECT_EQ(run(cli_analyse, {"--variant", "classic", "--moves", "c3-d4 f6-e5", "--nodes", "20000"}),
            0);
  EXPECT_EQ(run(cli_analyse, {"--variant", "kaboom", "--opt", "width=4", "--opt", "height=4",
                              "--opt", "connect=3", "--nodes", "50000"}),
            0);
}

TEST(Cli, HelpAndBadUsage) {
  EXPECT_EQ(run(cli_selfplay, {"--help"}), 0);
  EXPECT_EQ(run(cli_analyse, {"--help"}), 0);
  EXPECT_EQ(run(cli_selfplay, {"--a", "9"}), 2);
  EXPECT_EQ(run(cli_selfplay, {"--variant", "chess"}), 2);
  EXPECT_EQ(run(cli_analyse, {"--fen", "x:zz9:"}), 2);
  EXPECT_EQ(run(cli_analyse, {"--variant", "classic", "--moves", "a1-b2"}), 2);
  EXPECT_EQ(run(cli_analyse, {"--bogus"}), 2);
}

}  // namespace
}  // namespace bc::ai

// Position and turn text round trips, and the match helpers behind `bombcheckers selfplay`.
#include <random>
#include <string>
#include <vector>

#include "bc/ai_match.hpp"
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
  const auto played = play_turns(
      std::get<Game>(Game::create(VariantId::Classic, default_options(VariantId::Classic))),
      "c3-d4 f6-e5 d4xf6");
  ASSERT_TRUE(std::holds_alternative<Game>(played));
  EXPECT_EQ(format_score(kWin - 3), "win in 3");
  EXPECT_EQ(format_score(-125), "-1.25");
}

TEST(Match, OpeningsAreSeededAndStillPlaying) {
  for (VariantId v : kAllVariants) {
    const Game start = std::get<Game>(Game::create(v, default_options(v)));
    const Game a = random_opening(start, 4, 11);
    EXPECT_EQ(format_position(a), format_position(random_opening(start, 4, 11)));
    EXPECT_FALSE(a.over());
    EXPECT_NE(format_position(a), format_position(start));
  }
}

TEST(Match, AGameIsPlayedToItsEndOrTheTurnLimit) {
  const Game start =
      std::get<Game>(Game::create(VariantId::Classic, default_options(VariantId::Classic)));
  MatchSettings s;
  s.level_a = 2;
  s.level_b = 1;
  s.nodes = 200;
  s.max_turns = 12;
  const auto g = play_match_game(start, Side::First, s, 0);
  ASSERT_TRUE(g);
  EXPECT_LE(g->turns, 12);
  EXPECT_GT(g->nodes, 0u);
  if (g->turns == 12) {
    EXPECT_EQ(g->reason, "turn_limit");
  }
}

TEST(Match, ScoreMarginAndElo) {
  MatchScore even;
  even.wins = 5;
  even.losses = 5;
  const ScoreEstimate e = estimate(even);
  EXPECT_DOUBLE_EQ(e.score, 0.5);
  EXPECT_NEAR(e.elo, 0.0, 1e-9);
  EXPECT_GT(e.margin, 0.3);  // ten games say little
  EXPECT_LT(e.elo_low, 0.0);
  EXPECT_GT(e.elo_high, 0.0);
  MatchScore sweep;
  sweep.wins = 10;
  const ScoreEstimate w = estimate(sweep);
  EXPECT_DOUBLE_EQ(w.score, 1.0);
  EXPECT_DOUBLE_EQ(w.margin, 0.3);  // the rule of three: 3 / n
  EXPECT_GT(w.elo, 1000.0);
  EXPECT_DOUBLE_EQ(estimate(MatchScore{}).score, 0.0);  // no games: no division by zero
}

}  // namespace
}  // namespace bc::ai

// Every level plays only legal turns, in positions of every variant, mid-turn included.
#include <random>
#include <string>

#include "test_helpers.hpp"

namespace bc::ai {
namespace {

using test::node_limits;

struct VariantCase {
  VariantId variant;
  Options options;
  std::string name;
};

void PrintTo(const VariantCase& c, std::ostream* os) {
  *os << c.name;
}

std::vector<VariantCase> cases() {
  std::vector<VariantCase> out;
  for (VariantId v : kAllVariants)
    out.push_back({v, default_options(v), std::string(variant_key(v))});
  out.push_back({VariantId::Kaboom, test::kaboom_options(4, 4, 3, 1), "kaboom_4x4"});
  Options super = default_options(VariantId::Kaboom);
  super.superbomb = true;
  super.bombs = 2;
  out.push_back({VariantId::Kaboom, super, "kaboom_superbomb"});
  Options misere = test::kaboom_options(5, 4, 3, 1);
  misere.misere = true;
  out.push_back({VariantId::Kaboom, misere, "kaboom_misere"});
  // Wider than the 64-bit board representation: the evaluation's scalar path.
  out.push_back({VariantId::Kaboom, test::kaboom_options(10, 8, 5, 2), "kaboom_10x8"});
  return out;
}

class EveryLevel : public ::testing::TestWithParam<VariantCase> {};

// Random walks action by action (so bomb captures stop anywhere and leave the game mid-turn); at
// every few actions each level is asked for a turn, which must be one of Game::turns() and must
// play through Game::apply.
TEST_P(EveryLevel, PlaysOnlyLegalTurns) {
  const VariantCase& c = GetParam();
  std::mt19937_64 rng(12345);
  int asked = 0;
  int mid_turn = 0;
  const int walks = is_checkers(c.variant) ? 3 : 12;  // Kaboom games are short
  for (int walk = 0; walk < walks; ++walk) {
    Game g = std::get<Game>(Game::create(c.variant, c.options));
    for (int step = 0; step < 120 && !g.over(); ++step) {
      if (step % 9 == 4 || g.mid_turn()) {
        const int level = 1 + static_cast<int>(rng() % kMaxLevel);
        const SearchResult r = choose_turn(g, node_limits(level, 3000, rng()));
        ++asked;
        if (g.mid_turn()) ++mid_turn;
        ASSERT_TRUE(test::is_legal_turn(g, r.best))
            << c.name << " level " << level << " at " << format_position(g) << " chose "
            << format_turn(r.best);
        ASSERT_TRUE(test::play(g, r.best));
        ASSERT_FALSE(r.pv.empty());
        EXPECT_EQ(r.pv.front(), r.best);
      }
      const auto legal = g.legal();
      g = g.apply(legal[static_cast<std::size_t>(rng() % legal.size())])->next;
    }
  }
  EXPECT_GT(asked, is_checkers(c.variant) ? 20 : 10);
  if (c.variant == VariantId::Bomb) {
    EXPECT_GT(mid_turn, 0);
  }
}

// Each level on its own over the same positions, so no level is skipped by chance.
TEST_P(EveryLevel, EachLevelOverRandomPositions) {
  const VariantCase& c = GetParam();
  for (int level = kMinLevel; level <= kMaxLevel; ++level) {
    std::mt19937_64 rng(777);
    Game g = std::get<Game>(Game::create(c.variant, c.options));
    for (int turn = 0; turn < 40 && !g.over(); ++turn) {
      const auto all = g.turns();
      if (turn % 4 == 1) {
        const SearchResult r = choose_turn(g, node_limits(level, 1500, rng()));
        ASSERT_TRUE(test::is_legal_turn(g, r.best)) << c.name << " level " << level;
      }
      g = *test::play(g, all[static_cast<std::size_t>(rng() % all.size())]);
    }
  }
}

// Whole games between levels: the result is reached through legal turns only.
TEST_P(EveryLevel, GamesBetweenLevelsEnd) {
  const VariantCase& c = GetParam();
  Game g = std::get<Game>(Game::create(c.variant, c.options));
  int turns = 0;
  for (; turns < 400 && !g.over(); ++turns) {
    const int level = g.turn() == Side::First ? 3 : 6;
    const SearchResult r =
        choose_turn(g, node_limits(level, 800, static_cast<std::uint64_t>(turns)));
    const auto next = test::play(g, r.best);
    ASSERT_TRUE(next) << c.name << " at " << format_position(g);
    g = *next;
  }
  EXPECT_TRUE(g.over() || turns == 400);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, EveryLevel, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<VariantCase>& p) {
                           return p.param.name;
                         });

TEST(Search, MidTurnSearchesTheRestOfTheTurn) {
  // B5: after a1xc3 the fire piece may stop or go on over d4 to e5; going on wins a man.
  const Game start = test::position(VariantId::Bomb, "fire:a1:b2,d4,h8");
  const Game mid = start.apply(Action::jump({0, 0}, {2, 2}))->next;
  ASSERT_TRUE(mid.mid_turn());
  const SearchResult r = choose_turn(mid, node_limits(kMaxLevel, 50'000));
  EXPECT_EQ(format_turn(r.best), "c3xe5");
  const auto after = test::play(mid, r.best);
  ASSERT_TRUE(after);
  EXPECT_FALSE(after->mid_turn());
}

TEST(Search, OverGameGivesEmptyTurn) {
  const Game g =
      test::position(VariantId::Kaboom, "x:a1,b1,c1:a2,b2:0,0", test::kaboom_options(7, 6, 4, 0));
  const Game won = *test::play(g, Turn{{Action::drop(3, Kind::Normal)}});
  ASSERT_TRUE(won.over());
  const SearchResult r = choose_turn(won, node_limits(kMaxLevel, 1000));
  EXPECT_TRUE(r.best.actions.empty());
}

TEST(Search, StopFlagSetBeforehandStillGivesALegalTurn) {
  const Game g =
      std::get<Game>(Game::create(VariantId::Classic, default_options(VariantId::Classic)));
  std::atomic<bool> stop{true};
  SearchLimits limits;
  limits.level = kMaxLevel;
  limits.stop = &stop;
  const SearchResult r = choose_turn(g, limits);
  EXPECT_TRUE(test::is_legal_turn(g, r.best));
  EXPECT_LE(r.nodes, 2048u);
}

TEST(Search, LentTableIsReusedAcrossTurns) {
  TranspositionTable tt(4);
  Game g = std::get<Game>(Game::create(VariantId::Bomb, default_options(VariantId::Bomb)));
  for (int i = 0; i < 6 && !g.over(); ++i) {
    SearchLimits limits = node_limits(kMaxLevel, 20'000);
    limits.tt = &tt;
    const SearchResult r = choose_turn(g, limits);
    ASSERT_TRUE(test::is_legal_turn(g, r.best));
    g = *test::play(g, r.best);
  }
}

TEST(Search, DepthCapIsHonoured) {
  const Game g =
      std::get<Game>(Game::create(VariantId::Classic, default_options(VariantId::Classic)));
  SearchLimits limits = node_limits(kMaxLevel, 10'000'000);
  limits.depth = 5;
  const SearchResult r = choose_turn(g, limits);
  EXPECT_EQ(r.depth, 5);
}

}  // namespace
}  // namespace bc::ai

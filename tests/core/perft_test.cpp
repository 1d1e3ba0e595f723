// Perft (K5, T7): leaf counts of the tree of complete turns, and the fast path (perft,
// perft_leaves) against two slow paths: turns() recursively, and hop by hop through
// legal()/apply().
#include <random>

#include "../support/sanitizers.hpp"
#include "test_helpers.hpp"

namespace {

using namespace bct;

std::uint64_t by_turns(const Game& g, int depth) {
  if (depth == 0) return 1;
  std::uint64_t n = 0;
  for (const auto& t : g.turns()) {
    Game cur = g;
    for (const auto& a : t.actions) cur = play(cur, a).next;
    n += by_turns(cur, depth - 1);
  }
  return n;
}

std::uint64_t by_hops(const Game& g, int depth) {
  if (depth == 0) return 1;
  std::uint64_t n = 0;
  for (const auto& a : g.legal()) {
    Applied r = play(g, a);
    n += r.effects.turn_over ? by_hops(r.next, depth - 1) : by_hops(r.next, depth);
  }
  return n;
}

TEST(Perft, K5_ClassicStartDepths1To8) {
  const std::vector<std::uint64_t> expected{7, 49, 302, 1469, 7361, 36768, 179740, 845931};
  EXPECT_EQ(bc::perft(start(VariantId::Classic), 8), expected);
}

TEST(Perft, T7_TripleKingStartDepths1To7) {
  const std::vector<std::uint64_t> expected{7, 49, 302, 1469, 7361, 36473, 177532};
  EXPECT_EQ(bc::perft(start(VariantId::TripleKing), 7), expected);
}

// The deeper rows of K5 and T7 by bulk counting (perft_leaves, checked against perft above):
// 18 million leaves, well under a second in Release.
TEST(Perft, K5_ClassicStartDepths9And10) {
  const Game g = start(VariantId::Classic);
  EXPECT_EQ(bc::perft_leaves(g, 9), 3963680u);
  EXPECT_EQ(bc::perft_leaves(g, 10), 18391564u);
}

TEST(Perft, T7_TripleKingStartDepth8) {
  EXPECT_EQ(bc::perft_leaves(start(VariantId::TripleKing), 8), 828869u);
}

// Bomb perft from the start. B8's crowning of a bomb that steps onto the far row cannot happen
// this early (a bomb needs five steps through the opponent's ranks), so revision 1 gives the same
// counts; the position below is where the revisions part.
TEST(Perft, Bomb_StartDepths1To8) {
  const std::vector<std::uint64_t> expected{7, 49, 379, 2874, 23622, 189444, 1593759, 13147711};
  EXPECT_EQ(bc::perft(start(VariantId::Bomb), 8), expected);
}

// 1.05 billion leaves: 5 s in Release, 32 s under ASan with the core at -O2 (the test command's
// only run of it), too long under TSan, which the core's single thread does not need.
TEST(Perft, Bomb_StartDepths9And10) {
  if (bc::test::kTsan) GTEST_SKIP() << "run in the Release and ASan builds";
  const Game g = start(VariantId::Bomb);
  EXPECT_EQ(bc::perft_leaves(g, 9), 112119274u);
  EXPECT_EQ(bc::perft_leaves(g, 10), 941085447u);
}

Game bombs_near_far_row(int revision) {
  Options o = bc::default_options(VariantId::Bomb);
  o.rules = revision;
  return position(VariantId::Bomb, o,
                  {bomb(kFire, 2, 6), bomb(kFire, 5, 5), man(kFire, 1, 1), shield(kFire, 6, 2),
                   man(kFire, 3, 3), man(kWater, 7, 7), shield(kWater, 0, 6), bomb(kWater, 4, 4),
                   bomb(kWater, 2, 2), man(kWater, 6, 6), man(kWater, 1, 5)},
                  kFire);
}

// B8: bombs one step from the far row. Crowned (revision 2) they go on as king bombs; under
// revision 1 they blew up there, and the tree is smaller.
TEST(Perft, B8_BombsNearTheFarRow) {
  const Game g = bombs_near_far_row(bc::kRulesRevision);
  const std::vector<std::uint64_t> expected{7, 44, 321, 2201, 16101, 113591};
  EXPECT_EQ(bc::perft(g, 6), expected);
  for (int d = 1; d <= 4; ++d) {
    EXPECT_EQ(by_turns(g, d), expected[static_cast<std::size_t>(d - 1)]) << "depth " << d;
    EXPECT_EQ(by_hops(g, d), expected[static_cast<std::size_t>(d - 1)]) << "depth " << d;
  }
  const std::vector<std::uint64_t> revision1{7, 44, 303, 2076, 13513, 93338};
  EXPECT_EQ(bc::perft(bombs_near_far_row(1), 6), revision1);
}

TEST(Perft, K5_PerftLeavesMatchesPerft) {
  const Game g = start(VariantId::Classic);
  const auto nodes = bc::perft(g, 6);
  ASSERT_EQ(nodes.size(), 6u);
  for (int d = 1; d <= 6; ++d) {
    EXPECT_EQ(bc::perft_leaves(g, d), nodes[static_cast<std::size_t>(d - 1)]) << "depth " << d;
  }
}

TEST(Perft, T7_PerftLeavesMatchesPerft) {
  const Game g = start(VariantId::TripleKing);
  const auto nodes = bc::perft(g, 6);
  for (int d = 1; d <= 6; ++d) {
    EXPECT_EQ(bc::perft_leaves(g, d), nodes[static_cast<std::size_t>(d - 1)]) << "depth " << d;
  }
}

TEST(Perft, FastPathMatchesSlowPathsFromTheStart) {
  for (VariantId v : bc::kAllVariants) {
    SCOPED_TRACE(std::string(bc::variant_key(v)));
    const Game g = start(v);
    const int max_depth = v == VariantId::Kaboom ? 3 : 4;
    for (int d = 1; d <= max_depth; ++d) {
      const std::uint64_t fast = bc::perft_leaves(g, d);
      EXPECT_EQ(by_turns(g, d), fast) << "depth " << d;
      EXPECT_EQ(by_hops(g, d), fast) << "depth " << d;
    }
    const auto nodes = bc::perft(g, max_depth);
    ASSERT_EQ(nodes.size(), static_cast<std::size_t>(max_depth));
    for (int d = 1; d <= max_depth; ++d) {
      EXPECT_EQ(nodes[static_cast<std::size_t>(d - 1)], bc::perft_leaves(g, d)) << "depth " << d;
    }
  }
}

// Middle-game positions reached by seeded random play: captures, kings, bombs on the board.
TEST(Perft, FastPathMatchesSlowPathsInMiddleGames) {
  for (VariantId v : bc::kAllVariants) {
    SCOPED_TRACE(std::string(bc::variant_key(v)));
    std::mt19937 rng(99u + static_cast<unsigned>(v));
    const Options o = v == VariantId::Kaboom ? opts(v, {{"bombs", 3}}) : bc::default_options(v);
    int checked = 0;
    for (int game = 0; game < 40 && checked < 60; ++game) {
      Game g = start(v, o);
      int turn_no = 0;
      while (!g.over() && turn_no < 60) {
        if (!g.mid_turn() && turn_no % 7 == 3) {
          const int d = v == VariantId::Kaboom ? 2 : 3;
          const std::uint64_t fast = bc::perft_leaves(g, d);
          ASSERT_EQ(by_turns(g, d), fast) << "game " << game << " turn " << turn_no;
          ASSERT_EQ(by_hops(g, d), fast) << "game " << game << " turn " << turn_no;
          ++checked;
        }
        auto legal = g.legal();
        Applied r =
            play(g, legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)]);
        if (r.effects.turn_over) ++turn_no;
        g = r.next;
      }
    }
    EXPECT_GT(checked, 20);
  }
}

TEST(Perft, SpecialPositions) {
  // Bomb: optional continuation counts each stopping point as its own turn (B5).
  Game b = position(
      VariantId::Bomb,
      {man(kFire, 1, 1), man(kFire, 6, 0), man(kWater, 2, 2), man(kWater, 4, 4), man(kWater, 7, 7)},
      kFire);
  EXPECT_EQ(bc::perft_leaves(b, 1), 5u);
  EXPECT_EQ(bc::perft_leaves(b, 2), by_turns(b, 2));
  // Classic: two paths taking the same pieces count twice (K5).
  Game k = position(VariantId::Classic,
                    {king(kBlack, 2, 2), man(kWhite, 3, 3), man(kWhite, 5, 5), man(kWhite, 3, 5),
                     man(kWhite, 1, 5)},
                    kBlack);
  // [2,2]x[3,3]->[4,4], then x[5,5]->[6,6] or x[3,5]->[2,6] (then x[1,5]->[0,4]).
  EXPECT_EQ(bc::perft_leaves(k, 1), by_turns(k, 1));
  EXPECT_EQ(bc::perft(k, 1), std::vector<std::uint64_t>{by_turns(k, 1)});
  // K5: a king that takes the same four men round the ring clockwise or anticlockwise, ending on
  // its own square: two paths, the same captures, two leaves.
  Game ring = position(VariantId::Classic,
                       {king(kBlack, 2, 0), man(kWhite, 3, 1), man(kWhite, 3, 3), man(kWhite, 1, 3),
                        man(kWhite, 1, 1)},
                       kBlack);
  const auto ring_turns = ring.turns();
  ASSERT_EQ(ring_turns.size(), 2u);
  EXPECT_EQ(ring_turns[0].actions.size(), 4u);
  EXPECT_EQ(ring_turns[1].actions.size(), 4u);
  EXPECT_NE(ring_turns[0].actions, ring_turns[1].actions);
  EXPECT_EQ(bc::perft_leaves(ring, 1), 2u);
  EXPECT_EQ(by_hops(ring, 1), 2u);
  // Triple king: a double capture is one hop.
  Game t = position(VariantId::TripleKing,
                    {triple(kBlack, 0, 0), man(kWhite, 2, 2), man(kWhite, 3, 3), man(kWhite, 0, 6)},
                    kBlack);
  EXPECT_EQ(bc::perft_leaves(t, 1), 4u);
  // A finished game has no leaves.
  Game over = start(VariantId::Classic).resigned(Side::First);
  EXPECT_EQ(bc::perft_leaves(over, 1), 0u);
  EXPECT_EQ(bc::perft(over, 2), (std::vector<std::uint64_t>{0, 0}));
}

}  // namespace

// Tactics: positions with a forced gain, found by the search at the expected depth.
#include <algorithm>
#include <string>
#include <vector>

#include "test_helpers.hpp"

namespace bc::ai {
namespace {

using test::node_limits;
using test::play;
using test::position;

struct Found {
  SearchResult result;
  int first_depth = 0;  // first iteration from which the PV always started with the expected turn
};

Found search_for(const Game& g, const std::string& expected, std::uint64_t nodes,
                 int max_depth = 64) {
  Found f;
  SearchLimits limits = node_limits(kMaxLevel, nodes);
  limits.depth = max_depth;
  limits.on_iteration = [&](const IterationInfo& info) {
    const bool hit = !info.pv.empty() && format_turn(info.pv.front()) == expected;
    if (!hit) {
      f.first_depth = 0;
    } else if (f.first_depth == 0) {
      f.first_depth = info.depth;
    }
  };
  f.result = choose_turn(g, limits);
  return f;
}

int count(const Game& g, Side s) {
  const auto p = g.pieces();
  return static_cast<int>(
      std::count_if(p.begin(), p.end(), [&](const Piece& x) { return x.side == s; }));
}

// RULES.md B7: a bomb jumping d4 lands on e5 next to three more water pieces: four for one.
TEST(Tactics, Bomb_BombJumpBlowsUpThreeEnemyPieces) {
  const Game g = position(VariantId::Bomb, "fire:Bc3,a1,c1,e1,g1:d4,d6,f6,f4,h8,b8");
  const Found f = search_for(g, "c3xe5", 200'000);
  EXPECT_EQ(format_turn(f.result.best), "c3xe5");
  EXPECT_EQ(f.first_depth, 1);
  const auto after = play(g, f.result.best);
  ASSERT_TRUE(after);
  EXPECT_EQ(count(*after, Side::Second), 2);  // d4 captured, d6 f6 f4 blown up
  EXPECT_EQ(count(*after, Side::First), 4);   // the bomb is gone too
  EXPECT_GE(f.result.score, 150);             // from a man down to two men up
}

// B7 the other way: the same jump would blow up three of fire's own men for one water man.
TEST(Tactics, Bomb_NoSelfDestructiveExplosion) {
  const Game g = position(VariantId::Bomb, "fire:Bc3,b2,d6,f6,f4:d4,h8,b8");
  const SearchResult r = choose_turn(g, node_limits(kMaxLevel, 200'000));
  EXPECT_NE(format_turn(r.best), "c3xe5");
}

// B7: shields survive explosions, so a bomb shot next to enemy shields gains less than one next
// to normal pieces; with both available the search takes the one that destroys normals.
TEST(Tactics, Bomb_PrefersBlastOfNormalsOverShields) {
  // Left shot c3xa5 lands next to the shield b6; right shot e3xg5 next to the normals f6, h6.
  const Game g = position(VariantId::Bomb, "fire:Bc3,Be3,a1,c1,e1,g1:b4,Sb6,f4,f6,h6,Sc7,h8");
  const Found f = search_for(g, "e3xg5", 200'000);
  EXPECT_EQ(format_turn(f.result.best), "e3xg5");
  EXPECT_EQ(f.first_depth, 1);
}

// B8: a bomb that steps onto the far row is crowned, and the evaluation values the king bomb above
// the bomb: one ply deep, crowning is the best turn (deeper, fire wins whatever it plays here).
TEST(Tactics, Bomb_B8_StepsABombOntoTheFarRowToCrownIt) {
  const Game g = position(VariantId::Bomb, "fire:Bc7,a1:h2");
  const Found f = search_for(g, "c7-b8", 50'000, 1);
  const std::string best = format_turn(f.result.best);
  EXPECT_TRUE(best == "c7-b8" || best == "c7-d8") << best;
  const auto after = play(g, f.result.best);
  ASSERT_TRUE(after);
  const auto crowned = after->piece_at(f.result.best.actions[0].to);
  ASSERT_TRUE(crowned);
  EXPECT_EQ(crowned->kind, Kind::Bomb);
  EXPECT_EQ(crowned->rank, Rank::King);
}

// B8 with B3 and B7: a king bomb captures backwards, and its blast takes the last water piece.
TEST(Tactics, Bomb_B8_KingBombCapturesBackwardsForTheWin) {
  const Game g = position(VariantId::Bomb, "fire:KBd6,a1:c5,a5");
  const Found f = search_for(g, "d6xb4", 50'000);
  EXPECT_EQ(format_turn(f.result.best), "d6xb4");
  EXPECT_EQ(f.first_depth, 1);
  EXPECT_EQ(f.result.score, kWin - 1);
  const auto after = play(g, f.result.best);
  ASSERT_TRUE(after && after->over());
  EXPECT_EQ(after->result()->winner, Side::First);
}

// Classic K2/K3: c3-d4 gives a man; white must take e5xc3, and b2xd4xb6 takes two back.
TEST(Tactics, Classic_TwoForOneShot) {
  const Game g = position(VariantId::Classic, "black:a1,b2,c3,e3:c5,e5,g7,h8");
  const Found f = search_for(g, "c3-d4", 500'000);
  EXPECT_EQ(format_turn(f.result.best), "c3-d4");
  EXPECT_GE(f.first_depth, 1);
  EXPECT_LE(f.first_depth, 3);
  ASSERT_GE(f.result.pv.size(), 3u);
  EXPECT_EQ(format_turn(f.result.pv[1]), "e5xc3");
  EXPECT_EQ(format_turn(f.result.pv[2]), "b2xd4xb6");
  Game line = g;
  for (int i = 0; i < 3; ++i) {
    auto next = play(line, f.result.pv[static_cast<std::size_t>(i)]);
    ASSERT_TRUE(next);
    line = *next;
  }
  EXPECT_EQ(count(line, Side::First), 3);
  EXPECT_EQ(count(line, Side::Second), 2);
}

// T3: a flying king takes a loose man from afar; the search sees the capture is compulsory and
// picks the landing square from which white cannot recapture.
TEST(Tactics, TripleKing_FlyingCaptureLandsSafely) {
  const Game g = position(VariantId::TripleKing, "black:Ka1,h2:e5,h8,f8");
  const SearchResult r = choose_turn(g, node_limits(kMaxLevel, 200'000));
  EXPECT_EQ(format_turn(r.best), "a1xf6");  // a1xg7 would be taken back by h8 or f8
  const auto after = play(g, r.best);
  ASSERT_TRUE(after);
  EXPECT_EQ(count(*after, Side::Second), 2);
  EXPECT_GT(r.score, 0);
}

// C6: a won king endgame must be converted before the no-progress rule draws it.
TEST(Endgame, Classic_TwoKingsBeatOne) {
  for (const char* text : {"black:Kc3,Ke3:Kf6", "black:Ka1,Kh2:Kd6", "white:Kb2:Kd6,Kf4"}) {
    Game g = position(VariantId::Classic, text);
    const Side strong = count(g, Side::First) == 2 ? Side::First : Side::Second;
    int turns = 0;
    for (; turns < 160 && !g.over(); ++turns) {
      const auto r =
          choose_turn(g, node_limits(kMaxLevel, 20'000, static_cast<std::uint64_t>(turns)));
      g = *play(g, r.best);
    }
    ASSERT_TRUE(g.over()) << text;
    EXPECT_EQ(g.result()->winner, strong) << text << " after " << turns << " turns";
  }
}

// X4: x completes four in a row on d1.
TEST(Tactics, Kaboom_ImmediateWin) {
  const Game g =
      position(VariantId::Kaboom, "x:a1,b1,c1:a2,b2,g1:1,1", test::kaboom_options(7, 6, 4, 1));
  const SearchResult r = choose_turn(g, node_limits(kMaxLevel, 100'000));
  ASSERT_EQ(r.best.actions.size(), 1u);
  EXPECT_EQ(r.best.actions[0].kind, ActionKind::Drop);
  EXPECT_EQ(r.best.actions[0].column, 3);
  EXPECT_EQ(r.score, kWin - 1);
  const auto after = play(g, r.best);
  ASSERT_TRUE(after && after->over());
  EXPECT_EQ(after->result()->winner, Side::First);
}

// o threatens d1; every other reply loses at once.
TEST(Tactics, Kaboom_BlocksImmediateWin) {
  const Game g =
      position(VariantId::Kaboom, "x:a2,b2,f1:a1,b1,c1:1,1", test::kaboom_options(7, 6, 4, 1));
  const SearchResult r = choose_turn(g, node_limits(kMaxLevel, 100'000));
  ASSERT_EQ(r.best.actions.size(), 1u);
  EXPECT_EQ(r.best.actions[0].kind, ActionKind::Drop);
  EXPECT_EQ(r.best.actions[0].column, 3);
  EXPECT_FALSE(is_decisive(r.score) && r.score < 0);
}

// X3: detonating the bomb on f1 removes o's e1 (and g1); x's e2 falls to e1: b1-e1 is a line.
TEST(Tactics, Kaboom_WinningDetonation) {
  const Game g = position(VariantId::Kaboom, "x:b1,c1,d1,Bf1,e2:a1,e1,g1,a2:0,1",
                          test::kaboom_options(7, 6, 4, 1));
  const Found f = search_for(g, "*f1", 100'000);
  EXPECT_EQ(format_turn(f.result.best), "*f1");
  EXPECT_EQ(f.first_depth, 1);
  EXPECT_EQ(f.result.score, kWin - 1);
  const auto after = play(g, f.result.best);
  ASSERT_TRUE(after && after->over());
  EXPECT_EQ(after->result()->winner, Side::First);
}

// Two threats at once (d1 and a double on the same row) cannot both be blocked: x sets it up.
TEST(Tactics, Kaboom_DoubleThreatWinsInThree) {
  // Plain connect four (no bombs): x to play c1 makes b1-c1-d1 open at both a1 and e1.
  const Game g = position(VariantId::Kaboom, "x:b1,d1:b2,d2", test::kaboom_options(7, 6, 4, 0));
  const Found f = search_for(g, "c", 200'000);
  EXPECT_EQ(format_turn(f.result.best), "c");
  EXPECT_EQ(f.result.score, kWin - 3);
  EXPECT_LE(f.first_depth, 3);
}

// Small boards are played by the exact solver: the move keeps the proven win.
TEST(Tactics, Kaboom_SmallBoardPlayedPerfectly) {
  const Game g = std::get<Game>(Game::create(VariantId::Kaboom, test::kaboom_options(4, 4, 3, 1)));
  const SearchResult r = choose_turn(g, node_limits(kMaxLevel, 4'000'000));
  ASSERT_TRUE(r.solved);
  const auto root = solve_kaboom(g);
  ASSERT_TRUE(root);
  ASSERT_EQ(root->outcome, Outcome::Win);
  EXPECT_EQ(r.score, kWin - root->turns);
  const auto after = play(g, r.best);
  ASSERT_TRUE(after);
  const auto reply = solve_kaboom(*after);
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->outcome, Outcome::Loss);
  EXPECT_EQ(reply->turns, root->turns - 1);
}

}  // namespace
}  // namespace bc::ai

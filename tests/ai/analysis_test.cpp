// analyse_position / analyse_positions: exact Kaboom values against a plain minimax written here
// (Game::legal/apply only: no memo, no pruning), and the estimates' promises in checkers (every
// turn once, proven ends, finished games, mid-turn positions, the time cap, a game's history).
#include <algorithm>
#include <atomic>
#include <bc/ai_analysis.hpp>
#include <chrono>
#include <cstdlib>
#include <random>
#include <vector>

#include "test_helpers.hpp"

namespace bc::ai {
namespace {

using namespace std::chrono_literals;

// A value as one number, better the larger, as Gamesman orders them: a win in r turns is
// 2000 - r (sooner is better), a tie in r 1000 - r (its nearest drawn end), a loss in r just r
// (later is better).
int code(Outcome o, int remoteness) {
  return o == Outcome::Win    ? 2000 - remoteness
         : o == Outcome::Draw ? 1000 - remoteness
                              : remoteness;
}

// The value for the mover of a turn to a position whose own value (for its side to move) is `c`:
// the other side's outcome, one turn further.
int one_turn_before(int c) {
  if (c > 1000) return 2000 - c + 1;  // they win in r: we lose in r + 1
  if (c > 500) return c - 1;          // a tie in r: a tie in r + 1
  return 2000 - (c + 1);              // they lose in r: we win in r + 1
}

// A finished game's value for the mover of the turn that finished it.
int ending(const Game& over, Side mover) {
  const auto& w = over.result()->winner;
  return !w ? code(Outcome::Draw, 1) : *w == mover ? code(Outcome::Win, 1) : code(Outcome::Loss, 1);
}

// The value of a position for its side to move, by plain recursion over every action.
int minimax(const Game& g) {
  int best = -1;
  for (const Action& a : g.legal()) {
    const Game next = g.apply(a)->next;
    best = std::max(best, next.over() ? ending(next, g.turn()) : one_turn_before(minimax(next)));
  }
  return best;
}

// A turn's value for its mover by the minimax: the position after it, one turn further.
int minimax_turn(const Game& g, const Turn& t) {
  const auto next = test::play(g, t);
  EXPECT_TRUE(next);
  return next->over() ? ending(*next, g.turn()) : one_turn_before(minimax(*next));
}

struct Board {
  int w, h, n, bombs;
  bool misere = false;
  bool superbomb = false;
  int skip = 0;  // random turns before the first position checked (the start's tree is too big)
};

Game kaboom(const Board& b) {
  Options o = test::kaboom_options(b.w, b.h, b.n, b.bombs);
  o.misere = b.misere;
  o.superbomb = b.superbomb;
  return std::get<Game>(Game::create(VariantId::Kaboom, o));
}

// Every turn's exact value and the position's (the best of them) agree with the minimax, which
// gives the position's value.
int expect_exact(const Game& g, const Analysis& a) {
  EXPECT_TRUE(a.value.exact) << format_position(g);
  EXPECT_TRUE(a.value.outcome) << format_position(g);
  const auto turns = g.turns();
  EXPECT_EQ(a.turns.size(), turns.size()) << format_position(g);
  int best = -1;
  for (std::size_t i = 0; i < std::min(turns.size(), a.turns.size()); ++i) {
    const TurnValue& tv = a.turns[i];
    EXPECT_EQ(tv.turn, turns[i]);
    EXPECT_TRUE(tv.value.exact);
    const int expected = minimax_turn(g, turns[i]);
    best = std::max(best, expected);
    if (!tv.value.outcome) {
      ADD_FAILURE() << "no outcome: " << format_position(g) << " turn " << format_turn(tv.turn);
      continue;
    }
    EXPECT_EQ(code(*tv.value.outcome, tv.value.remoteness), expected)
        << format_position(g) << " turn " << format_turn(tv.turn);
  }
  if (a.value.outcome) {
    EXPECT_EQ(code(*a.value.outcome, a.value.remoteness), best) << format_position(g);
  }
  return best;
}

class AnalysisExact : public ::testing::TestWithParam<Board> {};

TEST_P(AnalysisExact, AgreesWithPlainMinimax) {
  const Board b = GetParam();
  std::mt19937_64 rng(77);
  AnalysisLimits limits;
  limits.time = 60s;  // never reached: these boards solve in milliseconds
  int checked = 0;
  for (int walk = 0; walk < 3; ++walk) {
    Game g = kaboom(b);
    int played = 0;
    while (!g.over()) {
      if (played >= b.skip) {
        const int value = expect_exact(g, analyse_position(g, limits));
        AnalysisLimits alone = limits;
        alone.turns = false;
        const Analysis v = analyse_position(g, alone);
        EXPECT_TRUE(v.turns.empty());
        EXPECT_TRUE(v.value.exact);
        ASSERT_TRUE(v.value.outcome);
        EXPECT_EQ(code(*v.value.outcome, v.value.remoteness), value) << format_position(g);
        ++checked;
      }
      const auto legal = g.legal();
      g = g.apply(legal[static_cast<std::size_t>(rng() % legal.size())])->next;
      ++played;
    }
    const Analysis over = analyse_position(g, limits);
    EXPECT_TRUE(over.turns.empty());
    EXPECT_TRUE(over.value.exact);
    EXPECT_EQ(over.value.remoteness, 0);
  }
  EXPECT_GT(checked, 5);
}

INSTANTIATE_TEST_SUITE_P(TinyBoards, AnalysisExact,
                         ::testing::Values(Board{3, 3, 3, 0}, Board{3, 3, 3, 1, false, false, 4},
                                           Board{3, 3, 3, 1, true, false, 4},
                                           Board{3, 3, 3, 1, false, true, 4}, Board{4, 3, 3, 0},
                                           Board{3, 3, 3, 0, true},
                                           Board{4, 3, 3, 1, true, true, 8}),
                         [](const ::testing::TestParamInfo<Board>& p) {
                           const Board& b = p.param;
                           return std::to_string(b.w) + "x" + std::to_string(b.h) + "c" +
                                  std::to_string(b.n) + "b" + std::to_string(b.bombs) +
                                  (b.misere ? "_misere" : "") + (b.superbomb ? "_super" : "");
                         });

// A game's history on a tiny board: every position exact and equal to the minimax, from its own
// side to move's point of view; the finished last position has remoteness 0.
TEST(AnalysePositions, KaboomHistoryIsExact) {
  std::mt19937_64 rng(5);
  Game g = kaboom(Board{3, 3, 3, 0});
  std::vector<Game> history{g};
  while (!g.over()) {
    const auto legal = g.legal();
    g = g.apply(legal[static_cast<std::size_t>(rng() % legal.size())])->next;
    history.push_back(g);
  }
  AnalysisLimits limits;
  limits.time = 60s;
  const std::vector<Value> values = analyse_positions(history, limits);
  ASSERT_EQ(values.size(), history.size());
  for (std::size_t i = 0; i + 1 < history.size(); ++i) {
    EXPECT_TRUE(values[i].exact) << i;
    ASSERT_TRUE(values[i].outcome) << i;
    EXPECT_EQ(code(*values[i].outcome, values[i].remoteness), minimax(history[i])) << i;
  }
  EXPECT_TRUE(values.back().exact);
  EXPECT_EQ(values.back().remoteness, 0);
  const auto& winner = history.back().result()->winner;
  EXPECT_EQ(values.back().outcome, !winner                            ? Outcome::Draw
                                   : *winner == history.back().turn() ? Outcome::Win
                                                                      : Outcome::Loss);
}

// The solver over its budget: estimates for every turn instead, all to the same depth.
TEST(AnalysePosition, KaboomOverTheSolversBudgetIsEstimated) {
  const Game g = kaboom(Board{5, 4, 4, 1});
  AnalysisLimits limits;
  limits.time = 300ms;
  limits.max_positions = 1000;
  const Analysis a = analyse_position(g, limits);
  EXPECT_FALSE(a.value.exact);
  EXPECT_FALSE(a.value.outcome);
  ASSERT_EQ(a.turns.size(), g.turns().size());
  for (const TurnValue& t : a.turns) {
    EXPECT_FALSE(t.value.exact);
    EXPECT_GE(t.value.depth, 2) << format_turn(t.turn);
    EXPECT_EQ(t.value.depth, a.turns[0].value.depth) << format_turn(t.turn);
  }
  limits.exact_only = true;
  const Analysis none = analyse_position(g, limits);
  EXPECT_FALSE(none.value.exact);
  EXPECT_TRUE(none.turns.empty());
}

// Bigger boards are estimated; a proven end shows as an outcome. o must block both ends of x's
// three in a row and cannot: every turn loses in 2 (x wins at once after it).
TEST(AnalysePosition, KaboomProvenLossIsAnEstimateWithItsOutcome) {
  const Game g =
      test::position(VariantId::Kaboom, "o:b1,c1,d1:b2,c2:0,0", test::kaboom_options(7, 6, 4, 0));
  AnalysisLimits limits;
  limits.time = 60s;  // not used up: once every turn is proven the search stops
  const auto start = std::chrono::steady_clock::now();
  const Analysis a = analyse_position(g, limits);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s) << "every turn proven: no more depth";
  ASSERT_EQ(a.turns.size(), 7u);
  for (const TurnValue& t : a.turns) {
    EXPECT_FALSE(t.value.exact);
    EXPECT_EQ(t.value.outcome, Outcome::Loss) << format_turn(t.turn);
    EXPECT_EQ(t.value.remoteness, 2) << format_turn(t.turn);
    EXPECT_EQ(t.value.score, -(kWin - 2)) << format_turn(t.turn);
  }
  EXPECT_FALSE(a.value.exact);
  EXPECT_EQ(a.value.outcome, Outcome::Loss);
  EXPECT_EQ(a.value.remoteness, 2);
}

// Every complete turn once, in Game::turns() order, all searched to one depth.
void expect_every_turn_once(const Game& g, const Analysis& a) {
  const auto turns = g.turns();
  ASSERT_EQ(a.turns.size(), turns.size()) << format_position(g);
  for (std::size_t i = 0; i < turns.size(); ++i) {
    EXPECT_EQ(a.turns[i].turn, turns[i]);
    for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(a.turns[i].turn == a.turns[j].turn);
  }
}

TEST(AnalysePosition, CheckersStartListsEveryTurnAtOneDepth) {
  for (VariantId v : {VariantId::Bomb, VariantId::Classic, VariantId::TripleKing}) {
    const Game g = std::get<Game>(Game::create(v, default_options(v)));
    AnalysisLimits limits;
    limits.time = 300ms;
    const Analysis a = analyse_position(g, limits);
    expect_every_turn_once(g, a);
    int best = -kWin;
    for (const TurnValue& t : a.turns) {
      EXPECT_FALSE(t.value.exact);
      EXPECT_FALSE(t.value.outcome);
      EXPECT_GE(t.value.depth, 3) << variant_key(v);
      EXPECT_EQ(t.value.depth, a.turns[0].value.depth) << variant_key(v);
      best = std::max(best, t.value.score);
    }
    EXPECT_FALSE(a.value.exact);
    EXPECT_EQ(a.value.score, best);
    EXPECT_EQ(a.value.depth, a.turns[0].value.depth);
    EXPECT_GT(a.work, 0u);
  }
}

// B5's optional stops: stopping after the first hop and going on are separate turns.
TEST(AnalysePosition, BombTurnsIncludeEveryStoppingPoint) {
  const Game g = test::position(VariantId::Bomb, "fire:a1,g1:b2,d4,h8");
  AnalysisLimits limits;
  limits.time = 200ms;
  const Analysis a = analyse_position(g, limits);
  expect_every_turn_once(g, a);
  const Turn stop{{Action::jump({0, 0}, {2, 2}), Action::end_turn()}};
  const Turn on{{Action::jump({0, 0}, {2, 2}), Action::jump({2, 2}, {4, 4})}};
  for (const Turn& t : {stop, on}) {
    EXPECT_EQ(std::count_if(a.turns.begin(), a.turns.end(),
                            [&](const TurnValue& x) { return x.turn == t; }),
              1)
        << format_turn(t);
  }
}

// The capture that takes the last piece wins at once: exact, remoteness 1, and the position too.
TEST(AnalysePosition, OneTurnFromAWin) {
  const Game g = test::position(VariantId::Bomb, "fire:c3,a1:d4");
  AnalysisLimits limits;
  limits.time = 200ms;
  const Analysis a = analyse_position(g, limits);
  expect_every_turn_once(g, a);
  int wins = 0;
  for (const TurnValue& t : a.turns) {
    if (format_turn(t.turn) != "c3xe5") {
      EXPECT_FALSE(t.value.exact) << format_turn(t.turn);
      continue;
    }
    ++wins;
    EXPECT_TRUE(t.value.exact);
    EXPECT_EQ(t.value.outcome, Outcome::Win);
    EXPECT_EQ(t.value.remoteness, 1);
  }
  EXPECT_EQ(wins, 1);
  EXPECT_TRUE(a.value.exact);
  EXPECT_EQ(a.value.outcome, Outcome::Win);
  EXPECT_EQ(a.value.remoteness, 1);
}

TEST(AnalysePosition, FinishedGameHasRemotenessZeroAndNoTurns) {
  const Game g = test::position(VariantId::Bomb, "fire:c3,a1:d4");
  const Game over = *test::play(g, Turn{{Action::jump({2, 2}, {4, 4})}});
  ASSERT_TRUE(over.over());
  for (bool turns : {true, false}) {
    AnalysisLimits limits;
    limits.turns = turns;
    const Analysis a = analyse_position(over, limits);
    EXPECT_TRUE(a.turns.empty());
    EXPECT_TRUE(a.value.exact);
    EXPECT_EQ(a.value.outcome, Outcome::Loss) << "water, to move, has no pieces";
    EXPECT_EQ(a.value.remoteness, 0);
  }
}

// Mid-turn: the rest of the turn, for the side in the middle of it.
TEST(AnalysePosition, MidTurnListsTheRestOfTheTurn) {
  const Game start = test::position(VariantId::Bomb, "fire:a1:b2,d4,h8");
  const Game mid = start.apply(Action::jump({0, 0}, {2, 2}))->next;
  ASSERT_TRUE(mid.mid_turn());
  AnalysisLimits limits;
  limits.time = 300ms;
  const Analysis a = analyse_position(mid, limits);
  expect_every_turn_once(mid, a);
  ASSERT_EQ(a.turns.size(), 2u);
  const auto on = std::find_if(a.turns.begin(), a.turns.end(),
                               [](const TurnValue& t) { return format_turn(t.turn) == "c3xe5"; });
  ASSERT_NE(on, a.turns.end());
  EXPECT_EQ(a.value, on->value) << "going on wins a man";
}

TEST(AnalysePosition, PositionValueAloneIsOneSearch) {
  const Game g =
      std::get<Game>(Game::create(VariantId::Classic, default_options(VariantId::Classic)));
  AnalysisLimits limits;
  limits.time = 200ms;
  limits.turns = false;
  const Analysis a = analyse_position(g, limits);
  EXPECT_TRUE(a.turns.empty());
  EXPECT_FALSE(a.value.exact);
  EXPECT_GE(a.value.depth, 3);
  EXPECT_GT(a.work, 0u);
}

// The cap holds (bounds generous: no timing assertions that a loaded machine could break).
TEST(AnalysePosition, TimeCapAndStopAreRespected) {
  const Game checkers =
      std::get<Game>(Game::create(VariantId::Bomb, default_options(VariantId::Bomb)));
  const Game big =
      std::get<Game>(Game::create(VariantId::Kaboom, default_options(VariantId::Kaboom)));
  const Game small = kaboom(Board{5, 4, 4, 1});  // the solver needs over a minute
  for (const Game* g : {&checkers, &big, &small}) {
    AnalysisLimits limits;
    limits.time = 1s;
    const auto start = std::chrono::steady_clock::now();
    const Analysis a = analyse_position(*g, limits);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s) << format_position(*g);
    EXPECT_EQ(a.turns.size(), g->turns().size());
    EXPECT_GE(a.value.depth, 2) << format_position(*g);
  }
  std::atomic<bool> stop{true};
  AnalysisLimits stopped;
  stopped.time = 60s;
  stopped.stop = &stop;
  for (const Game* g : {&checkers, &small}) {
    const auto start = std::chrono::steady_clock::now();
    const Analysis a = analyse_position(*g, stopped);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
    ASSERT_EQ(a.turns.size(), g->turns().size()) << "static values still";
    for (const TurnValue& t : a.turns) EXPECT_EQ(t.value.depth, 1);
    const std::vector<Value> values = analyse_positions({*g, *g}, stopped);
    ASSERT_EQ(values.size(), 2u);
    EXPECT_EQ(values[0].depth, 0);
    EXPECT_FALSE(values[0].exact);
  }
}

// A short checkers game: one value per position (hops included), each from its side to move's
// point of view, within the one cap.
TEST(AnalysePositions, CheckersHistoryWithinTheCap) {
  Game g = std::get<Game>(Game::create(VariantId::Classic, default_options(VariantId::Classic)));
  std::vector<Game> history{g};
  for (const char* turn : {"c3-d4", "f6-e5", "d4xf6", "g7xe5", "b2-c3"}) {
    const auto turns = g.turns();
    const auto t = std::find_if(turns.begin(), turns.end(),
                                [&](const Turn& x) { return format_turn(x) == turn; });
    ASSERT_NE(t, turns.end()) << turn;
    for (const Action& act : t->actions) {
      g = g.apply(act)->next;
      history.push_back(g);
    }
  }
  // A history's cap (3 s on the server): each position a share of it. Under ASan beside other
  // work, 1 s left the last positions no share (a static value, depth 0: CI, 2026-11-29).
  AnalysisLimits limits;
  limits.time = 3s;
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Value> values = analyse_positions(history, limits);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s)
      << "the cap holds (with room for a busy machine)";
  ASSERT_EQ(values.size(), history.size());
  for (const Value& v : values) {
    EXPECT_FALSE(v.exact);
    EXPECT_GE(v.depth, 1);
  }
  // Even at the start, after the exchange, and just before the recapture (which the search sees).
  ASSERT_EQ(history.size(), 6u);
  for (std::size_t i : {0, 3, 5}) EXPECT_LT(std::abs(values[i].score), 60) << i;
  // No time: static values, each from its own side: after d4xf6 white, to move, is a man down.
  AnalysisLimits none;
  none.time = 0ms;
  const std::vector<Value> fallback = analyse_positions(history, none);
  ASSERT_EQ(fallback.size(), history.size());
  for (const Value& v : fallback) EXPECT_EQ(v.depth, 0);
  EXPECT_EQ(history[3].turn(), Side::Second);
  EXPECT_LT(fallback[3].score, -60);
  EXPECT_LT(std::abs(fallback[0].score), 20);
}

}  // namespace
}  // namespace bc::ai

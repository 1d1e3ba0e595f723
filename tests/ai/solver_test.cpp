// The exact Kaboom solver against an independent minimax written here: plain recursion over
// Game::legal/apply with a memo keyed by Game::hash, no pruning, no symmetry.
#include <bc/ai_analysis.hpp>
#include <random>
#include <unordered_map>

#include "test_helpers.hpp"

namespace bc::ai {
namespace {

// A value as one number, better the larger, as Gamesman orders them: a win in t turns is
// 2000 - t (sooner is better), a tie in t 1000 - t (its nearest drawn end: Gamesman's remoteness
// of a tie), a loss in t just t (later is better).
int gamesman_code(Outcome o, int turns) {
  return o == Outcome::Win ? 2000 - turns : o == Outcome::Draw ? 1000 - turns : turns;
}

// The value for the mover of a turn to a position worth `c` to its own side to move.
int a_turn_earlier(int c) {
  if (c > 1000) return 2000 - c + 1;  // they win in t: we lose in t + 1
  if (c > 500) return c - 1;          // a tie in t: a tie in t + 1
  return 2000 - (c + 1);              // they lose in t: we win in t + 1
}

class Minimax {
 public:
  int value(const Game& g) {
    const std::uint64_t h = g.hash();
    if (auto it = memo_.find(h); it != memo_.end()) return it->second;
    int best = -1;
    for (const Action& a : g.legal()) {
      const Game next = g.apply(a)->next;
      int v = 0;
      if (next.over()) {
        const auto& w = next.result()->winner;
        v = !w ? gamesman_code(Outcome::Draw, 1)
               : gamesman_code(*w == g.turn() ? Outcome::Win : Outcome::Loss, 1);
      } else {
        v = a_turn_earlier(value(next));
      }
      best = std::max(best, v);
    }
    memo_.emplace(h, best);
    return best;
  }

 private:
  std::unordered_map<std::uint64_t, int> memo_;
};

int solver_value(const SolvedValue& s) {
  return gamesman_code(s.outcome, s.turns);
}

struct Board {
  int w, h, n, bombs;
  bool misere = false;
  bool superbomb = false;
};

class SolverAgrees : public ::testing::TestWithParam<Board> {};

TEST_P(SolverAgrees, WithIndependentMinimax) {
  const Board b = GetParam();
  Options o = test::kaboom_options(b.w, b.h, b.n, b.bombs);
  o.misere = b.misere;
  o.superbomb = b.superbomb;
  Minimax mm;
  std::mt19937_64 rng(2024);
  const Game start = std::get<Game>(Game::create(VariantId::Kaboom, o));
  int checked = 0;
  for (int walk = 0; walk < 6; ++walk) {
    Game g = start;
    while (!g.over()) {
      const auto solved = solve_kaboom(g);
      ASSERT_TRUE(solved);
      const int expected = mm.value(g);
      ASSERT_EQ(solver_value(*solved), expected) << format_position(g);
      ASSERT_TRUE(solved->best);
      // The solver's move keeps the value: its successor is worth exactly one turn less.
      const Game next = g.apply(*solved->best)->next;
      if (!next.over()) {
        EXPECT_EQ(a_turn_earlier(mm.value(next)), expected) << format_position(g);
      }
      ++checked;
      const auto legal = g.legal();
      g = g.apply(legal[static_cast<std::size_t>(rng() % legal.size())])->next;
    }
  }
  EXPECT_GT(checked, 10);
}

INSTANTIATE_TEST_SUITE_P(TinyBoards, SolverAgrees,
                         ::testing::Values(Board{3, 3, 3, 0}, Board{3, 3, 3, 1}, Board{4, 3, 3, 0},
                                           Board{3, 4, 3, 1}, Board{4, 3, 3, 1, true, false},
                                           Board{3, 3, 3, 1, false, true}, Board{4, 4, 3, 0}),
                         [](const ::testing::TestParamInfo<Board>& p) {
                           const Board& b = p.param;
                           return std::to_string(b.w) + "x" + std::to_string(b.h) + "c" +
                                  std::to_string(b.n) + "b" + std::to_string(b.bombs) +
                                  (b.misere ? "_misere" : "") + (b.superbomb ? "_super" : "");
                         });

// Plain 3x3 connect 3 with gravity is a draw with best play.
TEST(Solver, ThreeByThreeConnectThreeIsADraw) {
  const Game g = std::get<Game>(Game::create(VariantId::Kaboom, test::kaboom_options(3, 3, 3, 0)));
  const auto s = solve_kaboom(g);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->outcome, Outcome::Draw);
  EXPECT_GT(s->turns, 0) << "a tie has its distance (the nearest drawn end with best play)";
  EXPECT_LE(s->turns, 9) << "nine cells";
}

// The tie an outside exact solver gives its distance (issue 35): Gamesman's (o 0 0 xoxo *@ox xxo-
// ----), bottom row first, on a 4x4 board, connect 4, one bomb each (both on the board).
TEST(Solver, ATieFarFromItsEndHasItsDistance) {
  const Game g = test::position(VariantId::Kaboom, "o:a1,c1,Ba2,d2,a3,b3:b1,d1,Bb2,c2,c3:0,0",
                                test::kaboom_options(4, 4, 4, 1));
  const auto s = solve_kaboom(g);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->outcome, Outcome::Draw);
  EXPECT_EQ(s->turns, 13);
  const Analysis a = analyse_position(g);
  EXPECT_TRUE(a.value.exact);
  EXPECT_EQ(a.value.outcome, Outcome::Draw);
  EXPECT_EQ(a.value.remoteness, 13);
  int ties = 0;
  for (const TurnValue& t : a.turns) {
    if (t.value.outcome != Outcome::Draw) continue;
    ++ties;
    EXPECT_GE(t.value.remoteness, 13) << "no tying turn is nearer its end than the position's best";
  }
  EXPECT_GT(ties, 0);
}

// A budget that proves the tie but not its distance keeps the tie, with its distance unknown;
// a larger one finds it.
TEST(Solver, ATieWhoseDistanceIsOverBudgetStaysATie) {
  const Game g = test::position(VariantId::Kaboom, "o:a1,c1,Ba2,d2,a3,b3:b1,d1,Bb2,c2,c3:0,0",
                                test::kaboom_options(4, 4, 4, 1));
  bool unknown_seen = false;
  for (std::uint64_t budget = 50; budget < 100'000; budget = budget * 3 / 2) {
    SolveBudget b;
    b.max_positions = budget;
    const auto s = solve_kaboom(g, b);
    if (!s) continue;  // not even the value
    EXPECT_EQ(s->outcome, Outcome::Draw) << budget;
    ASSERT_TRUE(s->best) << budget;
    if (s->turns == kUnknownDistance) {
      unknown_seen = true;
      continue;
    }
    EXPECT_EQ(s->turns, 13) << budget;
    EXPECT_TRUE(unknown_seen) << "some budget between proves the tie but not its distance";
    AnalysisLimits limits;
    limits.max_positions = budget * 2 / 3;
    const Analysis a = analyse_position(g, limits);
    if (a.value.exact) {
      EXPECT_EQ(a.value.outcome, Outcome::Draw);
      EXPECT_TRUE(a.value.remoteness == 13 || a.value.remoteness == kUnknownDistance)
          << a.value.remoteness;
    }
    return;
  }
  ADD_FAILURE() << "no budget found the distance";
}

TEST(Solver, RefusesWhatItCannotKeyOrAfford) {
  const Game big =
      std::get<Game>(Game::create(VariantId::Kaboom, default_options(VariantId::Kaboom)));
  EXPECT_FALSE(solve_kaboom(big));  // 42 cells
  const Game checkers =
      std::get<Game>(Game::create(VariantId::Bomb, default_options(VariantId::Bomb)));
  EXPECT_FALSE(solve_kaboom(checkers));
  const Game small =
      std::get<Game>(Game::create(VariantId::Kaboom, test::kaboom_options(4, 4, 4, 1)));
  SolveBudget tight;
  tight.max_positions = 100;
  EXPECT_FALSE(solve_kaboom(small, tight));
}

// A small board whose exact solve takes seconds from the start (4x4 connect 4, 2 bombs each):
// within a time cap, levels 7 and 8 give up solving at half of it and play the search's answer.
// The bound is loose for sanitizer builds: without the cap this takes 8 s in a Release build.
TEST(Solver, LevelTimeCapBoundsTheSolverAndTheSearch) {
  const Game g = std::get<Game>(Game::create(VariantId::Kaboom, test::kaboom_options(4, 4, 4, 2)));
  for (int level : {7, 8}) {
    SearchLimits limits;
    limits.level = level;
    limits.time = std::chrono::milliseconds(200);
    const auto start = std::chrono::steady_clock::now();
    const SearchResult r = choose_turn(g, limits);
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_LT(took, std::chrono::seconds(3)) << "level " << level;
    EXPECT_FALSE(r.solved) << "level " << level;
    ASSERT_EQ(r.best.actions.size(), 1u);
    EXPECT_TRUE(g.apply(r.best.actions[0])) << "level " << level;
  }
  EXPECT_EQ(level_time_cap(1), std::chrono::milliseconds(250));
  EXPECT_EQ(level_time_cap(kMaxLevel), std::chrono::milliseconds(1000));
  EXPECT_EQ(level_time_cap(99), level_time_cap(kMaxLevel)) << "levels are clamped";
}

}  // namespace
}  // namespace bc::ai

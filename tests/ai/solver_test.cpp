// The exact Kaboom solver against an independent minimax written here: plain recursion over
// Game::legal/apply with a memo keyed by Game::hash, no pruning, no symmetry.
#include <random>
#include <unordered_map>

#include "test_helpers.hpp"

namespace bc::ai {
namespace {

// +(1000 - t): the side to move wins in t turns; -(1000 - t): loses in t turns; 0: draw.
class Minimax {
 public:
  int value(const Game& g) {
    const std::uint64_t h = g.hash();
    if (auto it = memo_.find(h); it != memo_.end()) return it->second;
    int best = -100000;
    for (const Action& a : g.legal()) {
      const Game next = g.apply(a)->next;
      int v = 0;
      if (next.over()) {
        const auto& w = next.result()->winner;
        v = !w ? 0 : *w == next.turn() ? -999 : 999;  // the mover won or lost on this turn
      } else {
        const int c = value(next);
        v = c > 0 ? -(c - 1) : c < 0 ? -c - 1 : 0;
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
  switch (s.outcome) {
    case Outcome::Win:
      return 1000 - s.turns;
    case Outcome::Loss:
      return -(1000 - s.turns);
    case Outcome::Draw:
      return 0;
  }
  return 0;
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
        const int c = mm.value(next);
        EXPECT_EQ(c > 0 ? -(c - 1) : c < 0 ? -c - 1 : 0, expected) << format_position(g);
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

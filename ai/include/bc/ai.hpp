// bombcheckers computer opponent: a game-tree search over complete turns, built only on the core's
// public interface (Game::legal/apply for the rules, Game::state() read for hashing and
// evaluation).
//
// Thread safety: choose_turn and solve_kaboom keep all their mutable state in the call (or in the
// TranspositionTable the caller lends); concurrent calls on different games are safe. A table must
// not be lent to two searches at once.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "bc/core.hpp"

namespace bc::ai {

inline constexpr int kMinLevel = 1;  // a beginner who blunders
inline constexpr int kMaxLevel = 8;  // full strength

// A wall-clock cap per level, on top of its node budget, for callers that must bound every search
// (the server passes it as SearchLimits::time): on a loaded machine a search stops there and plays
// its best so far. On a free core levels 1..4 finish in milliseconds, far below theirs; level 7's
// 2M nodes take 1-2 s and a small Kaboom board's exact solve several (the solver gets half the
// cap, then the search the rest). Indexed by level; [0] is unused.
inline constexpr std::array<std::chrono::milliseconds, kMaxLevel + 1> kLevelTimeCap{
    std::chrono::milliseconds(250),  std::chrono::milliseconds(250),
    std::chrono::milliseconds(250),  std::chrono::milliseconds(250),
    std::chrono::milliseconds(250),  std::chrono::milliseconds(500),
    std::chrono::milliseconds(1000), std::chrono::milliseconds(1000),
    std::chrono::milliseconds(1000)};
constexpr std::chrono::milliseconds level_time_cap(int level) {
  return kLevelTimeCap[static_cast<std::size_t>(level < kMinLevel   ? kMinLevel
                                                : level > kMaxLevel ? kMaxLevel
                                                                    : level)];
}

// Scores are from the point of view of the side to move, in hundredths of a normal man (checkers)
// or of a heuristic unit (kaboom). A won game scores kWin minus the number of turns to the end.
inline constexpr int kWin = 100000;
inline constexpr int kWinBound = kWin - 1000;  // |score| >= kWinBound: a forced end was found
constexpr bool is_decisive(int score) {
  return score >= kWinBound || score <= -kWinBound;
}
// Turns (plies) to the end of the game for a decisive score.
constexpr int turns_to_end(int score) {
  return score > 0 ? kWin - score : kWin + score;
}

// A transposition table a caller may keep between the searches of one game (a bot seat) to reuse
// what earlier moves learned. Not shareable between concurrent searches.
class TranspositionTable {
 public:
  explicit TranspositionTable(std::size_t megabytes = 16);
  ~TranspositionTable();
  TranspositionTable(TranspositionTable&&) noexcept;
  TranspositionTable& operator=(TranspositionTable&&) noexcept;
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;

  void clear();
  std::size_t entries() const;

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// One finished iteration of the iterative deepening, for analysis output.
struct IterationInfo {
  int depth = 0;
  int score = 0;
  std::uint64_t nodes = 0;
  std::chrono::milliseconds elapsed{0};
  std::vector<Turn> pv;
};

struct SearchLimits {
  int level = kMaxLevel;   // 1..8 (clamped)
  std::uint64_t seed = 0;  // noise and random moves of the low levels
  // Budgets; whichever runs out first stops the search. Levels 1..7 always have their own node
  // budget (deterministic) unless `nodes` replaces it; level 8 has one second when no budget is
  // given. `time` also bounds the Kaboom solver (half of it; level_time_cap for a cap per level).
  std::optional<std::chrono::milliseconds> time;
  std::optional<std::uint64_t> nodes;
  std::optional<int> depth;                 // caps the iterative deepening (in turns)
  const std::atomic<bool>* stop = nullptr;  // set to true to abandon the search
  TranspositionTable* tt = nullptr;         // a lent table; otherwise the search owns one
  std::function<void(const IterationInfo&)> on_iteration;  // called after each finished depth
};

struct SearchResult {
  Turn best;      // a complete legal turn (mid-turn: the rest of it); empty if game over
  int score = 0;  // side to move's point of view
  int depth = 0;  // deepest completed iteration (0: forced or random move); solved: turns
                  // to the end (0 for a draw)
  std::uint64_t nodes = 0;
  std::vector<Turn> pv;  // starts with best
  bool solved = false;   // kaboom: the exact solver decided the move (score is exact)
};

// The turn the computer plays at `limits.level`. Requires !game.over() for a non-empty best.
SearchResult choose_turn(const Game& game, const SearchLimits& limits);

// ---------------------------------------------------------------------------------------------
// Exact solver for small Kaboom boards.

enum class Outcome : std::uint8_t { Win, Draw, Loss };  // for the side to move

inline constexpr int kUnknownDistance = -1;

struct SolvedValue {
  Outcome outcome = Outcome::Draw;
  int turns = 0;  // turns to the end with best play: the shortest win, the longest loss; a draw's
                  // is Gamesman's, 1 + the fewest of a drawing turn's (the nearest drawn end), or
                  // kUnknownDistance when the budget ran out finding it (the draw is proven)
  std::optional<Action> best;   // a best action (every Kaboom action is a whole turn)
  std::uint64_t positions = 0;  // distinct positions stored by the solver
};

struct SolveBudget {
  std::uint64_t max_positions = 2'000'000;  // memo size limit (16 B each); exceeded: no answer
  const std::atomic<bool>* stop = nullptr;
  std::optional<std::chrono::milliseconds> time;
  // A draw's distance too (its nearest drawn end, and the move towards it), after its value; it
  // can cost more than the value. Without it a draw's turns are kUnknownDistance and its move any
  // drawing one.
  bool draw_distance = true;
};

// Boards up to this many cells are keyed exactly (larger ones are never attempted).
inline constexpr int kSolverMaxCells = 24;
// choose_turn tries the solver (levels 7 and 8) on boards up to this many cells.
inline constexpr int kSolverAutoCells = 16;

// The exact value of a Kaboom position, or nullopt if the game is not Kaboom, is over, the board
// is larger than kSolverMaxCells, or the budget ran out.
std::optional<SolvedValue> solve_kaboom(const Game& game, const SolveBudget& budget = {});

}  // namespace bc::ai

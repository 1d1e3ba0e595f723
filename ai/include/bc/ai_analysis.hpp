// Values of positions and of every turn from them, for analysis (the `analyse` request, the
// analysis board): exact on Kaboom boards the solver finishes, else the search's estimate.
//
// Thread safety: as choose_turn; all state lives in the call.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "bc/ai.hpp"
#include "bc/core.hpp"

namespace bc::ai {

// The value of a position (or of a turn) for one side: the side to move (or the side making it).
struct Value {
  bool exact = false;              // solved (Kaboom); else the search's estimate
  std::optional<Outcome> outcome;  // exact: always; estimate: only when the search proved the end
  int remoteness = 0;  // with an outcome: turns to the end with best play (win soonest, loss
                       // latest; 0: the game is over; a turn that ends it at once: 1)
  int score = 0;       // estimate: side's view, hundredths of a man (checkers) / heuristic units
  int depth = 0;       // estimate: turns searched (counting the turn itself for a turn's value)
  friend bool operator==(const Value&, const Value&) = default;
};

struct TurnValue {
  Turn turn;    // a complete legal turn (mid-turn: the rest of it), as Game::turns() lists it
  Value value;  // for the side making it
};

struct Analysis {
  Value value;                   // for the side to move; the best of `turns` when there are any
  std::vector<TurnValue> turns;  // every legal complete turn (empty when asked without, or over)
  std::uint64_t work = 0;        // solver positions or search nodes
};

struct AnalysisLimits {
  std::chrono::milliseconds time{1000};  // the whole request's wall-clock cap
  const std::atomic<bool>* stop = nullptr;
  std::uint64_t max_positions = 2'000'000;  // the Kaboom solver's memo (16 B each)
  bool turns = true;                        // false: the position's value only (quicker)
  // analyse_position on a Kaboom board of at most kSolverMaxCells cells: the solver gets the whole
  // time and nothing is estimated if it gives up (then the value is not exact and there are no
  // turns). Otherwise the solver gets 3/4 of the time and the search the rest if it gives up.
  bool exact_only = false;
  // false: a solved tie's distance is not searched (remoteness kUnknownDistance), which on boards
  // with bombs costs several times the value; for callers that only tell wins from the rest.
  bool draw_distance = true;
};

// A position's value and its turns' values. A finished game gives its outcome for the side to
// move (remoteness 0) and no turns. Kaboom boards of at most kSolverMaxCells cells are solved
// exactly when the solver finishes within the limits (every turn then exact); otherwise every
// turn is searched to the same depth (iterative deepening over all of them with one shared
// table), so that their estimates compare, and the position's value is the best of them.
Analysis analyse_position(const Game& game, const AnalysisLimits& limits = {});

// The values of several positions (a game's history) within one time cap, each from its own side
// to move's point of view; shares one solver memo / table between them. Positions left without a
// value when the time ran out get a depth-0 static estimate.
std::vector<Value> analyse_positions(const std::vector<Game>& positions,
                                     const AnalysisLimits& limits = {});

}  // namespace bc::ai

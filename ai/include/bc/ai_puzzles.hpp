// Puzzles whose answer is proven (docs/PUZZLES.md): a position where the side to move wins with
// exactly one turn; every other turn there is proven not to (solved as a tie or a loss on Kaboom
// boards the solver finishes; proven lost, or ending the game drawn, by the search in the checkers
// variants, where a draw cannot be proven). Later on the line the solver's turn is its fastest
// win, and any other winning turn there is listed with it.
//
// Thread safety: as analyse_position; all state lives in the call.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "bc/core.hpp"

namespace bc::ai {

struct PuzzleLimits {
  std::chrono::milliseconds step_time{2000};  // each position's analysis on the line
  std::uint64_t max_positions = 4'000'000;    // the Kaboom solver's memo
  int min_remoteness = 3;                     // at least two turns of the solver's to find
  int max_remoteness = 11;
  const std::atomic<bool>* stop = nullptr;
};

struct PuzzleLine {
  std::vector<Turn> turns;  // from the start to the end: the solver's, the reply, ...
  // By ply: the solver's other winning turns there (none at the first, none for the replies).
  std::vector<std::vector<Turn>> also;
  int remoteness = 0;  // turns.size(): the solver wins with its last
  bool exact = false;  // proven by the Kaboom solver (else by the search)
};

// Whether a position can be solved exactly here (a Kaboom board the solver finishes): such a
// puzzle's kind is "kaboom", every other's "ending".
bool puzzle_is_exact(const Game& start);

// The puzzle at `start`, or why it is not one (for a person: "the side to move does not win").
std::variant<PuzzleLine, std::string> find_puzzle(const Game& start, const PuzzleLimits& limits);

// Proves a stored puzzle again: the line is legal and ends in the solver's win, its first turn is
// the only winning one, and each later turn of the solver's wins. None: proven; else what failed.
std::optional<std::string> check_puzzle(const Game& start, const std::vector<Turn>& line,
                                        const PuzzleLimits& limits);

// (remoteness + 1) / 2, the solver's turns to find, from 1 to 5.
int puzzle_difficulty(int remoteness);

}  // namespace bc::ai

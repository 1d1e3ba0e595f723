// Static evaluation per variant, from the point of view of the side to move.
#pragma once

#include <cstdint>

#include "bc/core.hpp"

namespace bc::ai::detail {

// The game must not be over (terminal positions are scored by the search).
int evaluate(const Game& g);

// Checkers piece worth used by the evaluation (for tests and ordering): kind and rank as in core.
int piece_worth(VariantId v, Kind kind, Rank rank);

// Kaboom: cells where `side` would complete a line of N by dropping a piece now (the column's
// lowest empty cell). Returns a bit per column (bit x set: dropping in column x wins outright,
// ignoring misère). Read from the state only, for quiescence and ordering.
std::uint32_t kaboom_winning_drops(const Game& g, Side side);

}  // namespace bc::ai::detail

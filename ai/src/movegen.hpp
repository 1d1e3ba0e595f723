// Complete turns for the search, generated hop by hop on Game::legal/apply (so the core stays the
// only judge of the rules) into compact moves, each with the position it leads to.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "bc/core.hpp"

namespace bc::ai::detail {

// A checkers piece captures at most 12 pieces, so a turn has at most 12 hops.
inline constexpr int kMaxHops = 12;

struct Move {
  // Checkers: sq[0] the moving piece, sq[1..hops] its landing squares. Kaboom: `action`.
  std::array<std::int8_t, kMaxHops + 1> sq{};
  std::uint8_t hops = 0;
  bool jump = false;      // a capture (for bomb: possibly an explosion)
  bool end_turn = false;  // closed by an explicit end_turn (bomb: stopped a capture early)
  Action action{};        // kaboom
  std::uint32_t sig = 0;  // identity of the turn in its position (never 0)
  std::uint16_t history_index = 0;
  int gain = 0;  // static material swing for the mover (ordering)
  friend bool operator==(const Move& l, const Move& r) { return l.sig == r.sig; }
};

// A turn and, once known, the position it leads to. Plain steps and Kaboom actions are applied
// only when the search reaches them (most are never searched after a cutoff).
struct Child {
  Move move;
  std::optional<Game> next;
  int order = 0;
};

inline constexpr int kHistorySize = 2 * 32 * 32;

// All complete turns from g (from mid-turn: the rest of the turn), in the core's legal order.
// Captures, and bomb steps onto the far row (a crowning, B8), come with their position.
// captures_only (checkers): just those tactical turns. Appends to out.
void generate(const Game& g, bool captures_only, std::vector<Child>& out);

// The position after c (parent: the position c was generated from).
const Game& materialize(const Game& parent, Child& c);

Turn to_turn(const Move& m, VariantId v);

}  // namespace bc::ai::detail

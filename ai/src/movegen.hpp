// Complete turns for the search, generated hop by hop on Game::legal/apply (so the core stays the
// only judge of the rules) into compact moves, each with the position it leads to.
#pragma once

#include <array>
#include <cstdint>
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
  int gain = 0;           // static material swing for the mover (ordering)
  friend bool operator==(const Move& l, const Move& r) { return l.sig == r.sig; }
};

struct Child {
  Move move;
  Game next;
  int order = 0;
};

inline constexpr int kHistorySize = 2 * 32 * 32;

// All complete turns from g (from mid-turn: the rest of the turn), in the core's legal order.
// captures_only: checkers turns that start with a jump (and every Kaboom action for which
// `tactical` says so, see search.cpp). Appends to out.
void generate(const Game& g, bool captures_only, std::vector<Child>& out);

Turn to_turn(const Move& m, VariantId v);

}  // namespace bc::ai::detail

// Zobrist keys of positions, read from the core's internal states.
#include "board.hpp"

#include <algorithm>
#include <variant>

namespace bc::ai::detail {
namespace {

constexpr ZobristTables kZobrist = make_zobrist();

// Checkers piece type 0..5 of the piece on bit b (the caller knows it is there).
int checkers_type(const CheckersState& s, Bits b) {
  if ((s.triples & b) != 0) return 5;
  const int kind = (s.bombs & b) != 0 ? 2 : (s.shields & b) != 0 ? 1 : 0;
  return (s.kings & b) != 0 ? 3 + (kind == 1 ? 1 : 0) : kind;
}

}  // namespace

std::uint64_t zobrist(const Game& g) {
  std::uint64_t h = 0;
  if (const auto* c = std::get_if<CheckersState>(&g.state())) {
    for (int side = 0; side < 2; ++side) {
      for (Bits b = c->occ[static_cast<std::size_t>(side)]; b != 0; b &= b - 1) {
        const int i = std::countr_zero(b);
        const int type = side * 6 + checkers_type(*c, bit(i));
        h ^= kZobrist.checkers[static_cast<std::size_t>(type)][static_cast<std::size_t>(i)];
      }
    }
    h ^= kZobrist.jumper[static_cast<std::size_t>(c->jumper + 1)];
    // The no-progress counter decides draws (C6); positions with different counts differ.
    if (g.options().draw_turns > 0) {
      h ^= kZobrist.quiet[std::min<std::size_t>(c->quiet_turns, 255)];
    }
    if (c->turn == Side::Second) h ^= kZobrist.second_to_move;
    return h;
  }
  const auto& k = std::get<KaboomState>(g.state());
  const int cells = g.width() * g.height();
  for (int i = 0; i < cells; ++i) {
    const std::uint8_t code = k.cells[static_cast<std::size_t>(i)];
    if (code != 0) h ^= kZobrist.kaboom[code][static_cast<std::size_t>(i)];
  }
  for (std::size_t side = 0; side < 2; ++side) {
    h ^= kZobrist.bombs_left[side][std::min<std::size_t>(k.bombs_left[side], 15)];
  }
  if (k.turn == Side::Second) h ^= kZobrist.second_to_move;
  return h;
}

}  // namespace bc::ai::detail

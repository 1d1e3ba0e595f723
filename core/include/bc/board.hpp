// The checkers board's geometry, shared by the rules core and the computer opponent: the numbering
// of the 32 playable squares, bitboards over them, neighbours and the bomb's blast block. Pure
// compile-time tables; no rules here (those are in rules.hpp and core/src/checkers.cpp).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "bc/core.hpp"

namespace bc::board {

// Square index i in [0, 32): y = i / 4, x = 2 * (i % 4) + (y & 1), so [0,0] is index 0.
using Bits = std::uint32_t;

constexpr int sq_index(int x, int y) {
  return y * 4 + x / 2;
}
constexpr int sq_index(Square s) {
  return sq_index(s.x, s.y);
}
constexpr Square sq_square(int i) {
  return {2 * (i % 4) + ((i / 4) & 1), i / 4};
}
constexpr Bits bit(int i) {
  return Bits{1} << i;
}
constexpr bool on_board(Square s) {
  return s.x >= 0 && s.x < 8 && s.y >= 0 && s.y < 8;
}
constexpr bool playable(Square s) {
  return on_board(s) && (s.x + s.y) % 2 == 0;
}

constexpr Bits kEvenRows = 0x0F0F0F0Fu;  // y = 0, 2, 4, 6
constexpr Bits kOddRows = 0xF0F0F0F0u;
constexpr Bits kCol0 = 0x01010101u;  // x = 0
constexpr Bits kCol7 = 0x80808080u;  // x = 7
constexpr Bits kRow0 = 0x0000000Fu;
constexpr Bits kRow7 = 0xF0000000u;

// Directions: 0 up-right (+1,+1), 1 up-left (-1,+1), 2 down-right (+1,-1), 3 down-left (-1,-1).
// The opposite of d is 3 - d; forward for the first side is d < 2.
constexpr int kDx[4] = {1, -1, 1, -1};
constexpr int kDy[4] = {1, 1, -1, -1};

// Every square of b moved one step in direction d (squares that would leave the board drop out).
constexpr Bits shift(Bits b, int d) {
  switch (d) {
    case 0:
      return ((b & kEvenRows) << 4) | ((b & kOddRows & ~kCol7) << 5);
    case 1:
      return ((b & kEvenRows & ~kCol0) << 3) | ((b & kOddRows) << 4);
    case 2:
      return ((b & kEvenRows) >> 4) | ((b & kOddRows & ~kCol7) >> 3);
    default:
      return ((b & kEvenRows & ~kCol0) >> 5) | ((b & kOddRows) >> 4);
  }
}

// The row where a side's men are crowned (C4), and the row its men start from (T4).
constexpr Bits far_row(Side s) {
  return s == Side::First ? kRow7 : kRow0;
}
constexpr Bits back_row(Side s) {
  return s == Side::First ? kRow0 : kRow7;
}

struct Tables {
  std::array<std::array<std::int8_t, 4>, 32> neighbour{};  // one step in direction d, or -1
  std::array<Bits, 32> blast{};  // the 3x3 block centred on a square (B7), playable squares only
};

constexpr Tables make_tables() {
  Tables t{};
  for (int i = 0; i < 32; ++i) {
    const Square s = sq_square(i);
    Bits b = bit(i);
    for (int d = 0; d < 4; ++d) {
      const Square n{s.x + kDx[d], s.y + kDy[d]};
      const bool in = on_board(n);
      t.neighbour[static_cast<std::size_t>(i)][static_cast<std::size_t>(d)] =
          in ? static_cast<std::int8_t>(sq_index(n)) : std::int8_t{-1};
      if (in) b |= bit(sq_index(n));
    }
    t.blast[static_cast<std::size_t>(i)] = b;
  }
  return t;
}

inline constexpr Tables kTables = make_tables();

constexpr int neighbour(int i, int d) {
  return kTables.neighbour[static_cast<std::size_t>(i)][static_cast<std::size_t>(d)];
}
constexpr Bits blast(int i) {
  return kTables.blast[static_cast<std::size_t>(i)];
}

}  // namespace bc::board

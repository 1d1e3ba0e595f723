// Reading the core's internal states: square indexing of the checkers bitboards, Zobrist keys.
// Only reads; every rule decision stays with bc::Game.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "bc/core.hpp"

namespace bc::ai::detail {

// ---- Checkers squares, as core/src/checkers.cpp numbers them: index i in [0, 32),
// y = i / 4, x = 2 * (i % 4) + (y & 1).
using Bits = std::uint32_t;
constexpr int sq_index(Square s) { return s.y * 4 + s.x / 2; }
constexpr Square sq_square(int i) { return {2 * (i % 4) + ((i / 4) & 1), i / 4}; }
constexpr Bits bit(int i) { return Bits{1} << i; }
constexpr int popcount(Bits b) { return std::popcount(b); }

// neighbour(i, d): the square one diagonal step away, or -1. d: 0 (+1,+1), 1 (-1,+1), 2 (+1,-1),
// 3 (-1,-1); forward for the first side is d < 2.
struct SquareTables {
  std::array<std::array<std::int8_t, 4>, 32> neighbour{};
  std::array<Bits, 32> blast{};   // 3x3 block centred on a square (RULES.md B7)
  std::array<Bits, 32> ring2{};   // squares within two king steps (danger zone of a bomb)
};

constexpr SquareTables make_square_tables() {
  constexpr int kDx[4] = {1, -1, 1, -1};
  constexpr int kDy[4] = {1, 1, -1, -1};
  SquareTables t{};
  for (int i = 0; i < 32; ++i) {
    const Square s = sq_square(i);
    Bits blast = bit(i);
    for (int d = 0; d < 4; ++d) {
      const Square n{s.x + kDx[d], s.y + kDy[d]};
      const bool in = n.x >= 0 && n.x < 8 && n.y >= 0 && n.y < 8;
      t.neighbour[static_cast<std::size_t>(i)][static_cast<std::size_t>(d)] =
          in ? static_cast<std::int8_t>(sq_index(n)) : std::int8_t{-1};
      if (in) blast |= bit(sq_index(n));
    }
    t.blast[static_cast<std::size_t>(i)] = blast;
  }
  for (int i = 0; i < 32; ++i) {
    const Square s = sq_square(i);
    Bits r = 0;
    for (int j = 0; j < 32; ++j) {
      const Square o = sq_square(j);
      const int dx = o.x > s.x ? o.x - s.x : s.x - o.x;
      const int dy = o.y > s.y ? o.y - s.y : s.y - o.y;
      if (dx <= 2 && dy <= 2) r |= bit(j);
    }
    t.ring2[static_cast<std::size_t>(i)] = r;
  }
  return t;
}

inline constexpr SquareTables kSquares = make_square_tables();

constexpr int neighbour(int i, int d) {
  return kSquares.neighbour[static_cast<std::size_t>(i)][static_cast<std::size_t>(d)];
}
constexpr Bits blast_zone(int i) { return kSquares.blast[static_cast<std::size_t>(i)]; }

constexpr Bits kRow0 = 0x0000000Fu;
constexpr Bits kRow7 = 0xF0000000u;
constexpr Bits kCentre = 0x00666600u;  // the middle four rows, files c..f (roughly)
// Row of square i seen from a side: 0 at its own back row, 7 at the crowning row.
constexpr int rel_row(int i, int side) { return side == 0 ? i / 4 : 7 - i / 4; }

// ---- Zobrist keys: constant tables computed at compile time (no mutable global state).
constexpr std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// One key per (piece type, square): checkers piece types 0..11 (side * 6 + type), Kaboom cell
// codes 1..4 over 144 cells; plus side to move, jumper, quiet counter and bombs in hand.
struct ZobristTables {
  std::array<std::array<std::uint64_t, 32>, 12> checkers{};
  std::array<std::array<std::uint64_t, KaboomState::kMaxCells>, 5> kaboom{};
  std::array<std::uint64_t, 33> jumper{};
  std::array<std::uint64_t, 256> quiet{};
  std::array<std::array<std::uint64_t, 16>, 2> bombs_left{};
  std::uint64_t second_to_move = 0;
};

constexpr ZobristTables make_zobrist() {
  ZobristTables z{};
  std::uint64_t seed = 0x5EEDB0B5C0FFEEull;
  for (auto& row : z.checkers) {
    for (auto& k : row) k = splitmix64(seed);
  }
  for (auto& row : z.kaboom) {
    for (auto& k : row) k = splitmix64(seed);
  }
  for (auto& k : z.jumper) k = splitmix64(seed);
  for (auto& k : z.quiet) k = splitmix64(seed);
  for (auto& row : z.bombs_left) {
    for (auto& k : row) k = splitmix64(seed);
  }
  z.second_to_move = splitmix64(seed);
  return z;
}

// The key of a position (the options are fixed for one search, so they are not hashed).
std::uint64_t zobrist(const Game& g);

}  // namespace bc::ai::detail

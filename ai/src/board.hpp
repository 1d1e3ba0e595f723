// Reading the core's internal states: square indexing of the checkers bitboards, Zobrist keys.
// Only reads; every rule decision stays with bc::Game.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "bc/board.hpp"
#include "bc/core.hpp"

namespace bc::ai::detail {

// ---- Checkers squares: the core's own geometry (bc/board.hpp), plus what only the search needs.
using board::bit;
using board::Bits;
using board::kRow0;
using board::kRow7;
using board::neighbour;
using board::sq_index;
using board::sq_square;
constexpr int popcount(Bits b) {
  return std::popcount(b);
}
constexpr Bits blast_zone(int i) {
  return board::blast(i);
}  // 3x3 block (RULES.md B7)

constexpr Bits kCentre = 0x00666600u;  // the middle four rows, files c..f (roughly)
// Row of square i seen from a side: 0 at its own back row, 7 at the crowning row.
constexpr int rel_row(int i, int side) {
  return side == 0 ? i / 4 : 7 - i / 4;
}

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

// Internals shared by the core's sources: the checkers engine on 32-square bitboards and the
// Kaboom engine. Not part of the public API.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "bc/core.hpp"

namespace bc::detail {

// A variant as played under one rules revision (Options::rules). Compares equal to its VariantId,
// so rule code reads `v == VariantId::Bomb` whichever revision it runs.
struct Rules {
  VariantId id;
  int revision;
  friend constexpr bool operator==(Rules r, VariantId v) { return r.id == v; }
};
constexpr Rules rules_of(VariantId v, const Options& o) { return {v, o.rules}; }

// ---- Checkers squares: index i in [0, 32), y = i / 4, x = 2 * (i % 4) + (y & 1).
using Bits = std::uint32_t;

constexpr int sq_index(int x, int y) { return y * 4 + x / 2; }
constexpr Square sq_square(int i) { return {2 * (i % 4) + ((i / 4) & 1), i / 4}; }
constexpr Bits bit(int i) { return Bits{1} << i; }
constexpr bool on_board(Square s) { return s.x >= 0 && s.x < 8 && s.y >= 0 && s.y < 8; }
constexpr bool playable(Square s) { return on_board(s) && (s.x + s.y) % 2 == 0; }

constexpr Bits kEvenRows = 0x0F0F0F0Fu;  // y = 0, 2, 4, 6
constexpr Bits kOddRows = 0xF0F0F0F0u;
constexpr Bits kCol0 = 0x01010101u;  // x = 0
constexpr Bits kCol7 = 0x80808080u;  // x = 7
constexpr Bits kRow0 = 0x0000000Fu;
constexpr Bits kRow7 = 0xF0000000u;

// Directions: 0 up-right (+1,+1), 1 up-left (-1,+1), 2 down-right (+1,-1), 3 down-left (-1,-1).
// The opposite of d is 3 - d.
constexpr int kDx[4] = {1, -1, 1, -1};
constexpr int kDy[4] = {1, 1, -1, -1};

constexpr Bits shift(Bits b, int d) {
  switch (d) {
    case 0: return ((b & kEvenRows) << 4) | ((b & kOddRows & ~kCol7) << 5);
    case 1: return ((b & kEvenRows & ~kCol0) << 3) | ((b & kOddRows) << 4);
    case 2: return ((b & kEvenRows) >> 4) | ((b & kOddRows & ~kCol7) >> 3);
    default: return ((b & kEvenRows & ~kCol0) >> 5) | ((b & kOddRows) >> 4);
  }
}

// The row where a side's men are crowned, and the row its men start from (T4: triple crowning).
constexpr Bits far_row(Side s) { return s == Side::First ? kRow7 : kRow0; }
constexpr Bits back_row(Side s) { return s == Side::First ? kRow0 : kRow7; }

// One hop: a step (captured == 0) or one capture hop; a double capture (T5b) removes two pieces.
// No member initializers: hop lists live on the stack of every perft node and must cost nothing
// to create.
struct Hop {
  std::int8_t from;
  std::int8_t to;
  bool jump;
  Bits captured;
};

// A small fixed-capacity list; no allocation on the hot path.
template <typename T, int N>
struct SmallVec {
  std::array<T, N> items;  // left uninitialized on purpose; only [0, n) is ever read
  int n = 0;
  void push(const T& t) { items[static_cast<std::size_t>(n++)] = t; }
  const T* begin() const { return items.data(); }
  const T* end() const { return items.data() + n; }
  bool empty() const { return n == 0; }
};
// Upper bound: 12 pieces; a flying triple king has at most 13 landings per direction.
using Hops = SmallVec<Hop, 128>;

struct HopOutcome {
  CheckersState next;
  bool turn_over = false;
};

// Legal hops of the side to move (or of the jumper mid-turn); end_turn is not a hop.
void legal_hops(const CheckersState& s, Rules v, Hops& out);
bool end_turn_legal(const CheckersState& s, Rules v);
// Applies a hop; effects (captured/exploded/promoted) are appended to fx when it is not null.
HopOutcome apply_hop(const CheckersState& s, Rules v, const Hop& h, Effects* fx);
CheckersState apply_end_turn(const CheckersState& s);
// Checkers result after a completed turn (nullopt: play on).
std::optional<Result> checkers_result(const CheckersState& s, Rules v, const Options& o);
std::optional<std::string> checkers_from_position(VariantId v, const Position& p,
                                                  CheckersState& out);
CheckersState checkers_start(VariantId v);
std::uint64_t checkers_perft(const CheckersState& s, Rules v, const Options& o, int depth);

// ---- Kaboom
void kaboom_legal(const KaboomState& s, const Options& o, std::vector<Action>& out);
// Applies a legal action (the caller checked legality).
KaboomState kaboom_apply(const KaboomState& s, const Options& o, const Action& a, Effects* fx);
std::optional<Result> kaboom_result(const KaboomState& s, const Options& o);
std::optional<std::string> kaboom_from_position(const Options& o, const Position& p,
                                                KaboomState& out);
KaboomState kaboom_start(const Options& o);

}  // namespace bc::detail

// Internals shared by the core's sources: the checkers engine on 32-square bitboards and the
// Kaboom engine. Not part of the public API.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "bc/board.hpp"
#include "bc/core.hpp"
#include "bc/rules.hpp"

namespace bc::detail {

// The board's geometry (bc/board.hpp) and the rules table (bc/rules.hpp), under short names.
using namespace bc::board;  // NOLINT(google-build-using-namespace): internal, geometry only
using Rules = CheckersRules;
constexpr Rules rules_of(VariantId v, const Options& o) {
  return checkers_rules(v, o.rules);
}

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
void legal_hops(const CheckersState& s, const Rules& r, Hops& out);
bool end_turn_legal(const CheckersState& s, const Rules& r);
// Applies a hop; effects (captured/exploded/promoted) are appended to fx when it is not null.
HopOutcome apply_hop(const CheckersState& s, const Rules& r, const Hop& h, Effects* fx);
CheckersState apply_end_turn(const CheckersState& s);
// Checkers result after a completed turn (nullopt: play on).
std::optional<Result> checkers_result(const CheckersState& s, const Rules& r, const Options& o);
std::optional<std::string> checkers_from_position(VariantId v, const Position& p,
                                                  CheckersState& out);
CheckersState checkers_start(VariantId v);
std::uint64_t checkers_perft(const CheckersState& s, const Rules& r, const Options& o, int depth);

// ---- Kaboom
void kaboom_legal(const KaboomState& s, const Options& o, std::vector<Action>& out);
// Applies a legal action (the caller checked legality).
KaboomState kaboom_apply(const KaboomState& s, const Options& o, const Action& a, Effects* fx);
std::optional<Result> kaboom_result(const KaboomState& s, const Options& o);
bool kaboom_can_ever_win(const KaboomState& s, const Options& o, Side side);
std::optional<std::string> kaboom_from_position(const Options& o, const Position& p,
                                                KaboomState& out);
KaboomState kaboom_start(const Options& o);

}  // namespace bc::detail

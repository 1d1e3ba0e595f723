// The three checkers variants (RULES.md C, B, K, T) on 32-square bitboards.
//
// Decided points (RULES.md leaves them open):
// - Captured pieces are removed at each hop, so a piece is never jumped twice.
// - T5a: for a triple king's quiet leap its own pieces are transparent along the line.
// Rules revision 1 (records played before 2026-11-24, replayed as they were played): a bomb that
// stepped onto the far row exploded, and a triple king's capture could land past its own pieces.
#include <algorithm>
#include <string>

#include "internal.hpp"

namespace bc::detail {
namespace {

constexpr int nb(int i, int d) {
  return neighbour(i, d);
}

constexpr int side_of(const CheckersState& s, Bits b) {
  return (s.occ[1] & b) != 0 ? 1 : 0;
}

// Men move and capture forward only (C2, C3, B3, T3); kings in every direction.
constexpr int first_dir(int side, bool king) {
  return king ? 0 : (side == 0 ? 0 : 2);
}
constexpr int last_dir(int side, bool king) {
  return king ? 4 : (side == 0 ? 2 : 4);
}

// Flying captures (T3, T5b) for a king or triple king of the triple_king variant.
void flying_jumps(const CheckersState& s, const Rules& r, int sq, bool triple, Hops& out) {
  const int me = side_of(s, bit(sq));
  const Bits own = s.occ[static_cast<std::size_t>(me)];
  const Bits opp = s.occ[static_cast<std::size_t>(1 - me)];
  for (int d = 0; d < 4; ++d) {
    int k = nb(sq, d);
    // Approach: empty squares, and own pieces for a triple king.
    while (k >= 0 && ((opp & bit(k)) == 0)) {
      if ((own & bit(k)) != 0 && !triple) break;
      k = nb(k, d);
    }
    if (k < 0 || (opp & bit(k)) == 0) continue;
    Bits captured = bit(k);
    int land = nb(k, d);
    if (triple && land >= 0 && (opp & bit(land)) != 0) {  // two opposing pieces side by side
      captured |= bit(land);
      land = nb(land, d);
    }
    // Landing (T3, T5b): any empty square beyond, up to the next piece of either side.
    for (; land >= 0; land = nb(land, d)) {
      const Bits b = bit(land);
      if ((opp & b) != 0) break;
      if ((own & b) != 0) {
        if (triple && r.lands_past_own_after_capture) continue;  // revision 1
        break;
      }
      out.push({static_cast<std::int8_t>(sq), static_cast<std::int8_t>(land), true, captured});
    }
  }
}

// A triple king's non-capturing leap over its own pieces (T5a), besides its one-square steps.
void triple_leaps(const CheckersState& s, int sq, Hops& out) {
  const int me = side_of(s, bit(sq));
  const Bits own = s.occ[static_cast<std::size_t>(me)];
  const Bits opp = s.occ[static_cast<std::size_t>(1 - me)];
  for (int d = 0; d < 4; ++d) {
    bool passed_own = false;
    for (int k = nb(sq, d); k >= 0 && (opp & bit(k)) == 0; k = nb(k, d)) {
      if ((own & bit(k)) != 0) {
        passed_own = true;
      } else if (passed_own) {
        out.push({static_cast<std::int8_t>(sq), static_cast<std::int8_t>(k), false, 0});
      }
    }
  }
}

// Short jumps (C3) of the pieces in `men` (forward only) and `kings` (all four directions), in
// bitboard form: landing squares per direction, walked back to the jumped piece and the origin.
void short_jumps(const CheckersState& s, int me, Bits men, Bits kings, Hops& out) {
  const Bits opp = s.occ[static_cast<std::size_t>(1 - me)];
  const Bits empty = ~(s.occ[0] | s.occ[1]);
  for (int d = 0; d < 4; ++d) {
    const bool forward = me == 0 ? d < 2 : d >= 2;
    const Bits movers = forward ? (men | kings) : kings;
    for (Bits land = shift(shift(movers, d) & opp, d) & empty; land != 0; land &= land - 1) {
      const int t = std::countr_zero(land);
      const int over = nb(t, 3 - d);
      out.push({static_cast<std::int8_t>(nb(over, 3 - d)), static_cast<std::int8_t>(t), true,
                bit(over)});
    }
  }
}

void piece_jumps(const CheckersState& s, const Rules& r, int sq, Hops& out) {
  const Bits b = bit(sq);
  const bool king = (s.kings & b) != 0;
  if (r.flying_kings && king) {
    flying_jumps(s, r, sq, (s.triples & b) != 0, out);
    return;
  }
  short_jumps(s, side_of(s, b), king ? 0 : b, king ? b : 0, out);
}

// Whether the piece on sq has any capture (cheaper than listing them).
bool has_jump(const CheckersState& s, const Rules& r, int sq) {
  const Bits b = bit(sq);
  if (r.flying_kings && (s.kings & b) != 0) {
    Hops hops;
    flying_jumps(s, r, sq, (s.triples & b) != 0, hops);
    return !hops.empty();
  }
  const int me = side_of(s, b);
  const bool king = (s.kings & b) != 0;
  const Bits opp = s.occ[static_cast<std::size_t>(1 - me)];
  const Bits empty = ~(s.occ[0] | s.occ[1]);
  for (int d = first_dir(me, king); d < last_dir(me, king); ++d) {
    if ((shift(shift(b, d) & opp, d) & empty) != 0) return true;
  }
  return false;
}

// Whether a short-jumping piece set of the side to move has any capture: bitboard test.
bool any_short_jump(Bits men, Bits kings, Bits opp, Bits empty, int me) {
  const int f0 = me == 0 ? 0 : 2;
  for (int d = f0; d < f0 + 2; ++d) {
    if ((shift(shift(men | kings, d) & opp, d) & empty) != 0) return true;
  }
  const int b0 = me == 0 ? 2 : 0;
  for (int d = b0; d < b0 + 2; ++d) {
    if ((shift(shift(kings, d) & opp, d) & empty) != 0) return true;
  }
  return false;
}

void all_jumps(const CheckersState& s, const Rules& r, Hops& out) {
  const int me = index(s.turn);
  const Bits mine = s.occ[static_cast<std::size_t>(me)];
  if (r.flying_kings) {  // flying kings (T3) one by one, men in bitboard form
    short_jumps(s, me, mine & ~s.kings, 0, out);
    for (Bits k = mine & s.kings; k != 0; k &= k - 1) {
      flying_jumps(s, r, std::countr_zero(k), (s.triples & (k & -k)) != 0, out);
    }
    return;
  }
  short_jumps(s, me, mine & ~s.kings, mine & s.kings, out);
}

// Steps in bitboard form: for each direction, destinations of movable pieces.
void all_steps(const CheckersState& s, const Rules& r, Hops& out) {
  const int me = index(s.turn);
  const Bits mine = s.occ[static_cast<std::size_t>(me)];
  const Bits empty = ~(s.occ[0] | s.occ[1]);
  for (int d = 0; d < 4; ++d) {
    const bool forward = me == 0 ? d < 2 : d >= 2;
    const Bits movers = forward ? mine : (mine & s.kings);
    for (Bits to = shift(movers, d) & empty; to != 0; to &= to - 1) {
      const int t = std::countr_zero(to);
      out.push({static_cast<std::int8_t>(nb(t, 3 - d)), static_cast<std::int8_t>(t), false, 0});
    }
  }
  if (r.triple_kings) {
    for (Bits m = mine & s.triples; m != 0; m &= m - 1) triple_leaps(s, std::countr_zero(m), out);
  }
}

// Most pieces a capture sequence can still remove after this hop (T2).
int best_continuation(const CheckersState& s, const Rules& r, const Hop& h);

int sequence_value(const CheckersState& s, const Rules& r, const Hop& h) {
  return std::popcount(h.captured) + best_continuation(s, r, h);
}

int best_continuation(const CheckersState& s, const Rules& r, const Hop& h) {
  const HopOutcome o = apply_hop(s, r, h, nullptr);
  if (o.turn_over) return 0;
  Hops next;
  piece_jumps(o.next, r, o.next.jumper, next);
  int best = 0;
  for (const Hop& n : next) best = std::max(best, sequence_value(o.next, r, n));
  return best;
}

// T2: keep only the hops that start a sequence removing the most pieces.
void keep_longest(const CheckersState& s, const Rules& r, Hops& hops) {
  std::array<int, 128> value{};
  int best = 0;
  for (int i = 0; i < hops.n; ++i) {
    value[static_cast<std::size_t>(i)] =
        sequence_value(s, r, hops.items[static_cast<std::size_t>(i)]);
    best = std::max(best, value[static_cast<std::size_t>(i)]);
  }
  int kept = 0;
  for (int i = 0; i < hops.n; ++i) {
    if (value[static_cast<std::size_t>(i)] == best) {
      hops.items[static_cast<std::size_t>(kept++)] = hops.items[static_cast<std::size_t>(i)];
    }
  }
  hops.n = kept;
}

void remove_pieces(CheckersState& n, Bits gone) {
  n.occ[0] &= ~gone;
  n.occ[1] &= ~gone;
  n.kings &= ~gone;
  n.triples &= ~gone;
  n.shields &= ~gone;
  n.bombs &= ~gone;
}

void push_squares(std::vector<Square>& out, Bits b) {
  for (; b != 0; b &= b - 1) out.push_back(sq_square(std::countr_zero(b)));
}

}  // namespace

void legal_hops(const CheckersState& s, const Rules& r, Hops& out) {
  if (s.jumper >= 0) {
    piece_jumps(s, r, s.jumper, out);
    if (r.largest_capture) keep_longest(s, r, out);
    return;
  }
  all_jumps(s, r, out);
  if (!r.capture_compulsory) {  // B4: capturing is never required
    all_steps(s, r, out);
    return;
  }
  if (!out.empty()) {  // K2, T2: capturing is compulsory
    if (r.largest_capture) keep_longest(s, r, out);
    return;
  }
  all_steps(s, r, out);
}

bool end_turn_legal(const CheckersState& s, const Rules& r) {
  return r.continuation_optional && s.jumper >= 0;  // B5: continuing is the player's choice
}

CheckersState apply_end_turn(const CheckersState& s) {
  CheckersState n = s;
  n.turn = other(s.turn);
  n.jumper = -1;
  return n;
}

HopOutcome apply_hop(const CheckersState& s, const Rules& r, const Hop& h, Effects* fx) {
  CheckersState n = s;
  const Side me = s.turn;
  const Bits from = bit(h.from);
  const Bits to = bit(h.to);
  const bool was_man = (s.kings & from) == 0;
  const Bits moved = from | to;
  auto move = [&](Bits& m) {
    if ((m & from) != 0) m ^= moved;
  };
  move(n.occ[0]);
  move(n.occ[1]);
  move(n.kings);
  move(n.triples);
  move(n.shields);
  move(n.bombs);

  bool removed = false;
  if (h.captured != 0) {
    remove_pieces(n, h.captured);
    removed = true;
    if (fx != nullptr) push_squares(fx->captured, h.captured);
  }

  // B7, B8: a bomb explodes when it jumps, never when it steps; shields survive, no chains.
  // (Revision 1 also blew up a bomb that stepped onto the far row.)
  bool exploded = false;
  if ((n.bombs & to) != 0 && (h.jump || (r.far_row_step_explodes && (to & far_row(me)) != 0))) {
    const Bits victims = (n.occ[0] | n.occ[1]) & blast(h.to) & ~n.shields;
    remove_pieces(n, victims);
    removed = true;
    exploded = true;
    if (fx != nullptr) push_squares(fx->exploded, victims);
  }

  // C4, B8, T4: crowning at every hop, of every kind of piece (a bomb only by a step: a jumping
  // bomb has exploded).
  bool crowned = false;
  if (!exploded) {
    if ((n.kings & to) == 0 && (to & far_row(me)) != 0) {
      n.kings |= to;
      crowned = true;
    } else if (r.triple_kings && (n.kings & to) != 0 && (n.triples & to) == 0 &&
               (to & back_row(me)) != 0) {
      n.triples |= to;
      crowned = true;
    }
    if (crowned && fx != nullptr) fx->promoted.push_back(sq_square(h.to));
  }

  bool turn_over = true;
  if (h.jump && !exploded && !(r.crowning_ends_turn && crowned)) {  // B7, K4
    turn_over = !has_jump(n, r, h.to);  // B5, K3, T2: the sequence goes on while it can jump
  }

  // C6: only a king's quiet step keeps the no-progress count going.
  if (removed || was_man) {
    n.quiet_turns = 0;
  } else if (turn_over) {
    n.quiet_turns = static_cast<std::uint16_t>(n.quiet_turns + 1);
  }

  if (turn_over) {
    n.turn = other(me);
    n.jumper = -1;
    if (n.turns < UINT16_MAX) ++n.turns;  // C7
  } else {
    n.jumper = h.to;
  }
  if (fx != nullptr) fx->turn_over = turn_over;
  return {n, turn_over};
}

std::optional<Result> checkers_result(const CheckersState& s, const Rules& r, const Options& o) {
  const bool first_empty = s.occ[0] == 0;
  const bool second_empty = s.occ[1] == 0;
  if (first_empty && second_empty) return Result{std::nullopt, Reason::MutualDestruction};  // B9
  if (first_empty) return Result{Side::Second, Reason::NoPieces};                           // C5
  if (second_empty) return Result{Side::First, Reason::NoPieces};
  // C5 before C6: a turn that leaves the opponent without a move wins even when it is also the
  // last quiet turn the draw rule allows (as checkmate outranks chess's 50-move rule).
  Hops hops;
  legal_hops(s, r, hops);
  if (hops.empty() && !end_turn_legal(s, r)) return Result{other(s.turn), Reason::NoMoves};
  if (o.draw_turns > 0 && s.quiet_turns >= o.draw_turns) {  // C6
    return Result{std::nullopt, Reason::DrawRule};
  }
  if (r.turn_limit > 0 && s.turns >= r.turn_limit) {  // C7
    return Result{std::nullopt, Reason::TurnLimit};
  }
  return std::nullopt;
}

CheckersState checkers_start(VariantId v) {
  CheckersState s;
  for (int i = 0; i < 12; ++i) {
    s.occ[0] |= bit(i);
    s.occ[1] |= bit(31 - i);
  }
  if (checkers_rules(v).piece_kinds) {  // B2: back row normal, then shields, then bombs
    s.shields = 0x0000'00F0u | 0x0F00'0000u;
    s.bombs = 0x0000'0F00u | 0x00F0'0000u;
  }
  return s;
}

std::optional<std::string> checkers_from_position(VariantId v, const Position& p,
                                                  CheckersState& out) {
  CheckersState s;
  s.turn = p.turn;
  std::array<int, 2> count{};
  for (const Piece& piece : p.pieces) {
    const std::string where =
        "[" + std::to_string(piece.at.x) + "," + std::to_string(piece.at.y) + "]";
    if (!on_board(piece.at)) return "square " + where + " is off the 8x8 board";
    if (!playable(piece.at)) return "square " + where + " is not a playable (dark) square";
    const int i = sq_index(piece.at.x, piece.at.y);
    if (((s.occ[0] | s.occ[1]) & bit(i)) != 0) return "two pieces on square " + where;
    if (piece.kind != Kind::Normal && !checkers_rules(v).piece_kinds) {
      return "the " + std::string(variant_key(v)) + " variant has only normal pieces";
    }
    if (piece.rank == Rank::TripleKing && !checkers_rules(v).triple_kings) {
      return "triple kings exist only in the triple_king variant";
    }
    if (piece.rank == Rank::Man && (bit(i) & far_row(piece.side)) != 0) {
      return "the man on " + where + " stands on its far row and would have been crowned";
    }
    if (++count[static_cast<std::size_t>(index(piece.side))] > 12) {
      return "a side has more than 12 pieces";
    }
    s.occ[static_cast<std::size_t>(index(piece.side))] |= bit(i);
    if (piece.rank != Rank::Man) s.kings |= bit(i);
    if (piece.rank == Rank::TripleKing) s.triples |= bit(i);
    if (piece.kind == Kind::Shield) s.shields |= bit(i);
    if (piece.kind == Kind::Bomb) s.bombs |= bit(i);
  }
  out = s;
  return std::nullopt;
}

// ---- perft: complete turns, bulk-counted at the last ply.
namespace {

template <typename F>
void for_each_turn(const CheckersState& s, const Rules& r, F&& f) {
  Hops hops;
  legal_hops(s, r, hops);
  for (const Hop& h : hops) {
    const HopOutcome o = apply_hop(s, r, h, nullptr);
    if (o.turn_over) {
      f(o.next);
    } else {
      for_each_turn(o.next, r, f);
    }
  }
  if (end_turn_legal(s, r)) f(apply_end_turn(s));
}

// Turns that continue from a mid-sequence state.
std::uint64_t count_sequence(const CheckersState& s, const Rules& r) {
  std::uint64_t n = end_turn_legal(s, r) ? 1 : 0;
  Hops hops;
  legal_hops(s, r, hops);
  for (const Hop& h : hops) {
    const HopOutcome o = apply_hop(s, r, h, nullptr);
    n += o.turn_over ? 1 : count_sequence(o.next, r);
  }
  return n;
}

std::uint64_t count_turns(const CheckersState& s, const Rules& r) {
  const int me = index(s.turn);
  const Bits mine = s.occ[static_cast<std::size_t>(me)];
  if (r.flying_kings && (mine & s.kings) != 0) return count_sequence(s, r);
  const Bits opp = s.occ[static_cast<std::size_t>(1 - me)];
  const Bits empty = ~(s.occ[0] | s.occ[1]);
  const Bits kings = mine & s.kings;
  const bool can_jump = any_short_jump(mine & ~s.kings, kings, opp, empty, me);
  std::uint64_t n = 0;
  if (can_jump) {
    Hops hops;
    all_jumps(s, r, hops);
    if (r.largest_capture) keep_longest(s, r, hops);
    for (const Hop& h : hops) {
      const HopOutcome o = apply_hop(s, r, h, nullptr);
      n += o.turn_over ? 1 : count_sequence(o.next, r);
    }
    if (r.capture_compulsory) return n;  // K2, T2: compulsory capture
  }
  // Every step is one turn.
  const int f0 = me == 0 ? 0 : 2;
  const int b0 = me == 0 ? 2 : 0;
  return n + static_cast<std::uint64_t>(std::popcount(shift(mine, f0) & empty) +
                                        std::popcount(shift(mine, f0 + 1) & empty) +
                                        std::popcount(shift(kings, b0) & empty) +
                                        std::popcount(shift(kings, b0 + 1) & empty));
}

bool game_over(const CheckersState& s, const Rules& r, const Options& o) {
  return s.occ[0] == 0 || s.occ[1] == 0 || (o.draw_turns > 0 && s.quiet_turns >= o.draw_turns) ||
         (r.turn_limit > 0 && s.turns >= r.turn_limit);
}

std::uint64_t perft_rec(const CheckersState& s, const Rules& r, const Options& o, int depth) {
  if (game_over(s, r, o)) return 0;
  if (depth == 1) return count_turns(s, r);
  std::uint64_t n = 0;
  for_each_turn(s, r, [&](const CheckersState& next) { n += perft_rec(next, r, o, depth - 1); });
  return n;
}

}  // namespace

std::uint64_t checkers_perft(const CheckersState& s, const Rules& r, const Options& o, int depth) {
  if (depth <= 0) return 1;
  if (s.jumper >= 0) {  // finish the turn under way first; each finished turn is depth 1
    std::uint64_t n = 0;
    for_each_turn(s, r, [&](const CheckersState& next) {
      n += depth == 1 ? 1 : perft_rec(next, r, o, depth - 1);
    });
    return n;
  }
  return perft_rec(s, r, o, depth);
}

}  // namespace bc::detail

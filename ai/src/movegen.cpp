#include "movegen.hpp"

#include <bit>
#include <variant>

#include "board.hpp"

namespace bc::ai::detail {
namespace {

// Rough material of one side, for ordering captures (a king counts as two and a half men).
int rough_material(const CheckersState& s, int side) {
  const Bits own = s.occ[static_cast<std::size_t>(side)];
  return 2 * std::popcount(own) + 3 * std::popcount(own & s.kings);
}

std::uint32_t checkers_sig(const Move& m) {
  std::uint32_t h = 2166136261u;
  auto mix = [&h](std::uint32_t x) {
    h ^= x;
    h *= 16777619u;
  };
  for (int i = 0; i <= m.hops; ++i)
    mix(static_cast<std::uint32_t>(m.sq[static_cast<std::size_t>(i)]));
  mix(static_cast<std::uint32_t>(m.hops) | (m.end_turn ? 0x100u : 0u) | (m.jump ? 0x200u : 0u));
  return h == 0 ? 1 : h;
}

struct CheckersGen {
  const CheckersState& root;
  int me;
  bool captures_only;
  std::vector<Child>& out;
  Move path{};

  void emit(const Game& next) {
    Move m = path;
    set_index(m);
    const auto& n = std::get<CheckersState>(next.state());
    m.gain = (rough_material(root, 1 - me) - rough_material(n, 1 - me)) -
             (rough_material(root, me) - rough_material(n, me));
    out.push_back({m, next, 0});
  }

  void set_index(Move& m) const {
    m.sig = checkers_sig(m);
    const int from = m.sq[0];
    const int to = m.sq[m.hops];
    m.history_index = static_cast<std::uint16_t>((me * 32 + from) * 32 + to);
  }

  void walk(const Game& g, bool first) {
    for (const Action& a : g.legal()) {
      if (a.kind == ActionKind::EndTurn) {
        path.end_turn = true;
        emit(g.apply(a)->next);
        path.end_turn = false;
        continue;
      }
      if (first && a.kind == ActionKind::Step) {
        const int from = sq_index(a.from);
        const int to = sq_index(a.to);
        // B8: a bomb stepping onto the far row is crowned (under rules revision 1 it exploded):
        // a tactical turn like a capture, so quiescence looks at it too.
        const bool crowns =
            (root.bombs & bit(from)) != 0 && (root.kings & bit(from)) == 0 && rel_row(to, me) == 7;
        if (captures_only && !crowns) continue;
        path.sq[0] = static_cast<std::int8_t>(from);
        path.sq[1] = static_cast<std::int8_t>(to);
        path.hops = 1;
        path.jump = false;
        if (crowns) {
          emit(g.apply(a)->next);
        } else {
          Move m = path;
          set_index(m);
          out.push_back({m, std::nullopt, 0});
        }
        path.hops = 0;
        continue;
      }
      auto applied = g.apply(a);
      if (first) {
        path.sq[0] = static_cast<std::int8_t>(sq_index(a.from));
        path.jump = true;
      }
      if (path.hops >= kMaxHops) continue;  // cannot happen: 12 pieces at most
      path.sq[static_cast<std::size_t>(++path.hops)] = static_cast<std::int8_t>(sq_index(a.to));
      if (applied->effects.turn_over) {
        emit(applied->next);
      } else {
        walk(applied->next, false);
      }
      --path.hops;
    }
  }
};

}  // namespace

void generate(const Game& g, bool captures_only, std::vector<Child>& out) {
  if (const auto* c = std::get_if<CheckersState>(&g.state())) {
    CheckersGen gen{*c, index(c->turn), captures_only, out};
    if (c->jumper >= 0) {  // mid-turn: the rest of the turn of the jumping piece
      gen.path.sq[0] = c->jumper;
      gen.path.jump = true;
      gen.walk(g, false);
    } else {
      gen.walk(g, true);
    }
    return;
  }
  const int me = index(g.turn());
  const int w = g.width();
  for (const Action& a : g.legal()) {
    Move m;
    m.action = a;
    if (a.kind == ActionKind::Drop) {
      const int bomb = a.piece == Kind::Bomb ? 1 : 0;
      m.sig = static_cast<std::uint32_t>(1 + (bomb << 8) + a.column);
      m.history_index = static_cast<std::uint16_t>(me * 512 + bomb * 16 + a.column);
    } else {
      const int cell = a.at.y * w + a.at.x;
      m.sig = static_cast<std::uint32_t>(1 + (2 << 8) + cell);
      m.history_index = static_cast<std::uint16_t>(me * 512 + 32 + cell);
      m.jump = true;
    }
    out.push_back({m, std::nullopt, 0});
  }
}

const Game& materialize(const Game& parent, Child& c) {
  if (!c.next) {
    const Turn t = to_turn(c.move, parent.variant());
    c.next = parent.apply(t.actions.front())->next;  // lazily applied turns are single actions
  }
  return *c.next;
}

Turn to_turn(const Move& m, VariantId v) {
  Turn t;
  if (!is_checkers(v)) {
    t.actions.push_back(m.action);
    return t;
  }
  for (int i = 0; i < m.hops; ++i) {
    const Square f = sq_square(m.sq[static_cast<std::size_t>(i)]);
    const Square to = sq_square(m.sq[static_cast<std::size_t>(i + 1)]);
    t.actions.push_back(m.jump ? Action::jump(f, to) : Action::step(f, to));
  }
  if (m.end_turn) t.actions.push_back(Action::end_turn());
  return t;
}

}  // namespace bc::ai::detail

// Game: the variant-independent face of the rules. Dispatches to the checkers or Kaboom engine.
#include <algorithm>
#include <bit>
#include <tuple>

#include "internal.hpp"

namespace bc {
namespace {

// CheckersState is bc::CheckersState (public header).
using detail::Hop;
using detail::Hops;

Action to_action(const Hop& h) {
  const Square f = detail::sq_square(h.from);
  const Square t = detail::sq_square(h.to);
  return h.jump ? Action::jump(f, t) : Action::step(f, t);
}

bool matches(const Hop& h, const Action& a) {
  if (a.kind != (h.jump ? ActionKind::Jump : ActionKind::Step)) return false;
  if (!detail::playable(a.from) || !detail::playable(a.to)) return false;
  return detail::sq_index(a.from.x, a.from.y) == h.from && detail::sq_index(a.to.x, a.to.y) == h.to;
}

void collect_turns(const Game& g, std::vector<Action>& path, std::vector<Turn>& out) {
  for (const Action& a : g.legal()) {
    auto applied = g.apply(a);
    path.push_back(a);
    if (applied->effects.turn_over) {
      out.push_back({path});
    } else {
      collect_turns(applied->next, path, out);
    }
    path.pop_back();
  }
}

}  // namespace

std::variant<Game, std::string> Game::create(VariantId v, const Options& o) {
  if (auto err = validate_options(o, v)) return *err;
  Game g;
  g.variant_ = v;
  g.options_ = o;
  if (is_checkers(v)) {
    g.state_ = detail::checkers_start(v);
  } else {
    g.state_ = detail::kaboom_start(o);
  }
  g.settle_result();
  return g;
}

std::variant<Game, std::string> Game::from_position(VariantId v, const Options& o,
                                                    const Position& p) {
  if (auto err = validate_options(o, v)) return *err;
  Game g;
  g.variant_ = v;
  g.options_ = o;
  if (is_checkers(v)) {
    CheckersState s;
    if (auto err = detail::checkers_from_position(v, p, s)) return *err;
    g.state_ = s;
  } else {
    KaboomState s;
    if (auto err = detail::kaboom_from_position(o, p, s)) return *err;
    g.state_ = s;
  }
  g.settle_result();
  if (g.result_) {
    return "the game would already be over (" + std::string(reason_name(g.result_->reason)) + ")";
  }
  return g;
}

int Game::width() const {
  return is_checkers(variant_) ? 8 : options_.width;
}
int Game::height() const {
  return is_checkers(variant_) ? 8 : options_.height;
}

Side Game::turn() const {
  return std::visit([](const auto& s) { return s.turn; }, state_);
}

std::vector<Piece> Game::pieces() const {
  std::vector<Piece> out;
  if (const auto* c = std::get_if<CheckersState>(&state_)) {
    out.reserve(static_cast<std::size_t>(std::popcount(c->occ[0] | c->occ[1])));  // one allocation
    for (int i = 0; i < 32; ++i) {
      const detail::Bits b = detail::bit(i);
      if (((c->occ[0] | c->occ[1]) & b) == 0) continue;
      Piece p;
      p.at = detail::sq_square(i);
      p.side = (c->occ[1] & b) != 0 ? Side::Second : Side::First;
      p.kind = (c->bombs & b) != 0     ? Kind::Bomb
               : (c->shields & b) != 0 ? Kind::Shield
                                       : Kind::Normal;
      p.rank = (c->triples & b) != 0 ? Rank::TripleKing
               : (c->kings & b) != 0 ? Rank::King
                                     : Rank::Man;
      out.push_back(p);
    }
    return out;
  }
  const auto& k = std::get<KaboomState>(state_);
  out.reserve(static_cast<std::size_t>(
      std::count_if(k.cells.begin(), k.cells.end(), [](std::uint8_t c) { return c != 0; })));
  for (int y = 0; y < height(); ++y) {
    for (int x = 0; x < width(); ++x) {
      const std::uint8_t cell = k.cells[static_cast<std::size_t>(y * width() + x)];
      if (cell == 0) continue;
      out.push_back({{x, y},
                     (cell - 1) % 2 == 0 ? Side::First : Side::Second,
                     cell >= 3 ? Kind::Bomb : Kind::Normal,
                     Rank::Man});
    }
  }
  return out;
}

std::optional<Piece> Game::piece_at(Square s) const {
  for (const Piece& p : pieces()) {
    if (p.at == s) return p;
  }
  return std::nullopt;
}

std::array<int, 2> Game::bombs_left() const {
  if (const auto* k = std::get_if<KaboomState>(&state_))
    return {k->bombs_left[0], k->bombs_left[1]};
  return {0, 0};
}

bool Game::mid_turn() const {
  return jumper().has_value();
}

std::optional<Square> Game::jumper() const {
  if (const auto* c = std::get_if<CheckersState>(&state_); c != nullptr && c->jumper >= 0) {
    return detail::sq_square(c->jumper);
  }
  return std::nullopt;
}

int Game::quiet_turns() const {
  if (const auto* c = std::get_if<CheckersState>(&state_)) return c->quiet_turns;
  return 0;
}

int Game::turns_played() const {
  if (const auto* c = std::get_if<CheckersState>(&state_)) return c->turns;
  return 0;
}

std::vector<Action> Game::legal() const {
  std::vector<Action> out;
  if (result_) return out;
  if (const auto* c = std::get_if<CheckersState>(&state_)) {
    Hops hops;
    detail::legal_hops(*c, detail::rules_of(variant_, options_), hops);
    out.reserve(static_cast<std::size_t>(hops.n) + 1);
    for (const Hop& h : hops) out.push_back(to_action(h));
    std::sort(out.begin(), out.end(), [](const Action& l, const Action& r) {
      return std::tie(l.kind, l.from, l.to) < std::tie(r.kind, r.from, r.to);
    });
    if (detail::end_turn_legal(*c, detail::rules_of(variant_, options_)))
      out.push_back(Action::end_turn());
    return out;
  }
  detail::kaboom_legal(std::get<KaboomState>(state_), options_, out);
  return out;
}

bool Game::is_legal(const Action& a) const {
  const auto l = legal();
  return std::find(l.begin(), l.end(), a) != l.end();
}

std::optional<Applied> Game::apply(const Action& a) const {
  if (result_) return std::nullopt;
  Applied out{*this, {}};
  if (const auto* c = std::get_if<CheckersState>(&state_)) {
    if (a.kind == ActionKind::EndTurn) {
      if (a != Action::end_turn() ||
          !detail::end_turn_legal(*c, detail::rules_of(variant_, options_)))
        return std::nullopt;
      out.next.state_ = detail::apply_end_turn(*c);
      out.effects.turn_over = true;
    } else {
      Hops hops;
      detail::legal_hops(*c, detail::rules_of(variant_, options_), hops);
      const Hop* hop = std::find_if(hops.begin(), hops.end(), [&](const Hop& h) {
        return matches(h, a) && a == to_action(h);
      });
      if (hop == hops.end()) return std::nullopt;
      out.next.state_ =
          detail::apply_hop(*c, detail::rules_of(variant_, options_), *hop, &out.effects).next;
    }
  } else {
    if (!is_legal(a)) return std::nullopt;
    out.next.state_ =
        detail::kaboom_apply(std::get<KaboomState>(state_), options_, a, &out.effects);
  }
  if (out.effects.turn_over) out.next.settle_result();
  return out;
}

std::vector<Turn> Game::turns() const {
  std::vector<Turn> out;
  std::vector<Action> path;
  collect_turns(*this, path, out);
  return out;
}

void Game::settle_result() {
  if (const auto* c = std::get_if<CheckersState>(&state_)) {
    result_ = detail::checkers_result(*c, detail::rules_of(variant_, options_), options_);
  } else {
    result_ = detail::kaboom_result(std::get<KaboomState>(state_), options_);
  }
}

Game Game::ended(Result r) const {
  Game g = *this;
  g.result_ = r;
  return g;
}

Game Game::resigned(Side loser) const {
  return ended(Result{other(loser), Reason::Resigned});
}

Game Game::drawn_by_agreement() const {
  return ended(Result{std::nullopt, Reason::DrawAgreed});
}

bool Game::can_ever_win(Side s) const {
  if (over()) return result_->winner == s;
  // S2: in the checkers variants the other side can always be helped into having no move (packed
  // on its far rows), so no material count proves a win impossible.
  if (const auto* k = std::get_if<KaboomState>(&state_)) {
    return detail::kaboom_can_ever_win(*k, options_, s);
  }
  return true;
}

std::uint64_t Game::hash() const {
  // FNV-1a over the rules-relevant bytes: equal games hash equal.
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::uint64_t x) {
    for (int i = 0; i < 8; ++i) {
      h ^= (x >> (8 * i)) & 0xFF;
      h *= 1099511628211ull;
    }
  };
  mix(static_cast<std::uint64_t>(variant_));
  if (const auto* c = std::get_if<CheckersState>(&state_)) {
    mix(c->occ[0] | (std::uint64_t{c->occ[1]} << 32));
    mix(c->kings | (std::uint64_t{c->triples} << 32));
    mix(c->shields | (std::uint64_t{c->bombs} << 32));
    mix(static_cast<std::uint64_t>(c->turn) | (static_cast<std::uint64_t>(c->jumper + 1) << 8) |
        (std::uint64_t{c->quiet_turns} << 16));
  } else {
    const auto& k = std::get<KaboomState>(state_);
    for (std::uint8_t cell : k.cells) mix(cell);
    mix(k.bombs_left[0] | (k.bombs_left[1] << 8) | (static_cast<int>(k.turn) << 16));
  }
  mix(result_ ? 1 + static_cast<std::uint64_t>(result_->reason) : 0);
  return h;
}

}  // namespace bc

// Resolving `create` and `join` against core: which game, which options and start, which seat. No
// JSON here: the parser has already turned the request into typed fields.
#include <algorithm>

#include "bc/players/speed.hpp"
#include "server/wire/json.hpp"  // join_names

namespace bc::server {

namespace {

// One option of a create: known to the variant, of its type and in its range.
std::optional<Error> apply_option(VariantId v, Options& options, const std::string& name,
                                  const OptionValue& value) {
  auto specs = option_specs(v);
  auto spec =
      std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& o) { return o.name == name; });
  if (spec == specs.end()) {
    std::vector<std::string_view> names;
    for (const auto& o : specs) names.push_back(o.name);
    std::string known = names.empty() ? std::string("it has no options")
                                      : "its options are " + join_names(names, " and ");
    return Error{ErrorCode::BadOptions, "the " + std::string(variant_key(v)) +
                                            " variant has no option '" + name + "'; " + known};
  }
  int iv = 0;
  if (spec->type == OptionType::Bool) {
    const bool* b = std::get_if<bool>(&value);
    if (!b) return Error{ErrorCode::BadOptions, "option '" + name + "' must be true or false"};
    iv = *b ? 1 : 0;
  } else {
    const std::int64_t* n = std::get_if<std::int64_t>(&value);
    if (!n) return Error{ErrorCode::BadOptions, "option '" + name + "' must be an integer"};
    if (*n < spec->min || *n > spec->max) {
      return Error{ErrorCode::BadOptions, "option '" + name + "' must be between " +
                                              std::to_string(spec->min) + " and " +
                                              std::to_string(spec->max)};
    }
    iv = static_cast<int>(*n);
  }
  if (auto err = set_option(options, v, name, iv)) return Error{ErrorCode::BadOptions, *err};
  return std::nullopt;
}

// A create's custom start: its pieces, turn and bombs in core's types (core judges the position).
std::variant<Position, Error> position_of(VariantId v, const Options& options,
                                          const RawPosition& raw) {
  Position p;
  std::size_t n = 0;
  for (const auto& rp : raw.pieces) {
    ++n;
    std::string where = "piece " + std::to_string(n);
    auto side = side_from_name(v, rp.side);
    if (!side) {
      return Error{ErrorCode::BadPosition,
                   where + ": '" + rp.side + "' is not a side of " + std::string(variant_key(v))};
    }
    auto kind = rp.kind.empty() ? std::optional<Kind>(Kind::Normal) : kind_from_name(rp.kind);
    if (!kind) return Error{ErrorCode::BadPosition, where + ": unknown kind '" + rp.kind + "'"};
    auto rank = rp.rank.empty() ? std::optional<Rank>(Rank::Man) : rank_from_name(rp.rank);
    if (!rank) return Error{ErrorCode::BadPosition, where + ": unknown rank '" + rp.rank + "'"};
    p.pieces.push_back(Piece{rp.at, *side, *kind, *rank});
  }
  if (!raw.turn.empty()) {
    auto t = side_from_name(v, raw.turn);
    if (!t) return Error{ErrorCode::BadPosition, "turn: '" + raw.turn + "' is not a side"};
    p.turn = *t;
  }
  int def_bombs = v == VariantId::Kaboom ? options.bombs : 0;
  p.bombs = {def_bombs, def_bombs};
  if (raw.has_bombs) {
    for (const auto& [side_key, count] : raw.bombs) {
      auto side = side_from_name(v, side_key);
      if (!side) return Error{ErrorCode::BadPosition, "bombs: '" + side_key + "' is not a side"};
      if (count < 0) return Error{ErrorCode::BadPosition, "bombs: a count cannot be negative"};
      p.bombs[static_cast<std::size_t>(index(*side))] = count;
    }
  }
  return p;
}

}  // namespace

std::variant<GameSetup, Error> resolve_create(const CreateMsg& m) {
  auto v = variant_from_key(m.variant);
  if (!v) {
    std::vector<std::string_view> keys;
    for (auto k : kAllVariants) keys.push_back(variant_key(k));
    return Error{ErrorCode::UnknownVariant, "unknown variant '" + m.variant +
                                                "'; the variants are " + join_names(keys, " and ")};
  }
  Options options = default_options(*v);
  for (const auto& [name, value] : m.options) {
    if (auto err = apply_option(*v, options, name, value)) return *err;
  }
  if (auto err = validate_options(options, *v)) return Error{ErrorCode::BadOptions, *err};

  if (m.clock_error) return Error{ErrorCode::BadOptions, *m.clock_error};
  const bool one_screen = m.seat == "both";
  if (one_screen && m.opponent) {
    return Error{ErrorCode::BadMessage,
                 "a game with both sides on one screen has no seat left for the computer"};
  }
  if (!m.names.empty() && !one_screen) {
    return Error{ErrorCode::BadMessage, "`names` is for a one-screen game (\"seat\":\"both\")"};
  }
  for (const auto& [side, name] : m.names) {
    if (!side_from_name(*v, side)) {
      return Error{ErrorCode::BadMessage,
                   "`names`: '" + side + "' is not a side of " + std::string(variant_key(*v))};
    }
  }
  if (m.range_error) return Error{ErrorCode::BadOptions, *m.range_error};
  if (m.range && !m.rated) {
    return Error{ErrorCode::BadOptions, "a rating `range` is for a rated game (`rated`: true)"};
  }
  if (m.rated) {
    if (!m.clock) {
      return Error{ErrorCode::BadOptions,
                   "a rated game needs a clock: `clock` with base and increment, or days a move"};
    }
    if (one_screen || m.opponent || m.position) {
      return Error{ErrorCode::BadOptions,
                   "a rated game is between two signed-in people from the variant's own start: "
                   "not at one screen, not against the computer, not from a custom position"};
    }
  }
  if (m.position_error) return Error{ErrorCode::BadPosition, *m.position_error};
  if (m.position) {
    auto p = position_of(*v, options, *m.position);
    if (auto* err = std::get_if<Error>(&p)) return *err;
    auto g = Game::from_position(*v, options, std::get<Position>(p));
    if (auto* err = std::get_if<std::string>(&g)) return Error{ErrorCode::BadPosition, *err};
    return GameSetup{
        *v,      options,   std::get<Position>(std::move(p)), std::get<Game>(std::move(g)),
        m.clock, one_screen};
  }
  auto g = Game::create(*v, options);
  if (auto* err = std::get_if<std::string>(&g)) return Error{ErrorCode::BadOptions, *err};
  return GameSetup{*v,      options,    std::nullopt, std::get<Game>(std::move(g)),
                   m.clock, one_screen, m.rated,      m.range};
}

std::string perf_of(const GameSetup& s) {
  std::string perf(variant_key(s.variant));
  if (!s.clock) return perf;
  const auto speed = s.clock->kind == TimeControl::Kind::Correspondence
                         ? players::Speed::correspondence
                         : players::speed_of_clock(s.clock->base_ms, s.clock->increment_ms);
  return perf + ":" + std::string(players::speed_name(speed));
}

Game fresh_game(const GameSetup& s) {
  // The setup was accepted once, so it is accepted again; fall back to the old start otherwise.
  auto g = s.position ? Game::from_position(s.variant, s.options, *s.position)
                      : Game::create(s.variant, s.options);
  if (auto* game = std::get_if<Game>(&g)) return *game;
  return s.game;
}

std::variant<SeatChoice, Error> resolve_seat(VariantId v, std::string_view seat, bool for_create) {
  if (auto s = side_from_name(v, seat)) return SeatChoice{SeatKind::Side, *s};
  if (seat == "spectator") return SeatChoice{SeatKind::Spectator, Side::First};
  if (seat == "both" && for_create) return SeatChoice{SeatKind::Both, Side::First};
  if (seat == "random" || seat == "any") {
    return SeatChoice{for_create ? SeatKind::Random : SeatKind::Any, Side::First};
  }
  std::string sides =
      std::string(side_name(v, Side::First)) + ", " + std::string(side_name(v, Side::Second));
  return Error{
      ErrorCode::BadMessage,
      "`seat` must be " + sides + (for_create ? ", random, both" : ", any") + " or spectator"};
}

}  // namespace bc::server

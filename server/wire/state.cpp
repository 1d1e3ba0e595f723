// The `state` message (docs/PROTOCOL.md, "state"), the one sent after every change, and its
// `delta` (docs/PROTOCOL.md, "Compact states"): both written straight into their texts by the one
// Writer (json.hpp), field by field, the delta from comparing two snapshots' values.
#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "server/wire/json.hpp"
#include "server/wire/sequence_edit.hpp"
#include "server/wire/state_snapshot.hpp"

namespace bc::server {

namespace {

// The state's `last`: what the previous turn did, or null.
void write_last(Writer& w, VariantId v, const std::optional<LastTurn>* last,
                bool short_actions = false) {
  if (!last || !*last) {
    w.raw("null");
    return;
  }
  const LastTurn& t = **last;
  w.raw("{\"side\":");
  w.str(side_name(v, t.side));
  w.raw(",\"actions\":");
  if (short_actions) {
    w.short_actions(t.actions);
  } else {
    w.actions(t.actions);
  }
  w.raw(",\"captured\":");
  w.squares(t.captured);
  w.raw(",\"exploded\":");
  w.squares(t.exploded);
  w.raw(",\"promoted\":");
  w.squares(t.promoted);
  w.raw(",\"complete\":");
  w.boolean(t.complete);
  w.raw("}");
}

// Writes a top-level field's key of a state (the comma before it but the first).
class FieldKeys {
 public:
  explicit FieldKeys(std::string& out) : out_(out) {}
  void operator()(std::string_view key) {
    // One resize for `,"key":`: this runs some thirty times for every state written.
    const std::size_t at = out_.size();
    out_.resize(at + key.size() + 4);
    char* p = out_.data() + at;
    *p++ = started_ ? ',' : '{';
    *p++ = '"';
    std::memcpy(p, key.data(), key.size());
    p += key.size();
    *p++ = '"';
    *p = ':';
    started_ = true;
  }

 private:
  std::string& out_;
  bool started_ = false;
};

// The fields a room's states may differ in, in the order states hold them: every field from
// `version` on. Those before it (type, room, variant, options and what they imply) are the
// room's for its whole life.
// clang-format off
enum class Field : std::uint8_t {
  Version, Status, Turn, Board, Legal, Last, Result, Players, Spectators, Bombs, Connect,
  MidTurn, Jumper, Moves, Game, DrawOffer, Rematch, Clock, AbortAt, TakebackOffer, Away, Hints,
};
struct Named {
  Field field;
  std::string_view key;
};
constexpr Named kFields[] = {
    {Field::Version, "version"}, {Field::Status, "status"}, {Field::Turn, "turn"},
    {Field::Board, "board"}, {Field::Legal, "legal"}, {Field::Last, "last"},
    {Field::Result, "result"}, {Field::Players, "players"}, {Field::Spectators, "spectators"},
    {Field::Bombs, "bombs"}, {Field::Connect, "connect"}, {Field::MidTurn, "mid_turn"},
    {Field::Jumper, "jumper"}, {Field::Moves, "moves"}, {Field::Game, "game"},
    {Field::DrawOffer, "draw_offer"}, {Field::Rematch, "rematch"}, {Field::Clock, "clock"},
    {Field::AbortAt, "abort_at"}, {Field::TakebackOffer, "takeback_offer"},
    {Field::Away, "away"}, {Field::Hints, "hints"},
};
// clang-format on

// The turns a state lists: the game's legal ones while it is played, none in a replayed position.
std::vector<Action> listed_legal(const StateView& v) {
  return v.status == RoomStatus::Playing && v.with_legal ? v.game->legal() : std::vector<Action>{};
}

// A state being written: its view, with the game's pieces and legal turns at hand.
struct Source {
  explicit Source(const StateView& view) : s(view), g(*view.game), v(g.variant()) {
    if (!s.pieces) own_pieces = g.pieces();
    if (!s.legal) own_legal = listed_legal(s);
  }
  const std::vector<Piece>& pieces() const { return s.pieces ? *s.pieces : own_pieces; }
  const std::vector<Action>& legal() const { return s.legal ? *s.legal : own_legal; }
  const StateView& s;
  const Game& g;
  VariantId v;
  std::vector<Piece> own_pieces;
  std::vector<Action> own_legal;
};

bool present(Field f, VariantId v) {
  return (f != Field::Bombs && f != Field::Connect) || v == VariantId::Kaboom;
}

void write_optional_side(Writer& w, VariantId v, const std::optional<Side>& side) {
  if (side) {
    w.str(side_name(v, *side));
  } else {
    w.raw("null");
  }
}

void write_clock(Writer& w, VariantId v, const ClockView& c) {
  w.raw("{\"control\":");
  w.str(time_control_text(c.control));
  w.raw(",\"left\":{");
  for (Side side : {Side::First, Side::Second}) {
    if (side == Side::Second) w.raw(",");
    w.str(side_name(v, side));
    w.raw(":");
    w.num(c.left[static_cast<std::size_t>(index(side))]);
  }
  w.raw("},\"running\":");
  write_optional_side(w, v, c.running);
  w.raw(",\"at\":");
  w.num(c.at);
  w.raw("}");
}

// Field f's value; `short_actions`: the actions of `legal` and `last` as short strings.
void write_value(Field f, Writer& w, const Source& src, bool short_actions) {
  const StateView& s = src.s;
  const Game& g = src.g;
  const VariantId v = src.v;
  switch (f) {
    case Field::Version:
      return w.num(s.version);
    case Field::Status:
      return w.str(status_name(s.status));
    case Field::Turn:
      return w.str(side_name(v, g.turn()));
    case Field::Board:
      w.raw("{\"width\":");
      w.num(g.width());
      w.raw(",\"height\":");
      w.num(g.height());
      w.raw(",\"pieces\":");
      w.pieces(v, src.pieces());
      return w.raw("}");
    case Field::Legal:
      return short_actions ? w.short_actions(src.legal()) : w.actions(src.legal());
    case Field::Last:
      return write_last(w, v, s.last, short_actions);
    case Field::Result:
      return w.result(v, g.result());
    case Field::Players:
      return w.players(v, s.players);
    case Field::Spectators:
      return w.num(s.spectators);
    case Field::Bombs:
      return w.bombs(v, g.bombs_left());
    case Field::Connect:
      return w.num(g.options().connect);
    case Field::MidTurn:
      return w.boolean(g.mid_turn());
    case Field::Jumper:
      if (auto jumper = g.jumper()) return w.square(*jumper);
      return w.raw("null");
    case Field::Moves:
      return w.num(s.moves);
    case Field::Game:
      return w.num(s.game_number);
    case Field::DrawOffer:
      return write_optional_side(w, v, s.draw_offer);
    case Field::Rematch: {
      w.raw("[");
      bool first = true;
      for (Side side : {Side::First, Side::Second}) {
        if (!s.rematch[static_cast<std::size_t>(index(side))]) continue;
        if (!first) w.raw(",");
        first = false;
        w.str(side_name(v, side));
      }
      return w.raw("]");
    }
    // Always present, in this order (null when unused), so deltas keep the fields' order.
    case Field::Clock:
      if (s.clock) return write_clock(w, v, *s.clock);
      return w.raw("null");
    case Field::AbortAt:
      if (s.clock && s.clock->abort_at) return w.num(*s.clock->abort_at);
      return w.raw("null");
    case Field::TakebackOffer:
      return write_optional_side(w, v, s.takeback_offer);
    case Field::Away:
      if (!s.away) return w.raw("null");
      w.raw("{\"side\":");
      w.str(side_name(v, s.away->side));
      w.raw(",\"since\":");
      w.num(s.away->since);
      w.raw(",\"claim_at\":");
      w.num(s.away->claim_at);
      return w.raw("}");
    case Field::Hints: {
      static const std::vector<std::int64_t> kNoHints;
      return w.list(s.hints ? *s.hints : kNoHints, [&](std::int64_t h) { w.num(h); });
    }
  }
}

// Whether field f is the same in two snapshots of one room (same variant and options): whether
// state_json would write it the same.
bool same(Field f, const StateSnapshot& a, const StateSnapshot& b) {
  const Game &x = a.game, &y = b.game;
  switch (f) {
    case Field::Version:
      return a.version == b.version;
    case Field::Status:
      return a.status == b.status;
    case Field::Turn:
      return x.turn() == y.turn();
    case Field::Board:
      return x.width() == y.width() && x.height() == y.height() && a.pieces == b.pieces;
    case Field::Legal:
      return a.legal == b.legal;
    case Field::Last:
      return a.last == b.last;
    case Field::Result:
      return x.result() == y.result();
    case Field::Players:
      return a.players == b.players;
    case Field::Spectators:
      return a.spectators == b.spectators;
    case Field::Bombs:
      return x.bombs_left() == y.bombs_left();
    case Field::Connect:
      return true;  // an option
    case Field::MidTurn:
      return x.mid_turn() == y.mid_turn();
    case Field::Jumper:
      return x.jumper() == y.jumper();
    case Field::Moves:
      return a.moves == b.moves;
    case Field::Game:
      return a.game_number == b.game_number;
    case Field::DrawOffer:
      return a.draw_offer == b.draw_offer;
    case Field::Rematch:
      return a.rematch == b.rematch;
    case Field::Clock: {
      const auto no_abort = [](std::optional<ClockView> c) {
        if (c) c->abort_at.reset();  // a field of its own
        return c;
      };
      if (a.clock.has_value() != b.clock.has_value()) return false;
      return !a.clock || no_abort(a.clock) == no_abort(b.clock);
    }
    case Field::AbortAt: {
      const auto abort_at = [](const StateSnapshot& s) {
        return s.clock ? s.clock->abort_at : std::nullopt;
      };
      return abort_at(a) == abort_at(b);
    }
    case Field::TakebackOffer:
      return a.takeback_offer == b.takeback_offer;
    case Field::Away:
      return a.away == b.away;
    case Field::Hints:
      return a.hints == b.hints;
  }
  return false;
}

// The board's edit from pieces `a` to `b` (sequence_edit.hpp): removals, then insertions.
void write_board_edit(Writer& w, VariantId v, const std::vector<Piece>& a,
                      const std::vector<Piece>& b) {
  boost::container::small_vector<std::uint32_t, 8> inserted;
  bool first = true;
  w.raw("{\"remove\":[");
  sequence_edit(
      a, b,
      [&](std::size_t i) {
        if (!std::exchange(first, false)) w.raw(",");
        w.num(static_cast<std::int64_t>(i));
      },
      [&](std::size_t j) { inserted.push_back(static_cast<std::uint32_t>(j)); });
  w.raw("],\"insert\":[");
  first = true;
  for (const std::uint32_t j : inserted) {
    w.raw(std::exchange(first, false) ? "[" : ",[");
    w.num(static_cast<std::int64_t>(j));
    w.raw(",");
    w.piece(v, b[j]);
    w.raw("]");
  }
  w.raw("]}");
}

}  // namespace

std::string state_json(const StateView& s) {
  const Source src(s);
  const Game& g = src.g;
  const VariantId v = src.v;
  std::string text;
  text.reserve(640 + 64 * src.pieces().size() + 48 * src.legal().size());
  Writer w{text};
  FieldKeys field(text);
  field("type");
  w.raw("\"state\"");
  field("room");
  w.str(s.room);
  field("variant");
  w.str(variant_key(v));
  field("options");
  w.options(v, g.options());
  if (const std::string words = options_text(v, g.options()); !words.empty()) {
    field("options_text");
    w.str(words);
  }
  if (g.options().rules != kRulesRevision) {  // only games stored under earlier rules say so
    field("rules");
    w.num(g.options().rules);
  }
  if (s.one_screen) {
    field("one_screen");
    w.raw("true");
  }
  for (const auto& [f, key] : kFields) {
    if (!present(f, v)) continue;
    field(key);
    write_value(f, w, src, false);
  }
  w.raw("}");
  return text;
}

StateSnapshot StateSnapshot::of(const StateView& v) {
  const Game& g = *v.game;
  return StateSnapshot{
      .room = std::string(v.room),
      .game = g,
      .version = v.version,
      .status = v.status,
      .last = v.last ? *v.last : std::nullopt,
      .players = v.players,
      .spectators = v.spectators,
      .moves = v.moves,
      .game_number = v.game_number,
      .draw_offer = v.draw_offer,
      .rematch = v.rematch,
      .clock = v.clock ? std::optional<ClockView>(*v.clock) : std::nullopt,
      .away = v.away,
      .takeback_offer = v.takeback_offer,
      .hints = v.hints ? *v.hints : std::vector<std::int64_t>{},
      .one_screen = v.one_screen,
      .pieces = v.pieces ? *v.pieces : g.pieces(),
      .legal = v.legal ? *v.legal : listed_legal(v),
  };
}

StateView StateSnapshot::view() const {
  StateView v;
  v.room = room;
  v.game = &game;
  v.version = version;
  v.status = status;
  v.last = &last;
  v.players = players;
  v.spectators = spectators;
  v.moves = moves;
  v.game_number = game_number;
  v.draw_offer = draw_offer;
  v.rematch = rematch;
  v.clock = clock ? &*clock : nullptr;
  v.away = away;
  v.takeback_offer = takeback_offer;
  v.hints = &hints;
  v.one_screen = one_screen;
  v.pieces = &pieces;
  v.legal = &legal;
  return v;
}

std::optional<std::string> state_delta_json(const StateSnapshot& prev, const StateSnapshot& next,
                                            ActionForm form) {
  const VariantId v = next.game.variant();
  // What fields a state has follows from these: when they differ, the full state goes.
  if (prev.room != next.room || prev.game.variant() != v ||
      prev.game.options() != next.game.options() || prev.one_screen != next.one_screen) {
    return std::nullopt;
  }
  std::string out;
  out.reserve(256 + 48 * next.legal.size());
  Writer w{out};
  w.raw("{\"type\":\"delta\",\"base\":[");
  w.num(prev.game_number);
  w.raw(",");
  w.num(prev.version);
  w.raw("],\"set\":{");
  const StateView view = next.view();
  const Source src(view);
  bool board_edit = false, first = true;
  for (const auto& [f, key] : kFields) {
    if (!present(f, v) || same(f, prev, next)) continue;
    if (f == Field::Board && prev.game.width() == next.game.width() &&
        prev.game.height() == next.game.height()) {
      board_edit = true;  // after `set`
      continue;
    }
    if (!std::exchange(first, false)) w.raw(",");
    w.raw("\"");
    w.raw(key);
    w.raw("\":");
    write_value(f, w, src, form == ActionForm::Short);
  }
  w.raw("}");
  if (board_edit) {
    w.raw(",\"board\":");
    write_board_edit(w, v, prev.pieces, next.pieces);
  }
  w.raw("}");
  return out;
}

}  // namespace bc::server

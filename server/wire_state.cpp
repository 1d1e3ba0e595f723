// The `state` message (docs/PROTOCOL.md, "state"), the one sent after every change: written
// straight into its text by the one Writer (wire_json.hpp), noting where each field lies when a
// room makes deltas from it (state_layout.hpp).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "server/wire_json.hpp"

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

// Writes a top-level field's key of a state (the comma before it but the first) and, when asked,
// notes where the key and the value before it lie (StateLayout).
class FieldMarks {
 public:
  FieldMarks(std::string& out, std::vector<StateLayout::Field>* fields)
      : out_(out), fields_(fields) {}
  void operator()(std::string_view key) {
    close();
    // One resize for `,"key":`: this runs some thirty times for every state sent.
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
    if (fields_) {
      if (fields_->empty()) fields_->reserve(40);
      fields_->push_back(
          {static_cast<std::uint32_t>(at + 1), static_cast<std::uint32_t>(out_.size()), 0});
    }
  }
  // After the last value, before the closing brace.
  void close() {
    if (fields_ && !fields_->empty() && fields_->back().end == 0) {
      fields_->back().end = static_cast<std::uint32_t>(out_.size());
    }
  }

 private:
  std::string& out_;
  std::vector<StateLayout::Field>* fields_;
  bool started_ = false;
};

// The state's extension keys (PROTOCOL.md **ext**), from mid_turn to rematch.
void write_extensions(Writer& w, const StateView& s, FieldMarks& field) {
  const Game& g = *s.game;
  const VariantId v = g.variant();
  field("mid_turn");
  w.boolean(g.mid_turn());
  field("jumper");
  if (auto jumper = g.jumper()) {
    w.square(*jumper);
  } else {
    w.raw("null");
  }
  field("moves");
  w.num(s.moves);
  field("game");
  w.num(s.game_number);
  field("draw_offer");
  if (s.draw_offer) {
    w.str(side_name(v, *s.draw_offer));
  } else {
    w.raw("null");
  }
  field("rematch");
  w.raw("[");
  bool first = true;
  for (Side side : {Side::First, Side::Second}) {
    if (!s.rematch[static_cast<std::size_t>(index(side))]) continue;
    if (!first) w.raw(",");
    first = false;
    w.str(side_name(v, side));
  }
  w.raw("]");
  // Always present, in this order (null when unused), so deltas keep the fields' order.
  field("clock");
  if (const ClockView* c = s.clock) {
    w.raw("{\"control\":");
    w.str(time_control_text(c->control));
    w.raw(",\"left\":{");
    for (Side side : {Side::First, Side::Second}) {
      if (side == Side::Second) w.raw(",");
      w.str(side_name(v, side));
      w.raw(":");
      w.num(c->left[static_cast<std::size_t>(index(side))]);
    }
    w.raw("},\"running\":");
    if (c->running) {
      w.str(side_name(v, *c->running));
    } else {
      w.raw("null");
    }
    w.raw(",\"at\":");
    w.num(c->at);
    w.raw("}");
    field("abort_at");
    if (c->abort_at) {
      w.num(*c->abort_at);
    } else {
      w.raw("null");
    }
  } else {
    w.raw("null");
    field("abort_at");
    w.raw("null");
  }
  field("takeback_offer");
  if (s.takeback_offer) {
    w.str(side_name(v, *s.takeback_offer));
  } else {
    w.raw("null");
  }
  field("away");
  if (s.away) {
    w.raw("{\"side\":");
    w.str(side_name(v, s.away->side));
    w.raw(",\"since\":");
    w.num(s.away->since);
    w.raw(",\"claim_at\":");
    w.num(s.away->claim_at);
    w.raw("}");
  } else {
    w.raw("null");
  }
  field("hints");
  static const std::vector<std::int64_t> kNoHints;
  w.list(s.hints ? *s.hints : kNoHints, [&](std::int64_t h) { w.num(h); });
}

}  // namespace

std::string state_json(const StateView& s, StateLayout* layout) {
  const Game& g = *s.game;
  const VariantId v = g.variant();
  const auto pieces = g.pieces();
  std::string text;
  text.reserve(512 + 64 * pieces.size());
  Writer w{text};
  if (layout) *layout = {};
  FieldMarks field(text, layout ? &layout->fields : nullptr);
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
  field("version");
  w.num(s.version);
  field("status");
  w.str(status_name(s.status));
  field("turn");
  w.str(side_name(v, g.turn()));
  field("board");
  {
    FieldMarks board(text, layout ? &layout->board : nullptr);
    board("width");
    w.num(g.width());
    board("height");
    w.num(g.height());
    board("pieces");
    if (layout) layout->pieces.reserve(pieces.size());
    text += '[';
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      if (i) text += ',';
      const auto begin = static_cast<std::uint32_t>(text.size());
      w.piece(v, pieces[i]);
      if (layout) layout->pieces.push_back({begin, static_cast<std::uint32_t>(text.size())});
    }
    text += ']';
    board.close();
    text += '}';
  }
  field("legal");
  const auto legal =
      s.status == RoomStatus::Playing && s.with_legal ? g.legal() : std::vector<Action>{};
  w.actions(legal);
  field("last");
  write_last(w, v, s.last);
  if (layout) {  // the same two values with short actions
    Writer{layout->legal_short}.short_actions(legal);
    Writer last_short{layout->last_short};
    write_last(last_short, v, s.last, true);
  }
  field("result");
  w.result(v, g.result());
  field("players");
  w.players(v, s.players);
  field("spectators");
  w.num(s.spectators);
  if (v == VariantId::Kaboom) {
    field("bombs");
    w.bombs(v, g.bombs_left());
    field("connect");
    w.num(g.options().connect);
  }
  write_extensions(w, s, field);
  field.close();
  w.raw("}");
  return text;
}

}  // namespace bc::server

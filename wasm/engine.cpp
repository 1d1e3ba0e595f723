// The rules core for the browser (docs/ENGINE.md): a C interface over bc::Game for the WebAssembly
// build (scripts/build-wasm.sh), text in and JSON text out. Games are values kept in a table and
// named by handles; applying an action makes a new handle. The JSON is written as the server
// writes the same fields of its `state` (server/wire/json.hpp), byte for byte: the equivalence
// test holds one against the other.
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "bc/core.hpp"
#include "export.hpp"

namespace {

using namespace bc;

std::vector<std::optional<Game>> games;
std::string out;       // the last text returned: valid until the next call
std::string error;     // why the last call that returned -1 failed
Effects last_effects;  // of the last bc_apply
// The complete turns of one game, as bc_turns listed them last (bc_after_turn plays them).
int turns_of = -1;
std::vector<Turn> turns;

int keep(Game g) {
  for (std::size_t i = 0; i < games.size(); ++i) {
    if (!games[i]) {
      games[i] = std::move(g);
      return static_cast<int>(i);
    }
  }
  games.emplace_back(std::move(g));
  return static_cast<int>(games.size() - 1);
}

const Game* find(int h) {
  if (h < 0 || static_cast<std::size_t>(h) >= games.size() || !games[h]) return nullptr;
  return &*games[h];
}

int fail(std::string why) {
  error = std::move(why);
  return -1;
}

// "name=value,name=value": the variant's options by their PROTOCOL.md names (true/false for
// booleans). Empty: the defaults.
std::optional<Options> read_options(VariantId v, std::string_view text) {
  Options o = default_options(v);
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) {
      error = "an option is name=value: " + std::string(item);
      return std::nullopt;
    }
    const std::string_view name = item.substr(0, eq), value = item.substr(eq + 1);
    int n = 0;
    if (value == "true" || value == "false") {
      n = value == "true" ? 1 : 0;
    } else if (std::from_chars(value.data(), value.data() + value.size(), n).ptr !=
               value.data() + value.size()) {
      error = "option " + std::string(name) + ": not a number: " + std::string(value);
      return std::nullopt;
    }
    if (auto e = set_option(o, v, name, n)) {
      error = *e;
      return std::nullopt;
    }
  }
  if (auto e = validate_options(o, v)) {
    error = *e;
    return std::nullopt;
  }
  return o;
}

// Small non-negative integers separated by `sep`, all of them, or nullopt.
std::optional<std::vector<int>> read_ints(std::string_view text, char sep) {
  std::vector<int> v;
  while (true) {
    const auto at = text.find(sep);
    const std::string_view item = text.substr(0, at);
    int n = 0;
    auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), n);
    if (ec != std::errc{} || end != item.data() + item.size()) return std::nullopt;
    v.push_back(n);
    if (at == std::string_view::npos) return v;
    text = text.substr(at + 1);
  }
}

// "turn;bombs0,bombs1;x,y,side,kind,rank;...": sides, kinds and ranks by their index (0 the first
// side, normal, man).
std::optional<Position> read_position(std::string_view text) {
  Position p;
  std::vector<std::string_view> parts;
  while (true) {
    const auto at = text.find(';');
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) break;
    text = text.substr(at + 1);
  }
  if (parts.size() < 2) return std::nullopt;
  auto turn = read_ints(parts[0], ',');
  auto bombs = read_ints(parts[1], ',');
  if (!turn || turn->size() != 1 || (*turn)[0] > 1 || !bombs || bombs->size() != 2) {
    return std::nullopt;
  }
  p.turn = static_cast<Side>((*turn)[0]);
  p.bombs = {(*bombs)[0], (*bombs)[1]};
  for (std::size_t i = 2; i < parts.size(); ++i) {
    if (parts[i].empty()) continue;
    auto f = read_ints(parts[i], ',');
    if (!f || f->size() != 5 || (*f)[2] > 1 || (*f)[3] > 2 || (*f)[4] > 2) return std::nullopt;
    p.pieces.push_back(Piece{{(*f)[0], (*f)[1]},
                             static_cast<Side>((*f)[2]),
                             static_cast<Kind>((*f)[3]),
                             static_cast<Rank>((*f)[4])});
  }
  return p;
}

// The server's writer, for these fields (server/wire/json.hpp).
void str(std::string_view t) {
  out += '"';
  out += t;
  out += '"';
}
void num(long long n) {
  out += std::to_string(n);
}
void square(Square q) {
  out += '[';
  num(q.x);
  out += ',';
  num(q.y);
  out += ']';
}
void squares(const std::vector<Square>& v) {
  out += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += ',';
    square(v[i]);
  }
  out += ']';
}
void action(const Action& a) {
  out += "{\"kind\":";
  str(action_kind_name(a.kind));
  switch (a.kind) {
    case ActionKind::Step:
    case ActionKind::Jump:
      out += ",\"from\":";
      square(a.from);
      out += ",\"to\":";
      square(a.to);
      break;
    case ActionKind::EndTurn:
      break;
    case ActionKind::Drop:
      out += ",\"column\":";
      num(a.column);
      out += ",\"piece\":";
      str(kind_name(a.piece));
      break;
    case ActionKind::Detonate:
      out += ",\"at\":";
      square(a.at);
      break;
  }
  out += '}';
}

// {"turn","board","legal","result","bombs","mid_turn","jumper"}: the server's `state` fields of the
// same names, in its order and its words (`legal` empty once the game is over; `bombs` in Kaboom
// only).
void write_state(const Game& g) {
  const VariantId v = g.variant();
  out += "{\"turn\":";
  str(side_name(v, g.turn()));
  out += ",\"board\":{\"width\":";
  num(g.width());
  out += ",\"height\":";
  num(g.height());
  out += ",\"pieces\":[";
  bool first = true;
  for (const Piece& p : g.pieces()) {
    if (!first) out += ',';
    first = false;
    out += "{\"at\":";
    square(p.at);
    out += ",\"side\":";
    str(side_name(v, p.side));
    out += ",\"kind\":";
    str(kind_name(p.kind));
    out += ",\"rank\":";
    str(rank_name(p.rank));
    out += '}';
  }
  out += "]},\"legal\":[";
  first = true;
  for (const Action& a : g.legal()) {
    if (!first) out += ',';
    first = false;
    action(a);
  }
  out += "],\"result\":";
  if (const auto& r = g.result()) {
    out += "{\"winner\":";
    if (r->winner) {
      str(side_name(v, *r->winner));
    } else {
      out += "null";
    }
    out += ",\"reason\":";
    str(reason_name(r->reason));
    out += '}';
  } else {
    out += "null";
  }
  if (!is_checkers(v)) {  // as the server: bombs in hand only where they are dropped
    const auto bombs = g.bombs_left();
    out += ",\"bombs\":{";
    str(side_name(v, Side::First));
    out += ':';
    num(bombs[0]);
    out += ',';
    str(side_name(v, Side::Second));
    out += ':';
    num(bombs[1]);
    out += '}';
  }
  out += ",\"mid_turn\":";
  out += g.mid_turn() ? "true" : "false";
  out += ",\"jumper\":";
  if (auto j = g.jumper()) {
    square(*j);
  } else {
    out += "null";
  }
  out += '}';
}

std::optional<VariantId> read_variant(const char* key) {
  auto v = variant_from_key(key ? key : "");
  if (!v) error = std::string("no such variant: ") + (key ? key : "");
  return v;
}

}  // namespace

// A new game of `variant` ("bomb", ...) with `options` (read_options); its handle, or -1.
BC_EXPORT int bc_create(const char* variant, const char* options) {
  auto v = read_variant(variant);
  if (!v) return -1;
  auto o = read_options(*v, options ? options : "");
  if (!o) return -1;
  auto g = Game::create(*v, *o);
  if (auto* e = std::get_if<std::string>(&g)) return fail(*e);
  return keep(std::get<Game>(std::move(g)));
}

// A game from a custom position (read_position); its handle, or -1 with the core's reason.
BC_EXPORT int bc_from_position(const char* variant, const char* options, const char* position) {
  auto v = read_variant(variant);
  if (!v) return -1;
  auto o = read_options(*v, options ? options : "");
  if (!o) return -1;
  auto p = read_position(position ? position : "");
  if (!p) return fail("a position is turn;bombs,bombs;x,y,side,kind,rank;...");
  auto g = Game::from_position(*v, *o, *p);
  if (auto* e = std::get_if<std::string>(&g)) return fail(*e);
  return keep(std::get<Game>(std::move(g)));
}

// The game's state as JSON (write_state); "" for a handle that names nothing.
BC_EXPORT const char* bc_state(int h) {
  out.clear();
  if (const Game* g = find(h)) write_state(*g);
  return out.c_str();
}

// Plays the game's legal action number `index` (in the order bc_state lists them); the new game's
// handle, or -1. bc_effects() then says what it did.
BC_EXPORT int bc_apply(int h, int index) {
  const Game* g = find(h);
  if (!g) return fail("no such game");
  const auto legal = g->legal();
  if (index < 0 || static_cast<std::size_t>(index) >= legal.size()) {
    return fail("no such legal action");
  }
  auto applied = g->apply(legal[static_cast<std::size_t>(index)]);
  if (!applied) return fail("not legal");
  last_effects = applied->effects;
  return keep(std::move(applied->next));
}

// What the last bc_apply did: {"captured","exploded","promoted","turn_over"}.
BC_EXPORT const char* bc_effects() {
  out = "{\"captured\":";
  squares(last_effects.captured);
  out += ",\"exploded\":";
  squares(last_effects.exploded);
  out += ",\"promoted\":";
  squares(last_effects.promoted);
  out += ",\"turn_over\":";
  out += last_effects.turn_over ? "true" : "false";
  out += '}';
  return out.c_str();
}

BC_EXPORT void bc_free(int h) {
  if (find(h)) games[static_cast<std::size_t>(h)].reset();
  if (h == turns_of) turns_of = -1;
}

// How many complete turns the side to move has (from mid-turn: the rest of the turn); -1 for no
// such game. bc_after_turn(h, i) then plays turn i whole.
BC_EXPORT int bc_turns(int h) {
  const Game* g = find(h);
  if (!g) return fail("no such game");
  turns = g->turns();
  turns_of = h;
  return static_cast<int>(turns.size());
}

// The game after complete turn `index` of the last bc_turns(h): a new handle, or -1.
BC_EXPORT int bc_after_turn(int h, int index) {
  const Game* g = find(h);
  if (!g || h != turns_of) return fail("bc_turns first");
  if (index < 0 || static_cast<std::size_t>(index) >= turns.size()) return fail("no such turn");
  Game next = *g;
  for (const Action& a : turns[static_cast<std::size_t>(index)].actions) {
    auto applied = next.apply(a);
    if (!applied) return fail("a turn's action is not legal");
    next = std::move(applied->next);
  }
  return keep(std::move(next));
}

// Complete-turn leaf nodes at `depth` (K5, T7): a check that the build plays as the native core.
BC_EXPORT double bc_perft(int h, int depth) {
  const Game* g = find(h);
  return g && depth >= 0 ? static_cast<double>(perft_leaves(*g, depth)) : -1;
}

// The variant's two sides, first then second: "fire,water"; "" for no such variant.
BC_EXPORT const char* bc_sides(const char* variant) {
  out.clear();
  if (auto v = read_variant(variant)) {
    out += side_name(*v, Side::First);
    out += ',';
    out += side_name(*v, Side::Second);
  }
  return out.c_str();
}

BC_EXPORT const char* bc_error() {
  return error.c_str();
}

// JSON <-> core types. Parsing never throws: the text is parsed with exceptions off and every field
// is checked for its type before it is read. Output is dumped with invalid UTF-8 replaced, so no
// string a client sent can make serialization throw.
#include "server/protocol.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <nlohmann/json.hpp>

#include "server/limits.hpp"

namespace bc::server {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

constexpr std::array<std::string_view, kErrorCodeCount> kErrorNames{
    "bad_message",   "unknown_type",   "unknown_room",  "unknown_variant", "bad_options",
    "bad_position",  "seat_taken",     "not_a_player",  "not_your_turn",   "illegal_action",
    "stale_version", "game_over",      "bad_token",     "rate_limited",    "too_large",
    "not_started",   "no_draw_offer",  "game_not_over", "server_full",     "server_error",
    "too_many_rooms"};

std::string dump(const ojson& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::optional<std::int64_t> as_int(const json& j) {
  if (j.is_number_unsigned()) {
    auto u = j.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
    return static_cast<std::int64_t>(u);
  }
  if (j.is_number_integer()) return j.get<std::int64_t>();
  return std::nullopt;
}

std::optional<int> as_small_int(const json& j) {
  auto v = as_int(j);
  if (!v || *v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max()) {
    return std::nullopt;
  }
  return static_cast<int>(*v);
}

std::optional<Square> as_square(const json& j) {
  if (!j.is_array() || j.size() != 2) return std::nullopt;
  auto x = as_small_int(j[0]);
  auto y = as_small_int(j[1]);
  if (!x || !y) return std::nullopt;
  return Square{*x, *y};
}

ojson square_json(Square s) { return ojson::array({s.x, s.y}); }

ojson action_obj(const Action& a) {
  ojson j;
  j["kind"] = action_kind_name(a.kind);
  switch (a.kind) {
    case ActionKind::Step:
    case ActionKind::Jump:
      j["from"] = square_json(a.from);
      j["to"] = square_json(a.to);
      break;
    case ActionKind::EndTurn:
      break;
    case ActionKind::Drop:
      j["column"] = a.column;
      j["piece"] = kind_name(a.piece);
      break;
    case ActionKind::Detonate:
      j["at"] = square_json(a.at);
      break;
  }
  return j;
}

ojson piece_json(VariantId v, const Piece& p) {
  ojson j;
  j["at"] = square_json(p.at);
  j["side"] = side_name(v, p.side);
  j["kind"] = kind_name(p.kind);
  j["rank"] = rank_name(p.rank);
  return j;
}

ojson pieces_json(VariantId v, const std::vector<Piece>& pieces) {
  ojson a = ojson::array();
  for (const auto& p : pieces) a.push_back(piece_json(v, p));
  return a;
}

ojson options_json(VariantId v, const Options& o) {
  ojson j = ojson::object();
  for (const auto& spec : option_specs(v)) {
    auto value = get_option(o, v, spec.name).value_or(spec.def);
    if (spec.type == OptionType::Bool) {
      j[std::string(spec.name)] = value != 0;
    } else {
      j[std::string(spec.name)] = value;
    }
  }
  return j;
}

ojson result_json(VariantId v, const std::optional<Result>& r) {
  if (!r) return nullptr;
  ojson j;
  j["winner"] = r->winner ? ojson(side_name(v, *r->winner)) : ojson(nullptr);
  j["reason"] = reason_name(r->reason);
  return j;
}

ojson players_json(VariantId v, const std::array<std::optional<PlayerView>, 2>& players) {
  ojson j = ojson::object();
  for (Side s : {Side::First, Side::Second}) {
    const auto& p = players[static_cast<std::size_t>(index(s))];
    if (p) {
      j[std::string(side_name(v, s))] = ojson{{"name", p->name}, {"connected", p->connected}};
      if (p->ai) j[std::string(side_name(v, s))]["ai"] = *p->ai;
    } else {
      j[std::string(side_name(v, s))] = nullptr;
    }
  }
  return j;
}

ojson bombs_json(VariantId v, std::array<int, 2> bombs) {
  ojson j;
  j[std::string(side_name(v, Side::First))] = bombs[0];
  j[std::string(side_name(v, Side::Second))] = bombs[1];
  return j;
}

void put_id(ojson& j, const RequestId& id) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (!std::is_same_v<T, std::monostate>) j["id"] = v;
      },
      id);
}

RequestId read_id(const json& j) {
  auto it = j.find("id");
  if (it == j.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number_unsigned()) return it->get<std::uint64_t>();
  if (it->is_number_integer()) return it->get<std::int64_t>();
  if (it->is_number_float()) return it->get<double>();
  return {};
}

// Reads the fields of one request, remembering the first problem.
class Fields {
 public:
  explicit Fields(const json& j) : j_(j) {}

  // An optional string; absent leaves `out` as it is.
  void str(const char* key, std::string& out) {
    auto it = j_.find(key);
    if (it == j_.end() || it->is_null()) return;
    if (!it->is_string()) return fail(std::string("`") + key + "` must be a string");
    out = it->get<std::string>();
  }
  void required_str(const char* key, std::string& out) {
    if (!j_.contains(key)) return fail(std::string("`") + key + "` is missing");
    str(key, out);
  }
  const json* find(const char* key) const {
    auto it = j_.find(key);
    return it == j_.end() ? nullptr : &*it;
  }
  void fail(std::string message) {
    if (!error) error = std::move(message);
  }
  std::optional<std::string> error;

 private:
  const json& j_;
};

// An action as the client sent it. Wrong field types are a bad message; a kind or piece that
// names nothing is a well-formed action that cannot be legal (nullopt).
std::variant<std::optional<Action>, std::string> read_action(const json& a) {
  if (!a.is_object()) return std::string("`action` must be an object");
  auto k = a.find("kind");
  if (k == a.end() || !k->is_string()) return std::string("`action.kind` must be a string");
  auto kind = action_kind_from_name(k->get<std::string>());
  auto square = [&](const char* key) -> std::optional<Square> {
    auto it = a.find(key);
    if (it == a.end()) return std::nullopt;
    return as_square(*it);
  };
  if (!kind) return std::optional<Action>{};
  switch (*kind) {
    case ActionKind::Step:
    case ActionKind::Jump: {
      auto from = square("from");
      auto to = square("to");
      if (!from || !to) return std::string("`action.from` and `action.to` must be [x, y]");
      return std::optional<Action>(*kind == ActionKind::Step ? Action::step(*from, *to)
                                                             : Action::jump(*from, *to));
    }
    case ActionKind::EndTurn:
      return std::optional<Action>(Action::end_turn());
    case ActionKind::Drop: {
      auto c = a.find("column");
      std::optional<int> column = c == a.end() ? std::nullopt : as_small_int(*c);
      if (!column) return std::string("`action.column` must be an integer");
      Kind piece = Kind::Normal;
      if (auto p = a.find("piece"); p != a.end() && !p->is_null()) {
        if (!p->is_string()) return std::string("`action.piece` must be a string");
        auto pk = kind_from_name(p->get<std::string>());
        if (!pk) return std::optional<Action>{};
        piece = *pk;
      }
      return std::optional<Action>(Action::drop(*column, piece));
    }
    case ActionKind::Detonate: {
      auto at = square("at");
      if (!at) return std::string("`action.at` must be [x, y]");
      return std::optional<Action>(Action::detonate(*at));
    }
  }
  return std::optional<Action>{};
}

// `position` as sent; a problem here is refused as bad_position (after variant and options).
std::variant<RawPosition, std::string> read_position(const json& p) {
  if (!p.is_object()) return std::string("`position` must be an object");
  RawPosition out;
  auto pieces = p.find("pieces");
  if (pieces == p.end() || !pieces->is_array()) {
    return std::string("`position.pieces` must be a list of pieces");
  }
  std::size_t n = 0;
  for (const auto& e : *pieces) {
    ++n;
    std::string where = "piece " + std::to_string(n);
    if (!e.is_object()) return where + " is not an object";
    RawPiece rp;
    auto at = e.find("at");
    auto sq = at == e.end() ? std::nullopt : as_square(*at);
    if (!sq) return where + ": `at` must be [x, y]";
    rp.at = *sq;
    auto text = [&](const char* key, std::string& dst, bool required) -> bool {
      auto it = e.find(key);
      if (it == e.end() || it->is_null()) return !required;
      if (!it->is_string()) return false;
      dst = it->get<std::string>();
      return true;
    };
    if (!text("side", rp.side, true)) return where + ": `side` must be a side name";
    if (!text("kind", rp.kind, false)) return where + ": `kind` must be a string";
    if (!text("rank", rp.rank, false)) return where + ": `rank` must be a string";
    out.pieces.push_back(std::move(rp));
  }
  if (auto t = p.find("turn"); t != p.end() && !t->is_null()) {
    if (!t->is_string()) return std::string("`position.turn` must be a side name");
    out.turn = t->get<std::string>();
  }
  if (auto b = p.find("bombs"); b != p.end() && !b->is_null()) {
    if (!b->is_object()) return std::string("`position.bombs` must be an object like {\"x\":1,\"o\":1}");
    for (auto it = b->begin(); it != b->end(); ++it) {
      auto v = as_small_int(it.value());
      if (!v) return "`position.bombs." + it.key() + "` must be an integer";
      out.bombs.emplace_back(it.key(), *v);
    }
    out.has_bombs = true;
  }
  return out;
}

ParseError refuse(RequestId id, std::string type, std::string message,
                  ErrorCode code = ErrorCode::BadMessage) {
  return ParseError{Error{code, std::move(message)}, std::move(id), std::move(type)};
}

std::string join_names(const std::vector<std::string_view>& names, std::string_view last_sep) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += (i + 1 == names.size()) ? last_sep : std::string_view(", ");
    out += names[i];
  }
  return out;
}

}  // namespace

std::string_view error_code_name(ErrorCode c) {
  return kErrorNames[static_cast<std::size_t>(c)];
}

std::string_view message_type(const MessageBody& b) {
  constexpr std::array<std::string_view, std::variant_size_v<MessageBody>> kNames{
      "create", "join", "act", "resign", "offer_draw", "answer_draw", "rematch", "chat", "leave",
      "sync"};
  return kNames[b.index()];
}

std::variant<ClientMessage, ParseError> parse_client_message(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) return refuse({}, "", "the message is not valid JSON");
  if (!j.is_object()) return refuse({}, "", "a message must be a JSON object");
  RequestId id = read_id(j);
  auto t = j.find("type");
  if (t == j.end() || !t->is_string()) {
    return refuse(std::move(id), "", "a message needs a string field `type`");
  }
  std::string type = t->get<std::string>();
  Fields f(j);
  ClientMessage out{std::move(id), ResignMsg{}};

  if (type == "create") {
    CreateMsg m;
    f.required_str("variant", m.variant);
    f.str("name", m.name);
    f.str("seat", m.seat);
    if (const json* o = f.find("options"); o && !o->is_null()) {
      if (!o->is_object()) {
        f.fail("`options` must be an object");
      } else {
        for (auto it = o->begin(); it != o->end(); ++it) {
          OptionValue v;
          if (it->is_boolean()) {
            v = it->get<bool>();
          } else if (auto n = as_int(*it)) {
            v = *n;
          }
          m.options.emplace_back(it.key(), v);
        }
      }
    }
    if (const json* op = f.find("opponent"); op && !op->is_null()) {
      auto level = [&](const char* key, int& level_out) {
        auto it = op->find(key);
        if (it == op->end() || it->is_null()) return;
        auto n = as_int(*it);
        if (!n || *n < kComputerMinLevel || *n > kComputerMaxLevel) {
          return f.fail(std::string("`opponent.") + key + "` must be a level from " +
                        std::to_string(kComputerMinLevel) + " to " +
                        std::to_string(kComputerMaxLevel));
        }
        level_out = static_cast<int>(*n);
      };
      Opponent opp;
      if (!op->is_object()) {
        f.fail("`opponent` must be an object like {\"ai\":4}");
      } else {
        level("ai", opp.ai);
        level("ai2", opp.ai2);
        if (opp.ai == 0) f.fail("`opponent` needs `ai`, the computer's level");
      }
      m.opponent = opp;
    }
    if (const json* p = f.find("position"); p && !p->is_null()) {
      auto r = read_position(*p);
      if (auto* raw = std::get_if<RawPosition>(&r)) {
        m.position = std::move(*raw);
      } else {
        m.position_error = std::get<std::string>(r);
      }
    }
    out.body = std::move(m);
  } else if (type == "join") {
    JoinMsg m;
    f.required_str("room", m.room);
    f.str("seat", m.seat);
    f.str("name", m.name);
    if (const json* tok = f.find("token"); tok && !tok->is_null()) {
      if (!tok->is_string()) {
        f.fail("`token` must be a string");
      } else {
        m.token = tok->get<std::string>();
      }
    }
    out.body = std::move(m);
  } else if (type == "act") {
    ActMsg m;
    const json* a = f.find("action");
    const json* v = f.find("version");
    if (!a) {
      f.fail("`action` is missing: send one of the `legal` actions of the last state");
    } else {
      auto r = read_action(*a);
      if (auto* s = std::get_if<std::string>(&r)) {
        f.fail(*s);
      } else {
        m.action = std::get<std::optional<Action>>(r);
      }
    }
    if (!v) {
      f.fail("`version` is missing: send the `version` of the state the action was chosen from");
    } else if (auto n = as_int(*v)) {
      m.version = *n;
    } else {
      f.fail("`version` must be an integer");
    }
    out.body = m;
  } else if (type == "resign") {
    out.body = ResignMsg{};
  } else if (type == "offer_draw") {
    out.body = OfferDrawMsg{};
  } else if (type == "answer_draw") {
    AnswerDrawMsg m;
    const json* a = f.find("accept");
    if (!a || !a->is_boolean()) {
      f.fail("`accept` must be true or false");
    } else {
      m.accept = a->get<bool>();
    }
    out.body = m;
  } else if (type == "rematch") {
    out.body = RematchMsg{};
  } else if (type == "chat") {
    ChatMsg m;
    f.required_str("text", m.text);
    out.body = std::move(m);
  } else if (type == "leave") {
    out.body = LeaveMsg{};
  } else if (type == "sync") {
    out.body = SyncMsg{};
  } else {
    return refuse(std::move(out.id), type, "unknown message type '" + type + "'",
                  ErrorCode::UnknownType);
  }
  if (f.error) return refuse(std::move(out.id), type, std::move(*f.error));
  return out;
}

// ---------------------------------------------------------------------------------------------

std::variant<GameSetup, Error> resolve_create(const CreateMsg& m) {
  auto v = variant_from_key(m.variant);
  if (!v) {
    std::vector<std::string_view> keys;
    for (auto k : kAllVariants) keys.push_back(variant_key(k));
    return Error{ErrorCode::UnknownVariant,
                 "unknown variant '" + m.variant + "'; the variants are " + join_names(keys, " and ")};
  }
  struct {
    Options options;
    std::optional<Position> position;
  } s{default_options(*v), std::nullopt};
  auto specs = option_specs(*v);
  for (const auto& option : m.options) {
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
    const std::string& name = option.first;
    const OptionValue& value = option.second;
    auto spec = std::find_if(specs.begin(), specs.end(),
                             [&](const OptionSpec& o) { return o.name == name; });
    if (spec == specs.end()) {
      std::vector<std::string_view> names;
      for (const auto& o : specs) names.push_back(o.name);
      std::string known = names.empty() ? std::string("it has no options")
                                        : "its options are " + join_names(names, " and ");
      return Error{ErrorCode::BadOptions, "the " + std::string(variant_key(*v)) +
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
    if (auto err = set_option(s.options, *v, name, iv)) return Error{ErrorCode::BadOptions, *err};
  }
  if (auto err = validate_options(s.options, *v)) return Error{ErrorCode::BadOptions, *err};

  if (m.position_error) return Error{ErrorCode::BadPosition, *m.position_error};
  if (m.position) {
    const RawPosition& raw = *m.position;
    Position p;
    std::size_t n = 0;
    for (const auto& rp : raw.pieces) {
      ++n;
      std::string where = "piece " + std::to_string(n);
      auto side = side_from_name(*v, rp.side);
      if (!side) {
        return Error{ErrorCode::BadPosition, where + ": '" + rp.side + "' is not a side of " +
                                                 std::string(variant_key(*v))};
      }
      auto kind = rp.kind.empty() ? std::optional<Kind>(Kind::Normal) : kind_from_name(rp.kind);
      if (!kind) return Error{ErrorCode::BadPosition, where + ": unknown kind '" + rp.kind + "'"};
      auto rank = rp.rank.empty() ? std::optional<Rank>(Rank::Man) : rank_from_name(rp.rank);
      if (!rank) return Error{ErrorCode::BadPosition, where + ": unknown rank '" + rp.rank + "'"};
      p.pieces.push_back(Piece{rp.at, *side, *kind, *rank});
    }
    if (!raw.turn.empty()) {
      auto t = side_from_name(*v, raw.turn);
      if (!t) return Error{ErrorCode::BadPosition, "turn: '" + raw.turn + "' is not a side"};
      p.turn = *t;
    }
    int def_bombs = *v == VariantId::Kaboom ? s.options.bombs : 0;
    p.bombs = {def_bombs, def_bombs};
    if (raw.has_bombs) {
      for (const auto& [side_key, count] : raw.bombs) {
        auto side = side_from_name(*v, side_key);
        if (!side) return Error{ErrorCode::BadPosition, "bombs: '" + side_key + "' is not a side"};
        if (count < 0) return Error{ErrorCode::BadPosition, "bombs: a count cannot be negative"};
        p.bombs[static_cast<std::size_t>(index(*side))] = count;
      }
    }
    auto g = Game::from_position(*v, s.options, p);
    if (auto* err = std::get_if<std::string>(&g)) return Error{ErrorCode::BadPosition, *err};
    return GameSetup{*v, s.options, std::move(p), std::get<Game>(std::move(g))};
  }
  auto g = Game::create(*v, s.options);
  if (auto* err = std::get_if<std::string>(&g)) return Error{ErrorCode::BadOptions, *err};
  return GameSetup{*v, s.options, std::nullopt, std::get<Game>(std::move(g))};
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
  if (seat == "random" || seat == "any") {
    return SeatChoice{for_create ? SeatKind::Random : SeatKind::Any, Side::First};
  }
  std::string sides = std::string(side_name(v, Side::First)) + ", " +
                      std::string(side_name(v, Side::Second));
  return Error{ErrorCode::BadMessage,
               "`seat` must be " + sides + (for_create ? ", random" : ", any") + " or spectator"};
}

namespace {

// Decodes one UTF-8 code point at s[i]; advances i. Invalid bytes decode as U+FFFD.
char32_t next_code_point(std::string_view s, std::size_t& i) {
  auto b = static_cast<unsigned char>(s[i]);
  int len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + static_cast<std::size_t>(len) > s.size()) {
    ++i;
    return 0xFFFD;
  }
  char32_t cp = len == 1 ? b : len == 2 ? (b & 0x1Fu) : len == 3 ? (b & 0x0Fu) : (b & 0x07u);
  for (int k = 1; k < len; ++k) {
    auto c = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
    if ((c >> 6) != 0x2) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (c & 0x3Fu);
  }
  i += static_cast<std::size_t>(len);
  return cp;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool is_control(char32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

}  // namespace

std::string clean_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = next_code_point(s, i);
    if (!is_control(cp)) append_utf8(out, cp);
  }
  auto first = out.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  auto last = out.find_last_not_of(' ');
  return out.substr(first, last - first + 1);
}

std::size_t utf8_length(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++n) next_code_point(s, i);
  return n;
}

std::string clean_name(std::string_view s, std::size_t max_len) {
  std::string c = clean_text(s);
  std::string out;
  std::size_t n = 0;
  for (std::size_t i = 0; i < c.size() && n < max_len; ++n) append_utf8(out, next_code_point(c, i));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out.empty() ? std::string("Anonymous") : out;
}

// ---------------------------------------------------------------------------------------------

std::string_view status_name(RoomStatus s) {
  switch (s) {
    case RoomStatus::Waiting:
      return "waiting";
    case RoomStatus::Playing:
      return "playing";
    case RoomStatus::Finished:
      return "finished";
  }
  return "waiting";
}

std::string room_url(std::string_view room) { return "/r/" + std::string(room); }

std::string welcome_json(const Limits& limits) {
  ojson j;
  j["type"] = "welcome";
  j["server"] = ojson{{"name", kServerName}, {"version", kServerVersion}};
  j["protocol"] = kProtocolVersion;
  ojson variants = ojson::array();
  for (auto v : kAllVariants) {
    ojson opts = ojson::array();
    for (const auto& spec : option_specs(v)) {
      ojson o;
      o["name"] = spec.name;
      o["type"] = spec.type == OptionType::Bool ? "bool" : "int";
      if (spec.type == OptionType::Bool) {
        o["min"] = spec.min;
        o["max"] = spec.max;
        o["default"] = spec.def != 0;
      } else {
        o["min"] = spec.min;
        o["max"] = spec.max;
        o["default"] = spec.def;
      }
      o["help"] = spec.help;
      opts.push_back(std::move(o));
    }
    variants.push_back(ojson{{"id", variant_key(v)},
                             {"name", variant_title(v)},
                             {"sides", {side_name(v, Side::First), side_name(v, Side::Second)}},
                             {"options", std::move(opts)}});
  }
  j["variants"] = std::move(variants);
  j["ai"] = ojson{{"min_level", kComputerMinLevel}, {"max_level", kComputerMaxLevel}};
  j["limits"] = ojson{{"max_message_bytes", limits.max_message_bytes},
                      {"rate_per_second", limits.rate_per_second},
                      {"rate_burst", limits.rate_burst},
                      {"chat_max_chars", limits.chat_max_chars},
                      {"name_max_chars", limits.name_max_chars},
                      {"send_queue_max", limits.send_queue_max},
                      {"send_queue_max_bytes", limits.send_queue_max_bytes}};
  return dump(j);
}

std::string joined_json(const RequestId& id, std::string_view room, std::string_view seat,
                        const std::optional<std::string>& token) {
  ojson j;
  j["type"] = "joined";
  put_id(j, id);
  j["room"] = room;
  j["seat"] = seat;
  j["token"] = token ? ojson(*token) : ojson(nullptr);
  j["url"] = room_url(room);
  return dump(j);
}

std::string error_json(const RequestId& id, const Error& e, std::string_view request) {
  ojson j;
  j["type"] = "error";
  put_id(j, id);
  j["code"] = error_code_name(e.code);
  j["message"] = e.message;
  if (!request.empty()) j["request"] = request;
  return dump(j);
}

std::string ok_json(const RequestId& id, std::string_view request) {
  ojson j;
  j["type"] = "ok";
  put_id(j, id);
  j["request"] = request;
  return dump(j);
}

std::string notice_json(std::string_view code, std::string_view message) {
  return dump(ojson{{"type", "notice"}, {"code", code}, {"message", message}});
}

std::string chat_json(std::string_view from, std::string_view seat, std::string_view text) {
  return dump(ojson{{"type", "chat"}, {"from", from}, {"seat", seat}, {"text", text}});
}

std::string draw_offer_json(VariantId v, Side from) {
  return dump(ojson{{"type", "draw_offer"}, {"from", side_name(v, from)}});
}

std::string draw_declined_json(VariantId v, Side from) {
  return dump(ojson{{"type", "draw_declined"}, {"from", side_name(v, from)}});
}

std::string rematch_offer_json(VariantId v, Side from) {
  return dump(ojson{{"type", "rematch_offer"}, {"from", side_name(v, from)}});
}

namespace {

// The state goes out after every action, so it is written straight into its string: building it as
// a JSON tree first spent about a third of the server's CPU in allocation (perf, closed-loop load).
// Only names and values the server itself chose go in unescaped (side, kind, rank, status names,
// room ids); anything a client sent (player names) goes through the JSON library.
struct Writer {
  std::string& out;

  void raw(std::string_view t) { out += t; }
  void str(std::string_view t) {
    out += '"';
    out += t;
    out += '"';
  }
  void num(std::int64_t v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
  }
  void boolean(bool b) { out += b ? "true" : "false"; }
  void square(Square q) {
    out += '[';
    num(q.x);
    out += ',';
    num(q.y);
    out += ']';
  }
  // A JSON array of `items`, each written by `item`.
  template <class T, class F>
  void list(const std::vector<T>& items, F item) {
    out += '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i) out += ',';
      item(items[i]);
    }
    out += ']';
  }
  void squares(const std::vector<Square>& v) {
    list(v, [this](Square q) { square(q); });
  }
  void action(const Action& a) {  // the keys of action_obj, in its order
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
  void actions(const std::vector<Action>& v) {
    list(v, [this](const Action& a) { action(a); });
  }
  void pieces(VariantId v, const std::vector<Piece>& ps) {  // the keys of piece_json
    list(ps, [this, v](const Piece& p) {
      out += "{\"at\":";
      square(p.at);
      out += ",\"side\":";
      str(side_name(v, p.side));
      out += ",\"kind\":";
      str(kind_name(p.kind));
      out += ",\"rank\":";
      str(rank_name(p.rank));
      out += '}';
    });
  }
};

}  // namespace

std::string state_json(const StateView& s) {
  const Game& g = *s.game;
  const VariantId v = g.variant();
  const auto pieces = g.pieces();
  std::string text;
  text.reserve(512 + 64 * pieces.size());
  Writer w{text};
  w.raw("{\"type\":\"state\",\"room\":");
  w.str(s.room);
  w.raw(",\"variant\":");
  w.str(variant_key(v));
  w.raw(",\"options\":");
  w.raw(dump(options_json(v, g.options())));
  if (g.options().rules != kRulesRevision) {  // only games stored under earlier rules say so
    w.raw(",\"rules\":");
    w.num(g.options().rules);
  }
  w.raw(",\"version\":");
  w.num(s.version);
  w.raw(",\"status\":");
  w.str(status_name(s.status));
  w.raw(",\"turn\":");
  w.str(side_name(v, g.turn()));
  w.raw(",\"board\":{\"width\":");
  w.num(g.width());
  w.raw(",\"height\":");
  w.num(g.height());
  w.raw(",\"pieces\":");
  w.pieces(v, pieces);
  w.raw("},\"legal\":");
  if (s.status == RoomStatus::Playing && s.with_legal) {
    w.actions(g.legal());
  } else {
    w.raw("[]");
  }
  w.raw(",\"last\":");
  if (s.last && *s.last) {
    const LastTurn& t = **s.last;
    w.raw("{\"side\":");
    w.str(side_name(v, t.side));
    w.raw(",\"actions\":");
    w.actions(t.actions);
    w.raw(",\"captured\":");
    w.squares(t.captured);
    w.raw(",\"exploded\":");
    w.squares(t.exploded);
    w.raw(",\"promoted\":");
    w.squares(t.promoted);
    w.raw(",\"complete\":");
    w.boolean(t.complete);
    w.raw("}");
  } else {
    w.raw("null");
  }
  w.raw(",\"result\":");
  w.raw(dump(result_json(v, g.result())));
  w.raw(",\"players\":");
  w.raw(dump(players_json(v, s.players)));
  w.raw(",\"spectators\":");
  w.num(s.spectators);
  if (v == VariantId::Kaboom) {
    w.raw(",\"bombs\":");
    w.raw(dump(bombs_json(v, g.bombs_left())));
    w.raw(",\"connect\":");
    w.num(g.options().connect);
  }
  // Extensions
  w.raw(",\"mid_turn\":");
  w.boolean(g.mid_turn());
  w.raw(",\"jumper\":");
  if (auto jumper = g.jumper()) {
    w.square(*jumper);
  } else {
    w.raw("null");
  }
  w.raw(",\"moves\":");
  w.num(s.moves);
  w.raw(",\"game\":");
  w.num(s.game_number);
  w.raw(",\"draw_offer\":");
  if (s.draw_offer) {
    w.str(side_name(v, *s.draw_offer));
  } else {
    w.raw("null");
  }
  w.raw(",\"rematch\":[");
  bool first = true;
  for (Side side : {Side::First, Side::Second}) {
    if (!s.rematch[static_cast<std::size_t>(index(side))]) continue;
    if (!first) w.raw(",");
    first = false;
    w.str(side_name(v, side));
  }
  w.raw("]}");
  return text;
}

std::string positions_json(std::string_view room, VariantId v, int game_number,
                           const std::vector<std::string>& states) {
  ojson head;
  head["room"] = room;
  head["game"] = game_number;
  head["variant"] = variant_key(v);
  std::string out = dump(head);
  out.pop_back();  // the closing brace: the positions follow
  std::size_t size = out.size() + 16;
  for (const auto& s : states) size += s.size() + 1;
  out.reserve(size);
  out += ",\"positions\":[";
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (i) out += ',';
    out += states[i];
  }
  out += "]}";
  return out;
}

std::string record_json(const RecordView& r) {
  const GameSetup& setup = *r.setup;
  const VariantId v = setup.variant;
  ojson j;
  j["room"] = r.room;
  j["variant"] = variant_key(v);
  j["options"] = options_json(v, setup.options);
  j["rules"] = setup.options.rules;
  j["status"] = status_name(r.status);
  j["game"] = r.game_number;
  j["version"] = r.version;
  j["players"] = players_json(v, r.players);
  Game start = fresh_game(setup);
  ojson st;
  st["pieces"] = pieces_json(v, start.pieces());
  st["turn"] = side_name(v, start.turn());
  if (v == VariantId::Kaboom) st["bombs"] = bombs_json(v, start.bombs_left());
  j["start"] = std::move(st);
  j["custom_start"] = setup.position.has_value();
  ojson actions = ojson::array();
  for (const auto& a : *r.actions) {
    actions.push_back(ojson{{"version", a.version},
                            {"side", side_name(v, a.side)},
                            {"action", action_obj(a.action)}});
  }
  j["actions"] = std::move(actions);
  j["result"] = result_json(v, r.game->result());
  // Extensions: the rematch series and the times (docs/PERSISTENCE.md).
  j["games"] = std::max(r.games, r.game_number);
  j["started_ms"] = r.started_ms > 0 ? ojson(r.started_ms) : ojson(nullptr);
  j["ended_ms"] = r.ended_ms > 0 ? ojson(r.ended_ms) : ojson(nullptr);
  return dump(j);
}

std::string rooms_json(const std::vector<RoomSummary>& rooms) {
  ojson a = ojson::array();
  for (const auto& r : rooms) {
    a.push_back(ojson{{"id", r.id},
                      {"variant", variant_key(r.variant)},
                      {"status", status_name(r.status)},
                      {"seats", players_json(r.variant, r.seats)},
                      {"spectators", r.spectators},
                      {"version", r.version},
                      {"game", r.game_number},
                      {"url", room_url(r.id)}});
  }
  return dump(a);
}

std::string health_json(const Health& h) {
  return dump(ojson{{"status", h.accepting ? "ok" : "stopping"},
                    {"server", kServerName},
                    {"version", kServerVersion},
                    {"protocol", kProtocolVersion},
                    {"rooms", h.rooms},
                    {"connections", h.connections},
                    {"uptime_seconds", h.uptime_seconds}});
}

std::string http_error_json(std::string_view code, std::string_view message) {
  return dump(ojson{{"error", code}, {"message", message}});
}

std::string action_json(const Action& a) { return dump(action_obj(a)); }

// ---------------------------------------------------------------------------------------------
// Persistence

std::string setup_json(const GameSetup& s) {
  const VariantId v = s.variant;
  ojson j;
  j["variant"] = variant_key(v);
  j["options"] = options_json(v, s.options);
  j["rules"] = s.options.rules;
  if (s.position) {
    ojson p;
    p["pieces"] = pieces_json(v, s.position->pieces);
    p["turn"] = side_name(v, s.position->turn);
    if (v == VariantId::Kaboom) p["bombs"] = bombs_json(v, s.position->bombs);
    j["position"] = std::move(p);
  }
  return dump(j);
}

namespace {

// A setup object ({"variant", "options", "position"}) through the create request's checks.
std::variant<GameSetup, Error> setup_from(const json& j) {
  if (!j.is_object()) return Error{ErrorCode::BadMessage, "a setup must be a JSON object"};
  json create = json::object();
  create["type"] = "create";
  for (const char* key : {"variant", "options", "position"}) {
    if (auto it = j.find(key); it != j.end()) create[key] = *it;
  }
  // The rules revision the game was played under; none written means revision 1 (stored before
  // revisions were recorded). A revision this server does not know is refused, not guessed.
  int rules = 1;
  if (auto it = j.find("rules"); it != j.end()) {
    auto n = as_int(*it);
    if (!n || *n < 1 || *n > kRulesRevision) {
      return Error{ErrorCode::BadOptions, "rules revision " + it->dump() +
                                              " is unknown: this server plays revisions 1 to " +
                                              std::to_string(kRulesRevision)};
    }
    rules = static_cast<int>(*n);
  }
  auto parsed = parse_client_message(create.dump());
  if (auto* e = std::get_if<ParseError>(&parsed)) return e->error;
  auto setup = resolve_create(std::get<CreateMsg>(std::get<ClientMessage>(parsed).body));
  if (auto* s = std::get_if<GameSetup>(&setup); s != nullptr && rules != s->options.rules) {
    s->options.rules = rules;
    s->game = fresh_game(*s);
  }
  return setup;
}

std::optional<std::optional<Result>> result_from(VariantId v, const json& j) {
  if (j.is_null()) return std::optional<std::optional<Result>>(std::in_place);  // a game still on
  if (!j.is_object()) return std::nullopt;
  auto reason = j.find("reason");
  if (reason == j.end() || !reason->is_string()) return std::nullopt;
  auto r = reason_from_name(reason->get<std::string>());
  if (!r) return std::nullopt;
  Result out;
  out.reason = *r;
  if (auto w = j.find("winner"); w != j.end() && !w->is_null()) {
    if (!w->is_string()) return std::nullopt;
    auto side = side_from_name(v, w->get<std::string>());
    if (!side) return std::nullopt;
    out.winner = *side;
  }
  return std::optional<Result>(out);
}

std::int64_t int_or(const json& j, const char* key, std::int64_t def) {
  auto it = j.find(key);
  if (it == j.end()) return def;
  return as_int(*it).value_or(def);
}

}  // namespace

std::variant<GameSetup, Error> parse_setup_json(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) return Error{ErrorCode::BadMessage, "the setup is not valid JSON"};
  return setup_from(j);
}

std::string result_text(VariantId v, const std::optional<Result>& r) {
  return r ? dump(result_json(v, r)) : std::string();
}

std::optional<std::optional<Result>> parse_result_text(VariantId v, std::string_view text) {
  if (text.empty()) return std::optional<Result>{};
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  return result_from(v, j);
}

std::string names_json(VariantId v, const SeatNames& names) {
  ojson j = ojson::object();
  for (Side s : {Side::First, Side::Second}) {
    const auto& n = names[static_cast<std::size_t>(index(s))];
    j[std::string(side_name(v, s))] = n ? ojson(*n) : ojson(nullptr);
  }
  return dump(j);
}

SeatNames parse_names_json(VariantId v, std::string_view text) {
  SeatNames out;
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (!j.is_object()) return out;
  for (Side s : {Side::First, Side::Second}) {
    auto it = j.find(std::string(side_name(v, s)));
    if (it == j.end()) continue;
    if (it->is_string()) {
      out[static_cast<std::size_t>(index(s))] = it->get<std::string>();
    } else if (it->is_object() && it->contains("name") && (*it)["name"].is_string()) {
      out[static_cast<std::size_t>(index(s))] = (*it)["name"].get<std::string>();
    }
  }
  return out;
}

std::variant<ParsedRecord, std::string> parse_record_json(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) return std::string("the record is not valid JSON");
  if (!j.is_object()) return std::string("a record must be a JSON object");
  json setup = json::object();
  if (auto it = j.find("variant"); it != j.end()) setup["variant"] = *it;
  if (auto it = j.find("options"); it != j.end()) setup["options"] = *it;
  if (auto it = j.find("rules"); it != j.end()) setup["rules"] = *it;
  auto custom = j.find("custom_start");
  if (custom != j.end() && custom->is_boolean() && custom->get<bool>()) {
    auto start = j.find("start");
    if (start == j.end()) return std::string("`custom_start` is true but there is no `start`");
    setup["position"] = *start;
  }
  auto s = setup_from(setup);
  if (auto* e = std::get_if<Error>(&s)) return "the record's setup is refused: " + e->message;
  ParsedRecord out(std::get<GameSetup>(std::move(s)));
  if (auto r = j.find("room"); r != j.end() && r->is_string()) out.room = r->get<std::string>();
  const VariantId v = out.setup.variant;
  out.game_number = static_cast<int>(int_or(j, "game", 1));
  out.version = int_or(j, "version", -1);
  out.started_ms = int_or(j, "started_ms", 0);
  out.ended_ms = int_or(j, "ended_ms", 0);
  if (auto p = j.find("players"); p != j.end()) out.names = parse_names_json(v, p->dump());
  if (auto r = j.find("result"); r != j.end()) {
    auto res = result_from(v, *r);
    if (!res) return std::string("`result` is not {\"winner\":..,\"reason\":..} or null");
    out.result = *res;
  }
  auto actions = j.find("actions");
  if (actions == j.end() || !actions->is_array()) return std::string("`actions` must be a list");
  std::int64_t expected = 1;
  for (const auto& e : *actions) {
    const std::int64_t version = e.is_object() ? int_or(e, "version", expected) : expected;
    auto fail = [&](std::string why) { out.malformed = std::make_pair(version, std::move(why)); };
    if (!e.is_object()) {
      fail("the entry is not an object");
      break;
    }
    auto side_it = e.find("side");
    auto side = side_it != e.end() && side_it->is_string()
                    ? side_from_name(v, side_it->get<std::string>())
                    : std::nullopt;
    if (!side) {
      fail("`side` is not a side of " + std::string(variant_key(v)));
      break;
    }
    auto a = e.find("action");
    if (a == e.end()) {
      fail("`action` is missing");
      break;
    }
    auto r = read_action(*a);
    auto* act = std::get_if<std::optional<Action>>(&r);
    if (!act || !*act) {
      fail(act ? std::string("the action names no known kind") : std::get<std::string>(r));
      break;
    }
    out.actions.push_back(LoggedAction{version, *side, **act});
    expected = version + 1;
  }
  return out;
}

std::optional<Action> parse_action_text(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  auto r = read_action(j);
  if (auto* a = std::get_if<std::optional<Action>>(&r)) return *a;
  return std::nullopt;
}

}  // namespace bc::server

// Client messages: JSON text into typed requests (docs/PROTOCOL.md, "Client to server"). Never
// throws: the text is parsed with exceptions off and every field is checked for its type first.
#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <utility>

#include "server/wire/json.hpp"

namespace bc::server {

namespace {

constexpr std::array<std::string_view, kErrorCodeCount> kErrorNames{
    "bad_message",        "unknown_type",         "unknown_room",     "unknown_variant",
    "bad_options",        "bad_position",         "seat_taken",       "not_a_player",
    "not_your_turn",      "illegal_action",       "stale_version",    "game_over",
    "bad_token",          "rate_limited",         "too_large",        "not_started",
    "no_draw_offer",      "game_not_over",        "server_full",      "server_error",
    "too_many_rooms",     "too_many_spectators",  "cannot_claim",     "no_takeback",
    "no_takeback_offer",  "analysis_not_allowed", "sign_in_required", "unknown_pool",
    "rating_out_of_range"};

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
  // An optional boolean; absent or null leaves `out` as it is.
  void boolean(const char* key, bool& out) {
    auto it = j_.find(key);
    if (it == j_.end() || it->is_null()) return;
    if (!it->is_boolean()) return fail(std::string("`") + key + "` must be true or false");
    out = it->get<bool>();
  }
  // `compact`: true or false, or the level 0, 1 or 2; absent or null leaves `out` as it is.
  void state_form(const char* key, StateForm& out) {
    auto it = j_.find(key);
    if (it == j_.end() || it->is_null()) return;
    if (it->is_boolean()) {
      out = it->get<bool>() ? StateForm::Delta : StateForm::Full;
    } else if (auto n = as_int(*it); n && *n >= 0 && *n <= 2) {
      out = static_cast<StateForm>(*n);
    } else {
      fail(std::string("`") + key + "` must be true, false, 0, 1 or 2");
    }
  }
  // A required boolean (`accept`).
  void required_boolean(const char* key, bool& out) {
    auto it = j_.find(key);
    if (it == j_.end() || !it->is_boolean())
      return fail(std::string("`") + key + "` must be true or false");
    out = it->get<bool>();
  }
  // A client's lag estimate in ms (act, ping); absent or null leaves `out` as it is.
  template <class T>
  void lag(const char* key, T& out) {
    auto it = j_.find(key);
    if (it == j_.end() || it->is_null()) return;
    auto n = as_int(*it);
    if (!n || *n < 0 || *n > kMaxClaimedLagMs) {
      return fail("`" + std::string(key) + "` must be your network lag in milliseconds, 0 to " +
                  std::to_string(kMaxClaimedLagMs));
    }
    out = *n;
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
    if (!b->is_object())
      return std::string("`position.bombs` must be an object like {\"x\":1,\"o\":1}");
    for (auto it = b->begin(); it != b->end(); ++it) {
      auto v = as_small_int(it.value());
      if (!v) return "`position.bombs." + it.key() + "` must be an integer";
      out.bombs.emplace_back(it.key(), *v);
    }
    out.has_bombs = true;
  }
  return out;
}

// `clock`: {"base": seconds, "increment": seconds} (Fischer) or {"days": n} (correspondence). A
// wrong type is a bad_message; a number out of range is bad_options (resolve_create).
void read_clock(const json& c, Fields& f, CreateMsg& m) {
  constexpr double kMaxBase = 180 * 60;
  constexpr double kMaxIncrement = 180;
  constexpr std::int64_t kMaxDays = 14;
  if (!c.is_object()) {
    return f.fail("`clock` must be an object like {\"base\":300,\"increment\":3} or {\"days\":3}");
  }
  auto seconds = [&](const char* key, double& out) {
    auto it = c.find(key);
    if (it == c.end() || it->is_null()) return true;
    if (!it->is_number()) {
      f.fail(std::string("`clock.") + key + "` must be a number of seconds");
      return false;
    }
    out = it->get<double>();
    return true;
  };
  if (auto d = c.find("days"); d != c.end() && !d->is_null()) {
    auto n = as_int(*d);
    if (!n) return f.fail("`clock.days` must be a whole number of days");
    if (c.contains("base") || c.contains("increment")) {
      return f.fail("`clock` is either {\"days\"} or {\"base\", \"increment\"}, not both");
    }
    if (*n < 1 || *n > kMaxDays) {
      m.clock_error = "`clock.days` must be from 1 to " + std::to_string(kMaxDays);
      return;
    }
    m.clock = TimeControl{TimeControl::Kind::Correspondence, *n * 86'400'000, 0};
    return;
  }
  double base = -1;
  double increment = 0;
  if (!seconds("base", base) || !seconds("increment", increment)) return;
  if (base < 0) return f.fail("`clock` needs `base` (seconds) or `days`");
  if (!(base >= 1 && base <= kMaxBase) || !(increment >= 0 && increment <= kMaxIncrement)) {
    m.clock_error = "`clock.base` must be from 1 to " + std::to_string(static_cast<int>(kMaxBase)) +
                    " seconds and `clock.increment` from 0 to " +
                    std::to_string(static_cast<int>(kMaxIncrement));
    return;
  }
  m.clock = TimeControl{TimeControl::Kind::Fischer, std::llround(base * 1000),
                        std::llround(increment * 1000)};
}

ParseError refuse(RequestId id, std::string type, std::string message,
                  ErrorCode code = ErrorCode::BadMessage) {
  return ParseError{Error{code, std::move(message)}, std::move(id), std::move(type)};
}

// `variant`, `options` and `position`: a game's setup, as create and a free analyse send it.
void read_setup(Fields& f, CreateMsg& m) {
  f.required_str("variant", m.variant);
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
  if (const json* p = f.find("position"); p && !p->is_null()) {
    auto r = read_position(*p);
    if (auto* raw = std::get_if<RawPosition>(&r)) {
      m.position = std::move(*raw);
    } else {
      m.position_error = std::get<std::string>(r);
    }
  }
}

// One parser per request type: each reads its fields, remembering the first problem in `f`.
MessageBody parse_create(Fields& f) {
  CreateMsg m;
  read_setup(f, m);
  f.str("name", m.name);
  f.str("seat", m.seat);
  f.state_form("compact", m.compact);
  if (const json* names = f.find("names"); names && !names->is_null()) {
    if (!names->is_object() || names->size() > 2) {
      f.fail("`names` must be an object of at most two sides' names, like {\"fire\":\"Ann\"}");
    } else {
      for (auto it = names->begin(); it != names->end(); ++it) {
        if (it->is_string()) {
          m.names.emplace_back(it.key(), it->get<std::string>());
        } else {
          f.fail("each of `names` must be a string");
        }
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
  if (const json* c = f.find("clock"); c && !c->is_null()) read_clock(*c, f, m);
  f.boolean("rated", m.rated);
  if (const json* r = f.find("range"); r && !r->is_null()) {
    auto bound = [&](const char* key, int fallback) -> std::optional<int> {
      auto it = r->find(key);
      if (it == r->end() || it->is_null()) return fallback;
      auto n = as_int(*it);
      if (!n) return std::nullopt;
      return static_cast<int>(std::clamp<std::int64_t>(*n, -1, kMaxRating + 1));
    };
    auto lo = r->is_object() ? bound("min", 0) : std::nullopt;
    auto hi = r->is_object() ? bound("max", kMaxRating) : std::nullopt;
    if (!lo || !hi) {
      f.fail("`range` must be an object like {\"min\":1300,\"max\":1700} of whole ratings");
    } else if (*lo < 0 || *hi > kMaxRating || *lo > *hi) {
      m.range_error = "`range` must have 0 <= min <= max <= " + std::to_string(kMaxRating);
    } else {
      m.range = std::make_pair(*lo, *hi);
    }
  }
  return m;
}

MessageBody parse_pool(Fields& f) {
  PoolMsg m;
  if (const json* p = f.find("pool"); p && !p->is_null()) {
    if (!p->is_string() || p->get_ref<const std::string&>().size() > 64) {
      f.fail("`pool` must be a pool's id like \"bomb-3+2\" (from `welcome`), or null to leave");
    } else {
      m.pool = p->get<std::string>();
    }
  }
  return m;
}

MessageBody parse_join(Fields& f) {
  JoinMsg m;
  f.required_str("room", m.room);
  f.str("seat", m.seat);
  f.str("name", m.name);
  f.state_form("compact", m.compact);
  if (const json* tok = f.find("token"); tok && !tok->is_null()) {
    if (!tok->is_string()) {
      f.fail("`token` must be a string");
    } else {
      m.token = tok->get<std::string>();
    }
  }
  return m;
}

MessageBody parse_act(Fields& f) {
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
  f.lag("lag", m.lag);
  return m;
}

MessageBody parse_answer_draw(Fields& f) {
  AnswerDrawMsg m;
  f.required_boolean("accept", m.accept);
  return m;
}

MessageBody parse_answer_takeback(Fields& f) {
  AnswerTakebackMsg m;
  f.required_boolean("accept", m.accept);
  return m;
}

MessageBody parse_chat(Fields& f) {
  ChatMsg m;
  f.required_str("text", m.text);
  return m;
}

MessageBody parse_ping(Fields& f) {
  PingMsg m;
  if (const json* t = f.find("t"); t && !t->is_null()) {
    if (!t->is_number()) {
      f.fail("`t` must be a number (your clock's time), or left out");
    } else {
      m.t = t->get<double>();
    }
  }
  f.lag("lag", m.lag);
  return m;
}

MessageBody parse_analyse(Fields& f) {
  AnalyseMsg m;
  auto whole = [&](const char* key, std::optional<std::int64_t>& out) {
    const json* v = f.find(key);
    if (!v || v->is_null()) return;
    auto n = as_int(*v);
    if (!n || *n < 0) return f.fail("`" + std::string(key) + "` must be a whole number");
    out = *n;
  };
  whole("version", m.version);
  whole("game", m.game);
  f.boolean("history", m.history);
  f.boolean("moves", m.moves);
  f.boolean("lagged", m.lagged);
  whole("from", m.from);
  if (m.lagged && !m.history) f.fail("`lagged` is a form of the history: it needs `history`");
  if (m.from && !m.lagged) f.fail("`from` goes with `lagged`");
  if (const json* v = f.find("variant"); v && !v->is_null()) {
    CreateMsg setup;
    read_setup(f, setup);
    if (m.version || m.game || m.history) {
      f.fail("a free position (`variant`, `position`) takes no `version`, `game` or `history`");
    }
    m.free = std::move(setup);
  } else if (const json* p = f.find("position"); p && !p->is_null()) {
    f.fail("a `position` needs its `variant`");
  }
  return m;
}

MessageBody parse_claim(Fields& f) {
  ClaimMsg m;
  f.boolean("draw", m.draw);
  return m;
}

template <class Msg>
MessageBody no_fields(Fields&) {
  return Msg{};
}

using BodyParser = MessageBody (*)(Fields&);
constexpr std::pair<std::string_view, BodyParser> kParsers[] = {
    {"create", parse_create},
    {"join", parse_join},
    {"act", parse_act},
    {"resign", no_fields<ResignMsg>},
    {"offer_draw", no_fields<OfferDrawMsg>},
    {"answer_draw", parse_answer_draw},
    {"rematch", no_fields<RematchMsg>},
    {"chat", parse_chat},
    {"leave", no_fields<LeaveMsg>},
    {"sync", no_fields<SyncMsg>},
    {"ping", parse_ping},
    {"claim", parse_claim},
    {"takeback", no_fields<TakebackMsg>},
    {"answer_takeback", parse_answer_takeback},
    {"analyse", parse_analyse},
    {"pool", parse_pool},
};

}  // namespace

std::string_view error_code_name(ErrorCode c) {
  return kErrorNames[static_cast<std::size_t>(c)];
}

std::string_view message_type(const MessageBody& b) {
  constexpr std::array<std::string_view, std::variant_size_v<MessageBody>> kNames{
      "create", "join", "act",  "resign", "offer_draw", "answer_draw",     "rematch", "chat",
      "leave",  "sync", "ping", "claim",  "takeback",   "answer_takeback", "analyse", "pool"};
  return kNames[b.index()];
}

std::variant<ClientMessage, ParseError> parse_client_message_tree(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) return refuse({}, "", "the message is not valid JSON");
  if (!j.is_object()) return refuse({}, "", "a message must be a JSON object");
  RequestId id = read_id(j);
  auto t = j.find("type");
  if (t == j.end() || !t->is_string()) {
    return refuse(std::move(id), "", "a message needs a string field `type`");
  }
  std::string type = t->get<std::string>();
  const auto* parser = std::find_if(std::begin(kParsers), std::end(kParsers),
                                    [&](const auto& p) { return p.first == type; });
  if (parser == std::end(kParsers)) {
    return refuse(std::move(id), type, "unknown message type '" + type + "'",
                  ErrorCode::UnknownType);
  }
  Fields f(j);
  ClientMessage out{std::move(id), parser->second(f)};
  if (f.error) return refuse(std::move(out.id), type, std::move(*f.error));
  return out;
}

std::variant<ClientMessage, ParseError> parse_client_message(std::string_view text) {
  if (auto act = parse_act_fast(text)) return std::move(*act);
  return parse_client_message_tree(text);
}

}  // namespace bc::server

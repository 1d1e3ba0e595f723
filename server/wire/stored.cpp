// The texts kept in the store's rows (docs/PERSISTENCE.md) and game records read back from files.
#include <algorithm>
#include <cmath>

#include "server/wire/json.hpp"

namespace bc::server {

std::string setup_json(const GameSetup& s) {
  const VariantId v = s.variant;
  std::string text;
  Writer w{text};
  w.raw("{\"variant\":");
  w.str(variant_key(v));
  w.raw(",\"options\":");
  w.raw(dump(options_json(v, s.options)));
  w.raw(",\"rules\":");
  w.num(s.options.rules);
  if (s.position) {
    w.raw(",\"position\":{\"pieces\":");
    w.pieces(v, s.position->pieces);
    w.raw(",\"turn\":");
    w.str(side_name(v, s.position->turn));
    if (v == VariantId::Kaboom) {
      w.raw(",\"bombs\":");
      w.raw(dump(bombs_json(v, s.position->bombs)));
    }
    w.raw("}");
  }
  if (s.clock) {
    w.raw(",\"clock\":");
    w.raw(clock_json(*s.clock));
  }
  if (s.one_screen) w.raw(",\"one_screen\":true");
  if (s.rated) w.raw(",\"rated\":true");
  if (!s.kept_for.empty()) {
    w.raw(",\"kept_for\":");
    w.str(s.kept_for);
  }
  if (s.range) {
    w.raw(",\"range\":{\"min\":");
    w.num(s.range->first);
    w.raw(",\"max\":");
    w.num(s.range->second);
    w.raw("}");
  }
  w.raw("}");
  return text;
}

namespace {

// A setup object ({"variant", "options", "position"}) through the create request's checks.
std::variant<GameSetup, Error> setup_from(const json& j) {
  if (!j.is_object()) return Error{ErrorCode::BadMessage, "a setup must be a JSON object"};
  json create = json::object();
  create["type"] = "create";
  for (const char* key : {"variant", "options", "position", "clock", "rated", "range"}) {
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
  if (auto* s = std::get_if<GameSetup>(&setup)) {
    auto one = j.find("one_screen");
    s->one_screen = one != j.end() && one->is_boolean() && one->get<bool>();
    auto kept = j.find("kept_for");
    if (kept != j.end() && kept->is_string()) s->kept_for = kept->get<std::string>();
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

namespace {

ojson rating_object(const players::Rating& r) {
  ojson j = ojson{{"rating", r.rating}, {"deviation", r.deviation}, {"volatility", r.volatility}};
  j["last"] = r.last_game_ms ? ojson(*r.last_game_ms) : ojson(nullptr);
  return j;
}

std::optional<players::Rating> rating_from(const json& j) {
  if (!j.is_object()) return std::nullopt;
  players::Rating r;
  auto num = [&](const char* key, double& out) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number()) return false;
    out = it->get<double>();
    return std::isfinite(out);
  };
  if (!num("rating", r.rating) || !num("deviation", r.deviation) ||
      !num("volatility", r.volatility))
    return std::nullopt;
  if (auto it = j.find("last"); it != j.end() && it->is_number_integer())
    r.last_game_ms = it->get<std::int64_t>();
  return r;
}

}  // namespace

std::string names_json(VariantId v, const SeatNames& names, const SeatPlayers& players) {
  ojson j = ojson::object();
  for (Side s : {Side::First, Side::Second}) {
    const std::size_t i = static_cast<std::size_t>(index(s));
    const auto& n = names[i];
    const auto& p = players[i];
    if (n && p) {
      ojson e = ojson{{"name", *n}, {"player", p->id}};
      if (!p->account.empty()) e["account"] = p->account;
      if (p->bot) e["bot"] = true;
      e["rating"] = rating_object(p->rating);
      e["record"] = ojson::array({p->wins, p->draws, p->losses});
      if (p->after) {
        e["after"] = rating_object(*p->after);
        e["score"] = p->score;
      }
      j[std::string(side_name(v, s))] = std::move(e);
    } else {
      j[std::string(side_name(v, s))] = n ? ojson(*n) : ojson(nullptr);
    }
  }
  return dump(j);
}

std::string identity_json(const Identity& who) {
  ojson ratings = ojson::array();
  for (const auto& r : who.ratings) {
    ojson e = rating_object(r.rating);
    e["perf"] = r.perf;
    e["record"] = ojson::array({r.wins, r.draws, r.losses});
    ratings.push_back(std::move(e));
  }
  return dump(ojson{{"id", who.id}, {"name", who.name}, {"ratings", std::move(ratings)}});
}

std::optional<Identity> parse_identity_json(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (!j.is_object()) return std::nullopt;
  auto id = j.find("id");
  auto name = j.find("name");
  if (id == j.end() || !id->is_string() || name == j.end() || !name->is_string())
    return std::nullopt;
  Identity who{id->get<std::string>(), name->get<std::string>(), {}};
  if (auto rs = j.find("ratings"); rs != j.end() && rs->is_array()) {
    for (const auto& e : *rs) {
      auto perf = e.is_object() ? e.find("perf") : e.end();
      auto rating = rating_from(e);
      if (perf == e.end() || !perf->is_string() || !rating) continue;
      PerfRating p{perf->get<std::string>(), *rating};
      if (auto rec = e.find("record"); rec != e.end() && rec->is_array() && rec->size() == 3) {
        int* counts[] = {&p.wins, &p.draws, &p.losses};
        for (std::size_t k = 0; k < 3; ++k) {
          if ((*rec)[k].is_number_integer()) *counts[k] = (*rec)[k].get<int>();
        }
      }
      who.ratings.push_back(std::move(p));
    }
  }
  return who;
}

SeatPlayers parse_seat_players(VariantId v, std::string_view text) {
  SeatPlayers out;
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (!j.is_object()) return out;
  for (Side s : {Side::First, Side::Second}) {
    auto it = j.find(std::string(side_name(v, s)));
    if (it == j.end() || !it->is_object()) continue;
    auto id = it->find("player");
    if (id == it->end() || !id->is_string()) continue;
    SeatPlayer p;
    p.id = id->get<std::string>();
    if (auto a = it->find("account"); a != it->end() && a->is_string())
      p.account = a->get<std::string>();
    if (auto b = it->find("bot"); b != it->end() && b->is_boolean()) p.bot = b->get<bool>();
    if (auto r = it->find("rating"); r != it->end()) {
      if (auto rating = rating_from(*r)) p.rating = *rating;
    }
    if (auto rec = it->find("record"); rec != it->end() && rec->is_array() && rec->size() == 3) {
      int* counts[] = {&p.wins, &p.draws, &p.losses};
      for (std::size_t k = 0; k < 3; ++k) {
        if ((*rec)[k].is_number_integer()) *counts[k] = (*rec)[k].get<int>();
      }
    }
    if (auto a = it->find("after"); a != it->end()) p.after = rating_from(*a);
    if (auto sc = it->find("score"); sc != it->end() && sc->is_number())
      p.score = sc->get<double>();
    out[static_cast<std::size_t>(index(s))] = std::move(p);
  }
  return out;
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

std::variant<GameRecord, std::string> parse_record_json(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) return std::string("the record is not valid JSON");
  if (!j.is_object()) return std::string("a record must be a JSON object");
  json setup = json::object();
  if (auto it = j.find("variant"); it != j.end()) setup["variant"] = *it;
  if (auto it = j.find("options"); it != j.end()) setup["options"] = *it;
  if (auto it = j.find("rules"); it != j.end()) setup["rules"] = *it;
  if (auto it = j.find("clock"); it != j.end()) setup["clock"] = *it;
  if (auto it = j.find("one_screen"); it != j.end()) setup["one_screen"] = *it;
  auto custom = j.find("custom_start");
  if (custom != j.end() && custom->is_boolean() && custom->get<bool>()) {
    auto start = j.find("start");
    if (start == j.end()) return std::string("`custom_start` is true but there is no `start`");
    setup["position"] = *start;
  }
  auto s = setup_from(setup);
  if (auto* e = std::get_if<Error>(&s)) return "the record's setup is refused: " + e->message;
  GameRecord out(std::get<GameSetup>(std::move(s)));
  if (auto r = j.find("room"); r != j.end() && r->is_string()) out.room = r->get<std::string>();
  const VariantId v = out.setup.variant;
  out.game_number = static_cast<int>(int_or(j, "game", 1));
  out.games = std::max(out.game_number, static_cast<int>(int_or(j, "games", 1)));
  out.version = int_or(j, "version", -1);
  out.started_ms = int_or(j, "started_ms", 0);
  out.ended_ms = int_or(j, "ended_ms", 0);
  if (auto p = j.find("players"); p != j.end()) {
    const SeatNames names = parse_names_json(v, p->dump());
    for (std::size_t i = 0; i < 2; ++i) {
      if (names[i]) out.seats[i] = StoredSeat{*names[i], {}};
    }
  }
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
  if (auto t = j.find("takebacks"); t != j.end() && t->is_array()) {
    for (const auto& e : *t) {
      const std::int64_t version = e.is_object() ? int_or(e, "version", -1) : -1;
      const std::int64_t to = e.is_object() ? int_or(e, "to", -1) : -1;
      if (version < 1 || to < 0 || to >= version)
        return std::string("a takeback is not {version, to}");
      out.takebacks.push_back(TakeBack{version, to});
    }
  }
  if (auto h = j.find("hints"); h != j.end() && h->is_array()) {
    for (const auto& e : *h) {
      auto hint = as_int(e);
      if (!hint || *hint < 0) return std::string("a hint is not a version");
      out.hints.push_back(*hint);
    }
  }
  return out;
}

std::string hint_row_json(std::int64_t version) {
  return "{\"kind\":\"hint\",\"version\":" + std::to_string(version) + "}";
}

std::optional<std::int64_t> parse_hint_row(std::string_view text, std::int64_t row_version) {
  if (row_version >= 0 || text.find("\"hint\"") == std::string_view::npos) return std::nullopt;
  const json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (!j.is_object() || j.value("kind", "") != "hint") return std::nullopt;
  return -1 - row_version;
}

std::string takeback_row_json(std::int64_t to) {
  return "{\"kind\":\"takeback\",\"to\":" + std::to_string(to) + "}";
}

std::optional<std::int64_t> parse_takeback_row(std::string_view text) {
  if (text.find("\"takeback\"") == std::string_view::npos) return std::nullopt;
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (!j.is_object() || j.value("kind", "") != "takeback") return std::nullopt;
  auto to = j.find("to");
  if (to == j.end()) return std::nullopt;
  auto n = as_int(*to);
  if (!n || *n < 0) return std::nullopt;
  return *n;
}

std::optional<Action> parse_action_text(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  auto r = read_action(j);
  if (auto* a = std::get_if<std::optional<Action>>(&r)) return *a;
  return std::nullopt;
}

}  // namespace bc::server

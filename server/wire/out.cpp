// Server messages (docs/PROTOCOL.md, "Server to client") and the HTTP API's bodies. The record is
// written straight into its text by the one Writer (json.hpp), the state too (state.cpp);
// the rest are small trees.
#include <algorithm>

#include "server/wire/json.hpp"
#include "server/wire/limits.hpp"

namespace bc::server {

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

std::string room_url(std::string_view room) {
  return "/r/" + std::string(room);
}

std::string joined_json(const RequestId& id, std::string_view room, std::string_view seat,
                        const std::optional<std::string>& token, bool one_screen) {
  ojson j;
  j["type"] = "joined";
  put_id(j, id);
  j["room"] = room;
  j["seat"] = seat;
  j["token"] = token ? ojson(*token) : ojson(nullptr);
  j["url"] = room_url(room);
  if (one_screen) j["one_screen"] = true;  // the token holds both seats
  return dump(j);
}

std::string options_text(VariantId v, const Options& o) {
  const Options d = default_options(v);
  std::vector<std::string> words;
  if (v == VariantId::Kaboom) {
    if (o.width != d.width || o.height != d.height) {
      words.push_back(std::to_string(o.width) + "x" + std::to_string(o.height) + " board");
    }
    if (o.connect != d.connect) words.push_back("connect " + std::to_string(o.connect));
    if (o.bombs != d.bombs) {
      words.push_back(o.bombs == 0   ? std::string("no bombs")
                      : o.bombs == 1 ? std::string("1 bomb each")
                                     : std::to_string(o.bombs) + " bombs each");
    }
    if (o.misere) words.push_back("mis\u00e8re");
    if (o.superbomb) words.push_back("super-bomb");
  } else if (o.draw_turns != d.draw_turns) {
    words.push_back(o.draw_turns == 0
                        ? std::string("no draw rule")
                        : "draw after " + std::to_string(o.draw_turns) + " quiet turns");
  }
  if (o.rules != kRulesRevision) words.push_back("rules of revision " + std::to_string(o.rules));
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
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

std::string presence_json(VariantId v, const std::array<PlayerView, 2>& players,
                          const std::array<std::optional<std::int64_t>, 2>& lag) {
  ojson j;
  j["type"] = "presence";
  ojson p = ojson::object();
  for (Side s : {Side::First, Side::Second}) {
    const auto i = static_cast<std::size_t>(index(s));
    p[std::string(side_name(v, s))] = ojson{{"connected", players[i].connected},
                                            {"lag", lag[i] ? ojson(*lag[i]) : ojson(nullptr)}};
  }
  j["players"] = std::move(p);
  return dump(j);
}

std::string takeback_offer_json(VariantId v, Side from) {
  ojson j;
  j["type"] = "takeback_offer";
  j["from"] = side_name(v, from);
  return dump(j);
}

std::string takeback_declined_json(VariantId v, Side from) {
  ojson j;
  j["type"] = "takeback_declined";
  j["from"] = side_name(v, from);
  return dump(j);
}

std::string pong_json(const RequestId& id, std::optional<double> t, std::int64_t now_unix_ms) {
  ojson j;
  j["type"] = "pong";
  put_id(j, id);
  if (t) j["t"] = *t;
  j["now"] = now_unix_ms;
  return dump(j);
}

std::string pool_json(const RequestId& id, std::optional<std::string_view> pool,
                      std::size_t waiting, std::string_view dropped) {
  ojson j;
  j["type"] = "pool";
  put_id(j, id);
  j["pool"] = pool ? ojson(*pool) : ojson(nullptr);
  if (pool) j["waiting"] = waiting;
  if (!dropped.empty()) j["dropped"] = dropped;
  return dump(j);
}

std::string paired_json(std::string_view pool, std::string_view room, bool join) {
  return dump(ojson{{"type", "paired"},
                    {"pool", pool},
                    {"room", room},
                    {"url", "/r/" + std::string(room)},
                    {"join", join}});
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
  const Game start = fresh_game(setup);
  std::string text;
  Writer w{text};
  w.raw("{\"room\":");
  w.text(r.room);
  w.raw(",\"variant\":");
  w.str(variant_key(v));
  w.raw(",\"options\":");
  w.options(v, setup.options);
  w.raw(",\"options_text\":");
  w.str(options_text(v, setup.options));
  w.raw(",\"rules\":");
  w.num(setup.options.rules);
  w.raw(",\"one_screen\":");
  w.boolean(setup.one_screen);
  w.raw(",\"status\":");
  w.str(status_name(r.status));
  w.raw(",\"game\":");
  w.num(r.game_number);
  w.raw(",\"version\":");
  w.num(r.version);
  w.raw(",\"players\":");
  w.players(v, r.players);
  w.raw(",\"start\":{\"pieces\":");
  w.pieces(v, start.pieces());
  w.raw(",\"turn\":");
  w.str(side_name(v, start.turn()));
  if (v == VariantId::Kaboom) {
    w.raw(",\"bombs\":");
    w.bombs(v, start.bombs_left());
  }
  w.raw("},\"custom_start\":");
  w.boolean(setup.position.has_value());
  w.raw(",\"takebacks\":");
  w.list(*r.takebacks, [&](const TakeBack& t) {
    w.raw("{\"version\":");
    w.num(t.version);
    w.raw(",\"to\":");
    w.num(t.to);
    w.raw("}");
  });
  static const std::vector<std::int64_t> kNoHints;
  w.raw(",\"hints\":");
  w.list(r.hints ? *r.hints : kNoHints, [&](std::int64_t h) { w.num(h); });
  w.raw(",\"clock\":");  // as create takes it; null: untimed
  w.raw(setup.clock ? clock_json(*setup.clock) : std::string("null"));
  w.raw(",\"actions\":");
  w.list(*r.actions, [&](const LoggedAction& a) {
    w.raw("{\"version\":");
    w.num(a.version);
    w.raw(",\"side\":");
    w.str(side_name(v, a.side));
    w.raw(",\"action\":");
    w.action(a.action);
    w.raw("}");
  });
  w.raw(",\"result\":");
  w.result(v, r.game->result());
  // Extensions: the rematch series and the times (docs/PERSISTENCE.md).
  w.raw(",\"games\":");
  w.num(std::max(r.games, r.game_number));
  w.raw(",\"started_ms\":");
  w.num_or_null(r.started_ms);
  w.raw(",\"ended_ms\":");
  w.num_or_null(r.ended_ms);
  w.raw("}");
  return text;
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
                      {"clock", r.clock ? ojson(time_control_text(*r.clock)) : ojson(nullptr)},
                      {"url", room_url(r.id)},
                      {"options", options_json(r.variant, r.options)},
                      {"options_text", options_text(r.variant, r.options)},
                      {"one_screen", r.one_screen},
                      {"rated", r.rated},
                      {"perf", r.rated ? ojson(r.perf) : ojson(nullptr)},
                      {"range", r.range ? ojson{{"min", r.range->first}, {"max", r.range->second}}
                                        : ojson(nullptr)}});
  }
  return dump(a);
}

std::string health_json(const Health& h) {
  const char* status = !h.accepting                     ? "stopping"
                       : h.cluster && !h.cluster->redis ? "redis_unreachable"
                                                        : "ok";
  ojson j{{"status", status},
          {"server", kServerName},
          {"version", kServerVersion},
          {"protocol", kProtocolVersion},
          {"rooms", h.rooms},
          {"connections", h.connections},
          {"uptime_seconds", h.uptime_seconds}};
  if (h.cluster) {
    j["cluster"] =
        ojson{{"node", h.cluster->node}, {"redis", h.cluster->redis}, {"nodes", h.cluster->nodes}};
  }
  return dump(j);
}

std::string http_error_json(std::string_view code, std::string_view message) {
  return dump(ojson{{"error", code}, {"message", message}});
}

std::string action_json(const Action& a) {
  std::string text;
  Writer{text}.action(a);
  return text;
}

}  // namespace bc::server

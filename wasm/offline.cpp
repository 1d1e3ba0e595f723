// The server in the browser, for play with no server (docs/ENGINE.md, "Offline"): the very Room
// of server/room that judges a networked game, and the very computer of ai/, behind the
// WebSocket protocol of docs/PROTOCOL.md for one connection. web/offline/worker.js runs it in a
// Web Worker and hands the page its messages as if they came over the network; only one-screen
// games and games against the computer are offered, as nobody else can join.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "bc/ai.hpp"
#include "bc/ai_analysis.hpp"
#include "export.hpp"
#include "server/host/analysis.hpp"  // the answers' JSON (analysis_json.cpp) and their budgets
#include "server/room/notation.hpp"
#include "server/room/room.hpp"
#include "server/wire/client.hpp"
#include "server/wire/setup.hpp"
#include "server/wire/views.hpp"

namespace {

using namespace bc;
using namespace bc::server;

constexpr MemberId kMe = 1;  // the one connection: the page

std::optional<Room> room;
std::string outbox;  // the messages for the page since it last took them, one JSON text a line
std::string out;     // what bc_offline_take returned: valid until the next call
std::uint64_t rooms_made = 0;

void say(std::string_view text) {
  outbox.append(text);
  outbox.push_back('\n');
}

void deliver(const Outcome& o) {
  for (const Outgoing& m : o.messages) {
    if (m.to && *m.to != kMe) continue;
    if (const auto& text = m.text_for(kMe)) say(*text);
  }
}

void refuse(const RequestId& id, ErrorCode code, std::string message, std::string_view type) {
  say(error_json(id, Error{code, std::move(message)}, type));
}

// A room id like the server's (six letters and digits), new for each game made here.
std::string local_room_id() {
  static constexpr char kLetters[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  std::uint64_t n = std::hash<std::string>{}(random_token()) + ++rooms_made;
  std::string id;
  for (int i = 0; i < 6; ++i, n /= 32) id.push_back(kLetters[n % 32]);
  return id;
}

void create(const RequestId& id, CreateMsg& c) {
  auto setup = resolve_create(c);
  if (auto* e = std::get_if<Error>(&setup)) return refuse(id, e->code, e->message, "create");
  auto& s = std::get<GameSetup>(setup);
  auto seat = resolve_seat(s.variant, c.seat, true);
  if (auto* e = std::get_if<Error>(&seat)) return refuse(id, e->code, e->message, "create");
  auto& choice = std::get<SeatChoice>(seat);
  if (!c.opponent && choice.kind != SeatKind::Both) {
    return refuse(id, ErrorCode::BadOptions,
                  "with no server, nobody else can join: play both sides on this screen, or "
                  "against the computer",
                  "create");
  }
  if (room) deliver(room->close("you started another game"));
  choice.names = std::move(c.names);
  room.emplace(local_room_id(), std::move(s));
  room->set_compact(kMe, c.compact);
  Outcome o = room->seat_creator(kMe, c.name, std::move(choice), id);
  deliver(o);
  if (c.opponent) deliver(room->seat_computers(*c.opponent));
}

// The analysis the server's computer threads would give (server/host/analysis.cpp), here on the
// worker's thread: a free position (the analysis board), or what the room allows of its own
// games (its rules decide: a live game between two people is refused, a game against the
// computer records its hints). Only the room's current game is kept here.
void analyse(const ClientMessage& msg, const AnalyseMsg& a) {
  const auto started = std::chrono::steady_clock::now();
  GamePositions positions;
  std::optional<std::int64_t> version;
  bool history = false;
  bool moves = a.moves;
  int game_number = 1;
  if (a.free) {
    auto setup = resolve_create(*a.free);
    if (auto* e = std::get_if<Error>(&setup)) return refuse(msg.id, e->code, e->message, "analyse");
    positions.emplace_back(0, std::get<GameSetup>(setup).game);
  } else {
    if (!room) {
      return refuse(msg.id, ErrorCode::UnknownRoom, "you are not in a room: start a game first",
                    "analyse");
    }
    Outcome o = room->handle(kMe, msg);
    deliver(o);
    if (!o.analysis) return;
    if (o.analysis->positions.empty()) {
      return refuse(msg.id, ErrorCode::BadMessage,
                    "with no server, only this game is kept: game " +
                        std::to_string(o.analysis->game_number) + " is not",
                    "analyse");
    }
    positions = std::move(o.analysis->positions);
    version = o.analysis->version;
    history = o.analysis->history;
    moves = o.analysis->moves;
    game_number = o.analysis->game_number;
  }
  ai::AnalysisLimits limits;
  limits.time = history ? kHistoryTime : kAnalysisTime;
  limits.turns = moves;
  auto ms = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 started)
        .count();
  };
  if (history) {
    std::vector<Game> games;
    games.reserve(positions.size());
    for (const auto& p : positions) games.push_back(p.second);
    const auto values = ai::analyse_positions(games, limits);
    return say(analysis_history_json(msg.id, game_number, positions, values, ms()));
  }
  const Game& game = positions.front().second;
  const ai::Analysis result = ai::analyse_position(game, limits);
  say(analysis_json(msg.id, game, version, result, ms(), false));
}

}  // namespace

// The welcome the page gets when it connects, with `offline` set.
BC_EXPORT const char* bc_offline_welcome() {
  out = welcome_json(Limits{});
  if (!out.empty() && out.back() == '}') {
    out.pop_back();
    out += ",\"offline\":true}";
  }
  return out.c_str();
}

// One message from the page, as it would send it to the server. What it is answered goes to the
// outbox (bc_offline_take).
BC_EXPORT void bc_offline_send(const char* text) {
  auto parsed = parse_client_message(text);
  if (auto* e = std::get_if<ParseError>(&parsed)) {
    return refuse(e->id, e->error.code, e->error.message, e->type);
  }
  auto& msg = std::get<ClientMessage>(parsed);
  if (const auto* ping = std::get_if<PingMsg>(&msg.body)) {
    return say(pong_json(msg.id, ping->t, real_time().unix_ms()));
  }
  if (auto* c = std::get_if<CreateMsg>(&msg.body)) return create(msg.id, *c);
  if (const auto* a = std::get_if<AnalyseMsg>(&msg.body)) return analyse(msg, *a);
  if (auto* j = std::get_if<JoinMsg>(&msg.body); j && (!room || j->room != room->id())) {
    return refuse(msg.id, ErrorCode::UnknownRoom,
                  "the server is not reachable, so room '" + j->room +
                      "' cannot be joined; a game on this screen or against the computer can "
                      "be played meanwhile",
                  "join");
  }
  if (!room) {
    return refuse(msg.id, ErrorCode::UnknownRoom, "you are not in a room: start a game first",
                  message_type(msg.body));
  }
  deliver(room->handle(kMe, msg));
}

// The messages since the last call, one JSON text a line ("" when none). The clock of the side
// to move starts here: its state has been handed over.
BC_EXPORT const char* bc_offline_take() {
  out = std::move(outbox);
  outbox.clear();
  if (room) room->start_clock();
  return out.c_str();
}

// The computer's level when a computer seat is to move (0: none).
BC_EXPORT int bc_offline_computer_level() {
  if (!room) return 0;
  const auto t = room->computer_to_move();
  return t ? t->level : 0;
}

// The computer thinks (within its level's caps, as on the server) and plays its turn.
BC_EXPORT void bc_offline_computer_move() {
  if (!room) return;
  const auto t = room->computer_to_move();
  if (!t) return;
  ai::SearchLimits limits;
  limits.level = t->level;
  limits.seed = std::hash<std::string>{}(room->id()) ^
                (static_cast<std::uint64_t>(t->version) << 20) ^
                static_cast<std::uint64_t>(t->game_number);
  limits.time = ai::level_time_cap(t->level);
  const ai::SearchResult r = ai::choose_turn(room->game(), limits);
  for (const Action& a : r.best.actions) {
    Outcome o = room->act_for_computer(t->side, a);
    if (o.refused) break;
    deliver(o);
  }
}

// Milliseconds until the room must act on its own (a flag, an abort), or -1.
BC_EXPORT double bc_offline_deadline_in() {
  if (!room) return -1;
  const auto due = room->next_deadline();
  if (!due) return -1;
  const std::int64_t now = real_time().steady_ms();
  return static_cast<double>(*due > now ? *due - now : 0);
}

BC_EXPORT void bc_offline_deadline() {
  if (room) deliver(room->on_deadline());
}

// GET /api/games/{room}[.pdn|/positions][?game=N] of the game played here: `format` 0 the JSON
// record, 1 the notation (PDN, or Kaboom's text), 2 every position. Only the current game of the
// room (`game` 0 or its number) is kept; anything else returns null.
BC_EXPORT const char* bc_offline_record(const char* room_id, int format, int game) {
  if (!room || room_id != room->id() || (game != 0 && game != room->game_number())) return nullptr;
  switch (format) {
    case 0:
      out = room->record_text();
      break;
    case 1:
      out = game_notation(*room);
      break;
    case 2:
      out = room->positions_text();
      break;
    default:
      return nullptr;
  }
  return out.c_str();
}

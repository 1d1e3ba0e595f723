// Server messages (docs/PROTOCOL.md): the views a room fills in and the functions that write them
// as text. Only server/wire/ names a JSON field.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bc/core.hpp"
#include "server/game/clock.hpp"
#include "server/wire/errors.hpp"
#include "server/wire/setup.hpp"

namespace bc::server {

enum class RoomStatus : std::uint8_t { Waiting, Playing, Finished };
std::string_view status_name(RoomStatus s);

struct PlayerView {
  PlayerView() = default;
  PlayerView(std::string n, bool c, std::optional<int> level = std::nullopt)
      : name(std::move(n)), connected(c), ai(level) {}
  std::string name;
  bool connected = false;
  std::optional<int> ai;  // the computer's level, for a computer seat
  // docs/PLAYERS.md: a signed-in player's account name ("" for a guest), and in a rated game the
  // rating (rounded; after the game, the new one), whether it is provisional, and its change.
  std::string account;
  bool bot = false;  // docs/BOTS.md: the account is a bot's
  std::optional<int> rating;
  bool provisional = false;
  std::optional<int> rating_diff;
  friend bool operator==(const PlayerView&, const PlayerView&) = default;
};

// Everything that happened in the last turn (or the turn so far, when mid-turn).
struct LastTurn {
  Side side = Side::First;
  std::vector<Action> actions;
  std::vector<Square> captured;
  std::vector<Square> exploded;
  std::vector<Square> promoted;
  bool complete = false;
  friend bool operator==(const LastTurn&, const LastTurn&) = default;
};

// A state's clocks (docs/PROTOCOL.md, "Clocks"): the times left as of `at` (the server's Unix ms
// when the state was made), whose time runs from then, and the first turns' abort deadline.
struct ClockView {
  TimeControl control;
  std::array<std::int64_t, 2> left{};
  std::optional<Side> running;
  std::int64_t at = 0;
  std::optional<std::int64_t> abort_at;  // Unix ms
  friend bool operator==(const ClockView&, const ClockView&) = default;
};

// A player whose connections are all gone, in a clocked game with a person against them: from
// `claim_at` (Unix ms) the opponent may claim the game.
struct AwayView {
  Side side = Side::First;
  std::int64_t since = 0;
  std::int64_t claim_at = 0;
  friend bool operator==(const AwayView&, const AwayView&) = default;
};

struct StateView {
  std::string_view room;
  const Game* game = nullptr;
  std::int64_t version = 0;
  RoomStatus status = RoomStatus::Waiting;
  const std::optional<LastTurn>* last = nullptr;
  std::array<std::optional<PlayerView>, 2> players;
  int spectators = 0;
  int moves = 0;        // completed turns
  int game_number = 1;  // 1, then 2 after the first rematch, ...
  std::optional<Side> draw_offer;
  std::array<bool, 2> rematch{false, false};
  bool with_legal = true;            // false for the replay's positions: nobody moves from them
  const ClockView* clock = nullptr;  // null: an untimed game (or a replayed position)
  std::optional<AwayView> away;
  std::optional<Side> takeback_offer;
  const std::vector<std::int64_t>* hints = nullptr;  // versions analysed against the computer
  bool one_screen = false;
  // The game's pieces and legal turns when already worked out (StateSnapshot); null: from `game`.
  const std::vector<Piece>* pieces = nullptr;
  const std::vector<Action>* legal = nullptr;
};

// A takeback: at `version` the game went back to the position of version `to`.
struct TakeBack {
  std::int64_t version = 0;
  std::int64_t to = 0;
  friend bool operator==(const TakeBack&, const TakeBack&) = default;
};

struct LoggedAction {
  std::int64_t version = 0;  // the version this action produced (1 for the first)
  Side side = Side::First;
  Action action;
};

struct RecordView {
  std::string_view room;
  const GameSetup* setup = nullptr;
  const Game* game = nullptr;
  RoomStatus status = RoomStatus::Waiting;
  std::int64_t version = 0;
  int game_number = 1;
  std::array<std::optional<PlayerView>, 2> players;
  const std::vector<LoggedAction>* actions = nullptr;  // the game's (a takeback's undone ones not)
  const std::vector<TakeBack>* takebacks = nullptr;
  const std::vector<std::int64_t>* hints = nullptr;  // versions analysed (hints), none: []
  int games = 1;                // games in the room so far (the last is the current one)
  std::int64_t started_ms = 0;  // Unix ms; 0: unknown
  std::int64_t ended_ms = 0;    // 0: not over (or unknown)
};

struct RoomSummary {
  std::string id;
  VariantId variant = VariantId::Bomb;
  RoomStatus status = RoomStatus::Waiting;
  std::array<std::optional<PlayerView>, 2> seats;
  int spectators = 0;
  std::int64_t version = 0;
  int game_number = 1;
  std::optional<TimeControl> clock;
  Options options{};
  bool one_screen = false;
  bool rated = false;                                       // docs/PLAYERS.md
  std::optional<std::pair<int, int>> range = std::nullopt;  // a rated room's open seek
  std::string perf = {};                                    // a rated room's: "bomb:blitz"
};

struct Limits;  // server/wire/limits.hpp

// `node`: serve --cluster's node id, sent as `node` (nothing when empty).
// `players`: the JSON object of docs/PLAYERS.md's `players` ("": a server without accounts).
std::string welcome_json(const Limits& limits, std::string_view node = {},
                         std::string_view players = {});
std::string joined_json(const RequestId& id, std::string_view room, std::string_view seat,
                        const std::optional<std::string>& token, bool one_screen = false);
// The non-default options in words, "" when all are defaults (docs/PROTOCOL.md, "Options in
// words").
std::string options_text(VariantId v, const Options& options);
std::string error_json(const RequestId& id, const Error& e, std::string_view request);
std::string ok_json(const RequestId& id, std::string_view request);
std::string notice_json(std::string_view code, std::string_view message);
std::string chat_json(std::string_view from, std::string_view seat, std::string_view text);
std::string presence_json(VariantId v, const std::array<PlayerView, 2>& players,
                          const std::array<std::optional<std::int64_t>, 2>& lag);
std::string takeback_offer_json(VariantId v, Side from);
std::string takeback_declined_json(VariantId v, Side from);
std::string pong_json(const RequestId& id, std::optional<double> t, std::int64_t now_unix_ms);
// docs/PLAYERS.md, "Pools": the sender's place in a pool (none: out of it, `dropped` saying why
// when a pairing fell through), and a pairing's room (`join`: the receiver joins it itself).
std::string pool_json(const RequestId& id, std::optional<std::string_view> pool,
                      std::size_t waiting, std::string_view dropped = {});
std::string paired_json(std::string_view pool, std::string_view room, bool join);
std::string draw_offer_json(VariantId v, Side from);
std::string draw_declined_json(VariantId v, Side from);
std::string rematch_offer_json(VariantId v, Side from);
std::string state_json(const StateView& s);
std::string record_json(const RecordView& r);
// GET /api/games/{room}/positions: {"room","game","variant","positions":[state, ...]}, the states
// (state_json texts, version 0 first) spliced in as they are.
std::string positions_json(std::string_view room, VariantId v, int game_number,
                           const std::vector<std::string>& states);
std::string rooms_json(const std::vector<RoomSummary>& rooms);

std::string room_url(std::string_view room);  // "/r/K7QF2M"

}  // namespace bc::server

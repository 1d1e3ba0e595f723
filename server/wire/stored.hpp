// Persistence (docs/PERSISTENCE.md): the JSON texts kept in the store's rows, and game records
// read back from a file.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "bc/core.hpp"
#include "server/wire/errors.hpp"
#include "server/wire/identity.hpp"
#include "server/wire/setup.hpp"
#include "server/wire/views.hpp"

namespace bc::server {

// read back from a file.

// {"variant":..,"options":{..},"position":{..}}: the create request's fields that made the room.
std::string setup_json(const GameSetup& s);
std::variant<GameSetup, Error> parse_setup_json(std::string_view text);
// {"winner":S|null,"reason":R}, or "" for no result.
std::string result_text(VariantId v, const std::optional<Result>& r);
// nullopt: malformed; otherwise the result ("" gives no result).
std::optional<std::optional<Result>> parse_result_text(VariantId v, std::string_view text);
// Player names by side: {"fire":"Ross","water":null}.
using SeatNames = std::array<std::optional<std::string>, 2>;
// Signed-in players by side (docs/PLAYERS.md): a side with one is written as an object,
// {"name":..,"player":id,"account":..,"rating":{..},"after":{..}}, which older readers take for
// its name.
using SeatPlayers = std::array<std::optional<SeatPlayer>, 2>;
std::string names_json(VariantId v, const SeatNames& names, const SeatPlayers& players = {});
SeatNames parse_names_json(VariantId v, std::string_view text);
SeatPlayers parse_seat_players(VariantId v, std::string_view text);
// A connection's player as the cluster's relay carries it to a room's node.
std::string identity_json(const Identity& who);
std::optional<Identity> parse_identity_json(std::string_view text);

// A seat as the store keeps it: the token only as its SHA-256 ("" in a record read from a file).
struct StoredSeat {
  std::string name;
  std::string token_hash;
  std::optional<SeatPlayer> player = std::nullopt;  // from the game row's players
};

// One game of a room as it was kept: by the store (persist.cpp's image_of) or in a record file
// served by /api/games/{room} (parse_record_json). Everything a room is rebuilt from by replaying
// the log through core (Room::restore); the one record type of the server.
struct GameRecord {
  explicit GameRecord(GameSetup s) : setup(std::move(s)) {}
  std::string room;  // "" when a record file does not say
  GameSetup setup;
  int game_number = 1;
  int games = 1;                                   // games in the room so far
  std::array<std::optional<StoredSeat>, 2> seats;  // by side, as of this game
  std::vector<LoggedAction> actions;               // in order (a file's: up to a malformed entry)
  std::optional<Result> result;  // the game row's result (resignations and agreed draws live here)
  std::int64_t created_ms = 0;   // 0: not known
  std::int64_t started_ms = 0;
  std::int64_t ended_ms = 0;
  std::int64_t version = -1;  // a record file's own `version` (its last action's); -1: not given
  // Clocked games: the times left after the last action (none: each side's base).
  std::optional<std::array<std::int64_t, 2>> clock_left;
  std::vector<TakeBack> takebacks;  // in version order
  std::vector<std::int64_t> hints;  // versions analysed while played against the computer
  std::optional<std::pair<std::int64_t, std::string>> malformed;  // a file's first bad entry
};
std::variant<GameRecord, std::string> parse_record_json(std::string_view text);

// Building blocks, exposed for tests.
std::string action_json(const Action& a);
std::optional<Action> parse_action_text(std::string_view json);
// A takeback as the store keeps it in an action row: {"kind":"takeback","to":N}.
std::string takeback_row_json(std::int64_t to);
std::optional<std::int64_t> parse_takeback_row(std::string_view json);
// A hint (an analysis of version N during a game against the computer) as the store keeps it: a
// row of its own at version -1 - N (versions of actions are never negative), {"kind":"hint"}.
std::string hint_row_json(std::int64_t version);
std::optional<std::int64_t> parse_hint_row(std::string_view json, std::int64_t row_version);

}  // namespace bc::server

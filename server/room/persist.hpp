// Rooms <-> the store's rows (docs/PERSISTENCE.md): the rows an outcome changed, the image a room
// is rebuilt from after a restart, and game records read back from the store.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "bc/store.hpp"
#include "server/room/room.hpp"

namespace bc::server {

// The rows to write for what `o` changed in `room` (called right after the change).
std::vector<store::Write> rows_for(const Room& room, const Durable& d);

// The image of one game of a stored room (game_no 0: the current game). For an earlier game the
// seats are that game's players (names only, no tokens). An error if the rows cannot be read.
std::variant<GameRecord, ReplayError> image_of(const store::LoadedRoom& loaded, int game_no = 0);

// Rebuilds a room from its image: a room made from image.setup, then Room::restore.
struct Restored {
  std::optional<Room> room;  // set when the replay succeeded
  std::optional<ReplayError> error;
};
Restored restore_room(const std::string& id, const GameRecord& image, const Limits& limits);

// What a record endpoint serves.
enum class RecordFormat : std::uint8_t { Json, Notation, Positions };

// A room's current game in format `f`.
std::string record_of(const Room& room, RecordFormat f);

// One game of a room from the store: the JSON record or its notation (PDN / Kaboom text).
// nullopt: no such room or game; an error text if it does not replay.
struct StoredRecord {
  bool found = false;
  std::string body;
  std::string error;  // non-empty: the log does not replay
};
StoredRecord stored_record(store::Store& store, const std::string& id, int game_no, RecordFormat f);

}  // namespace bc::server

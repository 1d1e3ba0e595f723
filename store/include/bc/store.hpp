// Durable game store: an embedded SQLite database (WAL mode) with one writer thread that groups the
// writes of many rooms into one transaction, so hundreds of games share each fsync.
//
// The store knows rooms, seats, games and actions as rows of text; it does not parse JSON or know
// the rules. The server writes each accepted action here and announces it only from the write's
// completion callback, so an announced action is always on disk.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace bc::store {

// Lowercase hex SHA-256 of `data` (seat tokens are stored hashed).
std::string sha256_hex(std::string_view data);

struct RoomRow {
  std::string id;
  std::string setup;  // the room's game setup (variant, options, custom position) as JSON text
  std::int64_t created_ms = 0;
  int game_no = 1;  // the game being played now (rematches add games)
  bool retired = false;
};

struct SeatRow {
  std::string room;
  int side = 0;  // 0: the side that moves first
  std::string name;
  std::string token_hash;
};

struct GameRow {
  std::string room;
  int game_no = 1;
  std::string result;  // JSON text, empty while the game is on
  std::int64_t started_ms = 0;
  std::int64_t ended_ms = 0;
  std::string players;  // JSON text of the names by side, for records
};

struct ActionRow {
  std::string room;
  int game_no = 1;
  std::int64_t version = 0;  // 1 for the first action of a game
  int side = 0;
  std::string action;  // JSON text of the action as sent in `legal`
  std::int64_t at_ms = 0;
};

// Writes, applied in order within one transaction per batch.
struct PutRoom {
  RoomRow row;
};
struct PutSeat {
  SeatRow row;
};
struct FreeSeat {
  std::string room;
  int side = 0;
};
struct PutGame {
  GameRow row;
};  // insert or replace (start, and end with its result)
struct AppendAction {
  ActionRow row;
};
struct RetireRoom {
  std::string room;
};
using Write = std::variant<PutRoom, PutSeat, FreeSeat, PutGame, AppendAction, RetireRoom>;

// Called once the batch holding the writes is committed (ok) or failed: on the writer thread, or
// for an in-memory store (":memory:") on the thread that submitted, before submit returns.
using Done = std::function<void(bool ok)>;

struct Stats {
  std::uint64_t writes = 0;
  std::uint64_t commits = 0;
  std::uint64_t failures = 0;
};

// Everything needed to rebuild a room after a restart.
struct LoadedRoom {
  RoomRow room;
  std::vector<SeatRow> seats;
  std::vector<GameRow> games;      // every game of the room, oldest first
  std::vector<ActionRow> actions;  // the actions of the current game (room.game_no), in order
};

class Store {
 public:
  // Opens (creating if needed) the database at `path`, or an in-memory one for ":memory:".
  // nullptr and a message for people if it cannot be opened or written.
  static std::unique_ptr<Store> open(const std::string& path, std::string& error);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Queues writes; `done` runs after they are committed (see Done). Never blocks on I/O.
  void submit(std::vector<Write> writes, Done done = {});
  // Blocks until everything submitted so far is committed (shutdown, tests).
  void flush();

  // Reads (any thread). Each runs on a connection of its own, never the writer's, so a read does
  // not wait for a commit (an in-memory database has one connection: there they share it).
  std::vector<LoadedRoom> load_active_rooms();
  bool has_room(const std::string& id);
  std::optional<LoadedRoom> load_room(const std::string& id, int game_no = 0);  // 0: current game
  std::vector<ActionRow> actions(const std::string& room, int game_no);
  std::vector<RoomRow> recent_rooms(int limit);

  Stats stats() const;
  const std::string& path() const;

  struct Impl;

 private:
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace bc::store

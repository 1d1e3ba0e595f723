// Durable game store: one interface, three implementations. The default is an embedded SQLite
// database (WAL mode); a postgres:// URL opens a PostgreSQL database instead (a cluster's shared
// store, docs/PERSISTENCE.md). Both have one writer thread that groups the writes of many rooms
// into one transaction, so hundreds of games share each commit. The third keeps the same rows in
// the process's memory only (`serve --memory`), with no database and no thread.
//
// The store knows rooms, seats, games and actions as rows of text; it does not parse JSON or know
// the rules. The server writes each accepted action here and announces it only from the write's
// completion callback, so an announced action is always committed.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
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
  // Clocked games: each side's time left after this action, ms (schema 2; none: untimed).
  std::optional<std::array<std::int64_t, 2>> left_ms = std::nullopt;
};

// ---- Players (docs/PLAYERS.md): who they are, their sessions, ratings and rated games. Text and
// numbers only, like the rest: the server does the hashing and the arithmetic.

// A player: a guest (no name) or an account (a name and a password's Argon2id hash).
struct PlayerRow {
  std::string id;             // 16 random hex digits, never shown as a secret
  std::string name;           // as the player spelled it; "" for a guest
  std::string name_key;       // the name folded to lower case; "" for a guest; unique when set
  std::string password_hash;  // libsodium's Argon2id string; "" for a guest
  std::int64_t created_ms = 0;
  // A bot account (docs/BOTS.md), for good: a PutPlayer with it set marks the player (a row of
  // the bots table); one without it never unmarks.
  bool bot = false;
};

// A signed-in browser: the SHA-256 of its cookie's secret, never the secret.
struct SessionRow {
  std::string hash;
  std::string player;
  std::int64_t created_ms = 0;
  std::int64_t seen_ms = 0;
  std::string label;  // what it was made from (the browser's User-Agent, cut short)
};

// A bot's API token (docs/BOTS.md): the SHA-256 of its secret, never the secret; `id` is a short
// prefix of the hash, by which it is listed and revoked.
struct TokenRow {
  std::string hash;
  std::string id;
  std::string player;
  std::string label;
  std::int64_t created_ms = 0;
  std::int64_t seen_ms = 0;
};

// A player's rating in one kind of game (`perf`: a variant id, or "variant:speed" for a clocked
// game, e.g. "bomb:blitz"), with the games that made it.
struct RatingRow {
  std::string player;
  std::string perf;
  double rating = 1500;
  double deviation = 500;
  double volatility = 0.09;
  std::int64_t updated_ms = 0;  // the last rated game's end (the deviation grows from it)
  int wins = 0;
  int draws = 0;
  int losses = 0;
};

// One player's side of a finished rated game: one row per player (two per game).
struct RatedGameRow {
  std::string player;
  std::string room;
  int game_no = 1;
  std::string perf;
  std::int64_t ended_ms = 0;
  int side = 0;
  std::string opponent;  // the other player's id
  int score = 0;         // 0 lost, 1 drawn, 2 won
  double before = 0;     // the rating before the game and after it
  double after = 0;
  double deviation_after = 0;
};

// A line of a leaderboard: the rating and the player's name.
struct RankedRow {
  RatingRow rating;
  std::string name;
  bool bot = false;
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
// A finished game that is not kept (a rematch of a game with no move in it): its row and its
// action rows go.
struct DropGame {
  std::string room;
  int game_no = 0;
};
// ---- Players' writes. PutPlayer inserts or updates by id; a name that another player holds
// already (by name_key) is not taken: that row is left out and nothing else fails (read the
// player back to see whether the name is theirs).
struct PutPlayer {
  PlayerRow row;
};
struct PutSession {
  SessionRow row;
};  // insert or replace by hash
struct DropSession {
  std::string hash;
};
// Every session of `player` but the one whose hash is `keep` ("": every one).
struct DropSessions {
  std::string player;
  std::string keep;
};
struct PutRating {
  RatingRow row;
};  // insert or replace by (player, perf)
struct PutRatedGame {
  RatedGameRow row;
};  // insert or replace by (player, room, game_no)
struct PutToken {
  TokenRow row;
};  // insert or replace by hash
// The token of `player` whose id is `id` (another player's is left alone).
struct DropToken {
  std::string player;
  std::string id;
};
using Write = std::variant<PutRoom, PutSeat, FreeSeat, PutGame, AppendAction, RetireRoom, DropGame,
                           PutPlayer, PutSession, DropSession, DropSessions, PutRating,
                           PutRatedGame, PutToken, DropToken>;

// Called once the batch holding the writes is committed (ok) or failed: on the writer thread, or
// for an in-memory store (open_memory(), or SQLite's ":memory:") on the thread that submitted,
// before submit returns. A batch whose connection to PostgreSQL broke before its COMMIT answered
// is reported failed, although it may have been committed: the server then rebuilds the room from
// the store, which is the truth.
using Done = std::function<void(bool ok)>;

// How long the store keeps what nobody will come back to (docs/PROTOCOL.md, "Retention"). Only
// retired rooms are pruned: a room in play is never touched. 0 keeps that kind for ever.
struct Retention {
  // A game in which nobody moved (never started, or resigned before the first move), counted
  // from its room's last sign of life (created, started or ended).
  std::int64_t unstarted_ms = 60LL * 60 * 1000;
  // An unfinished game (its room retired while it was on), counted from its last move.
  std::int64_t abandoned_ms = 7LL * 24 * 60 * 60 * 1000;
  // A finished game, counted from its end.
  std::int64_t finished_ms = 0;
};

// Rows a prune deleted.
struct Pruned {
  std::uint64_t rooms = 0;
  std::uint64_t games = 0;
  std::uint64_t actions = 0;
};

// The store's size: rows, and pages of the database file that hold nothing (what compact or the
// incremental vacuum give back).
struct Size {
  std::uint64_t rooms = 0;
  std::uint64_t games = 0;
  std::uint64_t actions = 0;
  // SQLite: the file's pages, in use or free. PostgreSQL: the store's tables with their indexes
  // and TOAST (pg_total_relation_size). In memory: an estimate of the bytes its rows hold.
  std::uint64_t page_bytes = 0;
  // SQLite: free pages. PostgreSQL: 0, not measured (counting its free space needs a scan of
  // every page, pgstattuple; its VACUUM makes dead rows' space reusable on its own).
  std::uint64_t free_bytes = 0;
};

enum class Backend : std::uint8_t { Sqlite, Postgres, Memory };

// True for a postgres:// or postgresql:// URL (what Store::open takes for PostgreSQL).
bool is_postgres_url(std::string_view where);
// The URL without its password (for logs and messages); anything else as it is.
std::string redact(std::string_view where);

struct Stats {
  std::uint64_t writes = 0;
  std::uint64_t commits = 0;
  std::uint64_t failures = 0;
  Pruned pruned;  // in all, since the store opened
  std::uint64_t prunes = 0;
  std::uint64_t prune_failures = 0;  // prune transactions that failed (their rows wait)
  Size size;                         // as last measured (measure(), or the maintenance thread)
};

// Everything needed to rebuild a room after a restart.
struct LoadedRoom {
  RoomRow room;
  std::vector<SeatRow> seats;
  std::vector<GameRow> games;      // every game of the room, oldest first
  std::vector<ActionRow> actions;  // the actions of the current game (room.game_no), in order
};

// The store. Every member but maintain() and stop_maintenance() is the backend's own.
class Store {
 public:
  // Opens (creating if needed) the SQLite database at `path`, or an in-memory one for ":memory:",
  // or for a postgres:// or postgresql:// URL the PostgreSQL database it names (its tables are
  // created if missing). nullptr and a message for people if it cannot be opened or written.
  static std::unique_ptr<Store> open(const std::string& path, std::string& error);
  // A store in this process's memory, with SQLite's semantics and no database (memory_store.hpp):
  // a submission is applied, whole or (a duplicate action) not at all, before submit returns.
  static std::unique_ptr<Store> open_memory();
  virtual ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Queues writes; `done` runs after they are committed (see Done). Never blocks on I/O.
  virtual void submit(std::vector<Write> writes, Done done) = 0;
  void submit(std::vector<Write> writes) { submit(std::move(writes), Done{}); }
  // Blocks until everything submitted so far is committed (shutdown, tests).
  virtual void flush() = 0;

  // Reads (any thread). Each runs on a connection of its own, never the writer's, so a read does
  // not wait for a commit (an in-memory database has one connection: there they share it).
  virtual std::vector<LoadedRoom> load_active_rooms() = 0;
  virtual bool has_room(const std::string& id) = 0;
  // game_no 0: the current game.
  virtual std::optional<LoadedRoom> load_room(const std::string& id, int game_no) = 0;
  std::optional<LoadedRoom> load_room(const std::string& id) { return load_room(id, 0); }
  virtual std::vector<ActionRow> actions(const std::string& room, int game_no) = 0;
  virtual std::vector<RoomRow> recent_rooms(int limit) = 0;

  // Players' reads (docs/PLAYERS.md). By id; by name_key (already folded); a session by its hash.
  virtual std::optional<PlayerRow> player(const std::string& id) = 0;
  virtual std::optional<PlayerRow> player_named(const std::string& name_key) = 0;
  virtual std::optional<SessionRow> session(const std::string& hash) = 0;
  // A player's sessions, the latest seen first.
  virtual std::vector<SessionRow> sessions(const std::string& player) = 0;
  // A player's ratings, by perf.
  virtual std::vector<RatingRow> ratings(const std::string& player) = 0;
  // A bot's token by its hash; a player's tokens, the newest first (docs/BOTS.md).
  virtual std::optional<TokenRow> token(const std::string& hash) = 0;
  virtual std::vector<TokenRow> tokens(const std::string& player) = 0;
  // The best ratings of `perf` whose deviation is below `max_deviation`, of players with a name,
  // highest first, at most `limit`.
  virtual std::vector<RankedRow> leaderboard(const std::string& perf, double max_deviation,
                                             int limit) = 0;
  // A player's rated games, the latest first, at most `limit`; `perf` "" for every perf.
  virtual std::vector<RatedGameRow> rated_games(const std::string& player, const std::string& perf,
                                                int limit) = 0;

  // Deletes what `keep` no longer keeps, as of `now_ms` (Unix ms), in small transactions that
  // let the writer's commits through in between; calls `deleted` (if it deleted anything); then
  // gives freed space back: SQLite up to 256 MiB of freed pages to the file system, a step at a
  // time (an incremental vacuum, when the database was made with it: every one since this store
  // version, and any after compact()); PostgreSQL a plain VACUUM of the store's tables, which
  // makes the space reusable and cuts empty pages off their ends. Stops early when the store or
  // its maintenance stops.
  virtual Pruned prune(const Retention& keep, std::int64_t now_ms,
                       const std::function<void(const Pruned&)>& deleted) = 0;
  Pruned prune(const Retention& keep, std::int64_t now_ms) { return prune(keep, now_ms, {}); }
  // Counts rows and sizes (a read; it updates stats().size).
  virtual Size measure() = 0;
  // Rewrites the database into the smallest files: SQLite's VACUUM (switching the file to
  // incremental vacuum), PostgreSQL's VACUUM FULL of the store's tables. Every write waits
  // meanwhile: run it with no server on the store (bombcheckers compact).
  virtual bool compact(std::string& error) = 0;
  // From now on a thread of the store's own prunes by `keep` and measures, every `every` (and once
  // at once). Unix time from `now_ms` (tests give a fake clock); `pruned`, if given, is called on
  // that thread after a prune that deleted something. Stops with the store.
  void maintain(const Retention& keep, std::chrono::milliseconds every,
                std::function<std::int64_t()> now_ms,
                std::function<void(const Pruned&)> pruned = {});
  // Stops that thread (waiting for a prune under way to stop between transactions); writes go on.
  void stop_maintenance();

  virtual Stats stats() const = 0;
  // The SQLite file, or the PostgreSQL URL without its password.
  virtual const std::string& path() const = 0;
  virtual Backend backend() const = 0;
  // SQLite: the database file and its write-ahead log, in bytes as they are on disk now (0 in
  // memory). PostgreSQL: the tables' size as last measured (Size::page_bytes), and 0.
  virtual std::pair<std::uint64_t, std::uint64_t> file_bytes() const = 0;

 protected:
  Store() = default;
  // Set by stop_maintenance(): a prune stops between its transactions.
  bool maintenance_stopping() const { return maintenance_stopping_.load(); }

 private:
  std::thread maintainer_;
  std::mutex maintain_mutex_;
  std::condition_variable maintain_cv_;
  std::atomic<bool> maintenance_stopping_{false};
};

}  // namespace bc::store

// The SQL both database backends run, written once: the schema, every statement (writes, reads,
// the prune's), the statements of each write, and the reading of rows back into the store's row
// types, all over a small connection interface that SQLite and PostgreSQL each implement
// (sqlite_store.hpp, pg_store.hpp). Statements are kept in one text: ?N placeholders, GREATEST
// and COLLATE BINARY (byte order, PostgreSQL's "C"), turned into each dialect's once (text()).
// Not installed: store/src only.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "bc/store.hpp"
#include "sql_prune.hpp"

namespace bc::store::sql {

inline constexpr int kSchemaVersion = 2;
// The tables (both backends: SQLite reads BIGINT and SMALLINT as INTEGER, DOUBLE PRECISION as
// REAL). The players' tables came later without a new version: CREATE ... IF NOT EXISTS gives
// them to an existing database, and a server of before ignores them.
extern const char* const kSchema;

enum class Dialect : std::uint8_t { Sqlite, Postgres };

// Every statement of the store.
enum class Q : std::uint8_t {
  // The writes (statements_of).
  PutRoom,
  PutSeat,
  FreeSeat,
  PutGame,
  RaiseGameNo,
  AppendAction,
  Retire,
  DropActions,
  DropGame,
  PutPlayerUpdate,
  PutPlayerInsert,
  PutSession,
  DropSession,
  DropSessions,
  PutRating,
  PutRatedGame,
  PutBot,
  PutToken,
  DropToken,
  // Reads.
  ActiveRooms,
  ActiveSeats,
  ActiveGames,
  ActiveActions,
  Room,
  Seats,
  Games,
  Actions,
  HasRoom,
  RecentRooms,
  Player,
  PlayerNamed,
  Session,
  Sessions,
  Ratings,
  Token,
  Tokens,
  Leaderboard,
  RatedGames,
  // The prune (sql_prune.hpp).
  DueGames,
  EmptyRooms,
  DeleteActions,
  DeleteRatedGames,
  DeleteGame,
  LowerGameNo,
  DeleteSeats,
  DeleteRoom,
  Count
};
// The statement in `d`'s own SQL (made once, kept for the process's life).
const char* text(Q q, Dialect d);
// A name for it as a prepared statement ("bc_put_room").
const char* name(Q q);
// The statements a batch runs, prepared once per connection.
inline constexpr Q kWrites[] = {
    Q::PutRoom,         Q::PutSeat,    Q::FreeSeat,    Q::PutGame,      Q::RaiseGameNo,
    Q::AppendAction,    Q::Retire,     Q::DropActions, Q::DropGame,     Q::PutPlayerUpdate,
    Q::PutPlayerInsert, Q::PutSession, Q::DropSession, Q::DropSessions, Q::PutRating,
    Q::PutRatedGame,    Q::PutBot,     Q::PutToken,    Q::DropToken};

// A parameter: NULL, an integer, a real or a text (a view of a row that outlives the statement's
// run).
using Value = std::variant<std::monostate, std::int64_t, double, std::string_view>;
struct Bound {
  Q q;
  std::array<Value, 12> values{};
  int size = 0;
  Bound& add(std::int64_t v) { return put(v); }
  Bound& add(int v) { return put(static_cast<std::int64_t>(v)); }
  Bound& add(double v) { return put(v); }
  Bound& add(std::string_view s) { return put(s); }
  Bound& add(const std::string& s) { return put(std::string_view(s)); }
  Bound& null() { return put(std::monostate{}); }

 private:
  Bound& put(Value v) {
    values[static_cast<std::size_t>(size++)] = v;
    return *this;
  }
};
// The statements of one write, in order.
void statements_of(const Write& w, std::vector<Bound>& out);

// One row of a result, whichever backend read it.
class Row {
 public:
  virtual std::string text(int col) const = 0;
  virtual std::int64_t int64(int col) const = 0;
  virtual double real(int col) const = 0;
  virtual bool null(int col) const = 0;
  int int32(int col) const { return static_cast<int>(int64(col)); }
  virtual ~Row() = default;
};

// What the shared SQL needs of a connection.
class Connection {
 public:
  // Runs `b`, giving each row of its result to `each`; false if it failed.
  virtual bool query(const Bound& b, const std::function<void(const Row&)>& each) = 0;
  // Runs `b`, a statement without rows; the rows it touched are added to `changed`.
  virtual bool run(const Bound& b, std::uint64_t* changed = nullptr) = 0;
  virtual ~Connection() = default;
};

// The reads of the Store interface. Each is false if a query failed (`out` is then not to be
// used); a caller runs those of several queries in one read transaction.
bool load_active_rooms(Connection& c, std::vector<LoadedRoom>& out);
bool load_room(Connection& c, const std::string& id, int game_no, std::optional<LoadedRoom>& out);
bool has_room(Connection& c, const std::string& id, bool& found);
bool actions(Connection& c, const std::string& room, int game_no, std::vector<ActionRow>& out);
bool recent_rooms(Connection& c, int limit, std::vector<RoomRow>& out);
// The players' (store.hpp): the same, and the same orders, as MemoryStore's.
bool player(Connection& c, const std::string& id, std::optional<PlayerRow>& out);
bool player_named(Connection& c, const std::string& name_key, std::optional<PlayerRow>& out);
bool session(Connection& c, const std::string& hash, std::optional<SessionRow>& out);
bool sessions(Connection& c, const std::string& player, std::vector<SessionRow>& out);
bool ratings(Connection& c, const std::string& player, std::vector<RatingRow>& out);
bool token(Connection& c, const std::string& hash, std::optional<TokenRow>& out);
bool tokens(Connection& c, const std::string& player, std::vector<TokenRow>& out);
// `limit` is clamped to 1..kLeaderboardMax.
inline constexpr int kLeaderboardMax = 1000;
bool leaderboard(Connection& c, const std::string& perf, double max_deviation, int limit,
                 std::vector<RankedRow>& out);
// A negative `limit` is 0.
bool rated_games(Connection& c, const std::string& player, const std::string& perf, int limit,
                 std::vector<RatedGameRow>& out);

// The prune's statements (detail::PruneRows), the lookups on a reader, the deletions on the
// writer's connection inside the backend's transaction.
bool due_games(Connection& c, const std::int64_t (&cutoffs)[3], int limit,
               const detail::DueGame& after, std::vector<detail::DueGame>& out);
bool empty_rooms(Connection& c, int limit, const detail::EmptyRoom& after,
                 std::vector<detail::EmptyRoom>& out);
// A game's actions, its players' rated_games rows and its row.
bool delete_game(Connection& c, const detail::DueGame& g, Pruned& deleted);
bool delete_room(Connection& c, const std::string& id, Pruned& deleted);

}  // namespace bc::store::sql

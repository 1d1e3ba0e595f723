// SQLite store with group commit: one writer thread takes every queued write, commits them in one
// transaction (WAL, synchronous=FULL: durable across power loss), then runs their callbacks.
// Opening (schema, checks, upgrade) and the reads; the writes are in sqlite_store.hpp.
#include "sqlite_store.hpp"

namespace bc::store {
// Schema 2 (sql_core.hpp): actions.left0_ms and left1_ms, the clocks after each action (issue 14).
using sql::kSchema;
using sql::kSchemaVersion;

std::unique_ptr<Store> SqliteStore::open(const std::string& path, std::string& error) {
  auto impl = std::make_unique<SqliteStore>();
  impl->path_ = path;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
  if (sqlite3_open_v2(path.c_str(), &impl->db, flags, nullptr) != SQLITE_OK) {
    error = "cannot open database " + path + ": " +
            (impl->db != nullptr ? sqlite3_errmsg(impl->db) : "out of memory");
    return nullptr;
  }
  sqlite3_busy_timeout(impl->db, 5000);
  std::string why;
  const bool memory = path == ":memory:";
  // Incremental vacuum lets prune() give freed pages back to the file system; SQLite takes it
  // only before the first table is made (an older file gets it from compact()). The WAL file is
  // cut back to 16 MiB after a checkpoint, however large one prune made it.
  // WAL with synchronous=FULL: a commit is on disk before it returns, even across power loss.
  bool fresh = false;
  {
    Stmt pages(impl->db, "PRAGMA page_count");
    fresh = pages.step() == SQLITE_ROW && pages.int64(0) == 0;
  }
  // (Only on a fresh file: on an existing one the pragma may write, and a damaged file must be
  // left exactly as it is.)
  if ((fresh && !exec(impl->db, "PRAGMA auto_vacuum=INCREMENTAL", &why)) ||
      (!memory && !exec(impl->db, "PRAGMA journal_mode=WAL", &why)) ||
      !exec(impl->db, "PRAGMA journal_size_limit=16777216", &why) ||
      !exec(impl->db, "PRAGMA synchronous=FULL", &why) ||
      !exec(impl->db, "PRAGMA foreign_keys=ON", &why) || !exec(impl->db, kSchema, &why)) {
    error = "cannot use database " + path + ": " + why;
    return nullptr;
  }
  {
    Stmt check(impl->db, "PRAGMA quick_check");
    if (check.step() != SQLITE_ROW || check.text(0) != "ok") {
      error = "database " + path + " is damaged (quick_check: " +
              (check.ok() ? check.text(0) : std::string(sqlite3_errmsg(impl->db))) +
              "); move it aside to start afresh";
      return nullptr;
    }
  }
  {
    std::string found;
    {
      Stmt version(impl->db, "SELECT value FROM meta WHERE key='schema'");
      if (version.step() == SQLITE_ROW) found = version.text(0);
    }
    if (found == "1") {
      // Schema 1 to 2, in one transaction: the clock columns, empty for the games played before.
      if (!exec(impl->db,
                "BEGIN IMMEDIATE; ALTER TABLE actions ADD COLUMN left0_ms INTEGER; "
                "ALTER TABLE actions ADD COLUMN left1_ms INTEGER; "
                "UPDATE meta SET value='2' WHERE key='schema'; COMMIT",
                &why)) {
        exec(impl->db, "ROLLBACK", nullptr);
        error = "cannot upgrade database " + path + " to schema 2: " + why;
        return nullptr;
      }
    } else if (!found.empty() && found != std::to_string(kSchemaVersion)) {
      error = "database " + path + " has schema version " + found + ", this server reads " +
              std::to_string(kSchemaVersion) + " (and upgrades 1)";
      return nullptr;
    }
  }
  // A write proves the file and its directory are writable (WAL needs the directory too).
  const std::string mark =
      "BEGIN IMMEDIATE; INSERT OR REPLACE INTO meta(key, value) VALUES('schema', '" +
      std::to_string(kSchemaVersion) + "'); COMMIT";
  if (!exec(impl->db, mark.c_str(), &why)) {
    error = "cannot write database " + path + ": " + why;
    return nullptr;
  }
  impl->inline_writes = memory;
  if (!memory) impl->writer.start();
  return impl;
}

void SqliteStore::submit(std::vector<Write> writes, Done done) {
  // In memory there is no disk to share: the caller writes and is answered at once, without the
  // hand-off to the writer thread and back (a fifth of the server's CPU per action).
  if (inline_writes) {
    writer.submit_inline(std::move(writes), std::move(done));
  } else {
    writer.submit(std::move(writes), std::move(done));
  }
}

// The reads: the store's SQL (sql_core.hpp) on a reader's connection, in one read transaction.

std::vector<LoadedRoom> SqliteStore::load_active_rooms() {
  Read read(*this);
  SqliteConnection c(read.db());
  std::vector<LoadedRoom> out;
  if (!sql::load_active_rooms(c, out)) out.clear();
  return out;
}

std::optional<LoadedRoom> SqliteStore::load_room(const std::string& id, int game_no) {
  Read read(*this);
  SqliteConnection c(read.db());
  std::optional<LoadedRoom> out;
  if (!sql::load_room(c, id, game_no, out)) out.reset();
  return out;
}

bool SqliteStore::has_room(const std::string& id) {
  Read read(*this, Read::Single);
  SqliteConnection c(read.db());
  bool found = false;
  return sql::has_room(c, id, found) && found;
}

std::vector<ActionRow> SqliteStore::actions(const std::string& room, int game_no) {
  Read read(*this, Read::Single);
  SqliteConnection c(read.db());
  std::vector<ActionRow> out;
  if (!sql::actions(c, room, game_no, out)) out.clear();
  return out;
}

std::vector<RoomRow> SqliteStore::recent_rooms(int limit) {
  Read read(*this, Read::Single);
  SqliteConnection c(read.db());
  std::vector<RoomRow> out;
  if (!sql::recent_rooms(c, limit, out)) out.clear();
  return out;
}

namespace {

// A read of one statement, the store's SQL on a reader's connection: empty if it failed.
template <class Out, class Read1>
Out read_single(SqliteStore& store, Read1 read1) {
  Read read(store, Read::Single);
  SqliteConnection c(read.db());
  Out out;
  if (!read1(c, out)) out = Out{};
  return out;
}

}  // namespace

std::optional<PlayerRow> SqliteStore::player(const std::string& id) {
  return read_single<std::optional<PlayerRow>>(
      *this, [&](SqliteConnection& c, auto& out) { return sql::player(c, id, out); });
}

std::optional<PlayerRow> SqliteStore::player_named(const std::string& name_key) {
  return read_single<std::optional<PlayerRow>>(
      *this, [&](SqliteConnection& c, auto& out) { return sql::player_named(c, name_key, out); });
}

std::optional<SessionRow> SqliteStore::session(const std::string& hash) {
  return read_single<std::optional<SessionRow>>(
      *this, [&](SqliteConnection& c, auto& out) { return sql::session(c, hash, out); });
}

std::vector<SessionRow> SqliteStore::sessions(const std::string& player) {
  return read_single<std::vector<SessionRow>>(
      *this, [&](SqliteConnection& c, auto& out) { return sql::sessions(c, player, out); });
}

std::vector<RatingRow> SqliteStore::ratings(const std::string& player) {
  return read_single<std::vector<RatingRow>>(
      *this, [&](SqliteConnection& c, auto& out) { return sql::ratings(c, player, out); });
}

std::optional<TokenRow> SqliteStore::token(const std::string& hash) {
  return read_single<std::optional<TokenRow>>(
      *this, [&](SqliteConnection& c, auto& out) { return sql::token(c, hash, out); });
}

std::vector<TokenRow> SqliteStore::tokens(const std::string& player) {
  return read_single<std::vector<TokenRow>>(
      *this, [&](SqliteConnection& c, auto& out) { return sql::tokens(c, player, out); });
}

std::vector<RankedRow> SqliteStore::leaderboard(const std::string& perf, double max_deviation,
                                                int limit) {
  return read_single<std::vector<RankedRow>>(*this, [&](SqliteConnection& c, auto& out) {
    return sql::leaderboard(c, perf, max_deviation, limit, out);
  });
}

std::vector<RatedGameRow> SqliteStore::rated_games(const std::string& player,
                                                   const std::string& perf, int limit) {
  return read_single<std::vector<RatedGameRow>>(*this, [&](SqliteConnection& c, auto& out) {
    return sql::rated_games(c, player, perf, limit, out);
  });
}

}  // namespace bc::store

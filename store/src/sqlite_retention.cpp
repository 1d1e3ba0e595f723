// SQLite retention: pruning what the policy no longer keeps, giving the space back, measuring,
// compacting. Candidates are found on a reader connection; deletions go through the writer's
// connection in small transactions, so a prune of a million rows never holds up a commit for long.
#include <filesystem>
#include <limits>

#include "sql_prune.hpp"
#include "sqlite_store.hpp"

namespace bc::store {
namespace {

// Games of retired rooms that the policy no longer keeps (sql_prune.hpp). A game nobody moved in
// counts from its room's last sign of life; an unfinished one from its last move; a finished one
// from its end. In (created_ms, room, game) order after a cursor (?5, ?6, ?7).
constexpr const char* kDoomedGames = R"sql(
SELECT r.created_ms, g.room, g.game_no FROM rooms r JOIN games g ON g.room = r.id
WHERE r.retired = 1 AND (r.created_ms, r.id, g.game_no) > (?5, ?6, ?7) AND CASE
  WHEN NOT EXISTS (SELECT 1 FROM actions a WHERE a.room = g.room AND a.game_no = g.game_no)
    THEN max(r.created_ms, g.started_ms, g.ended_ms) < ?1
  WHEN g.result = ''
    THEN (SELECT max(a.at_ms) FROM actions a WHERE a.room = g.room AND a.game_no = g.game_no) < ?2
  ELSE g.ended_ms < ?3 END
ORDER BY r.created_ms, r.id, g.game_no
LIMIT ?4)sql";

// Retired rooms with no game left, after the cursor (?2, ?3).
constexpr const char* kEmptyRooms =
    "SELECT created_ms, id FROM rooms r WHERE retired = 1 AND (created_ms, id) > (?2, ?3) AND "
    "NOT EXISTS (SELECT 1 FROM games g WHERE g.room = r.id) ORDER BY created_ms, id LIMIT ?1";

// Each delete checks again that its room is retired: a room is never deleted while in play.
constexpr const char* kDeleteActions =
    "DELETE FROM actions WHERE room = ?1 AND game_no = ?2 AND "
    "EXISTS (SELECT 1 FROM rooms WHERE id = ?1 AND retired = 1)";
constexpr const char* kDeleteGame =
    "DELETE FROM games WHERE room = ?1 AND game_no = ?2 AND "
    "EXISTS (SELECT 1 FROM rooms WHERE id = ?1 AND retired = 1)";
// A room whose newest games went: its record shows the newest game kept.
constexpr const char* kLowerGameNo =
    "UPDATE rooms SET game_no = (SELECT max(game_no) FROM games WHERE room = ?1) "
    "WHERE id = ?1 AND retired = 1 AND EXISTS (SELECT 1 FROM games WHERE room = ?1)";
constexpr const char* kDeleteSeats =
    "DELETE FROM seats WHERE room = ?1 AND "
    "EXISTS (SELECT 1 FROM rooms WHERE id = ?1 AND retired = 1 AND "
    "NOT EXISTS (SELECT 1 FROM games WHERE room = ?1))";
constexpr const char* kDeleteRoom =
    "DELETE FROM rooms WHERE id = ?1 AND retired = 1 AND "
    "NOT EXISTS (SELECT 1 FROM games WHERE room = ?1)";

// Pages given back per pass (1024 pages a step, each step its own commit): the rest next time.
constexpr int kVacuumSteps = 64;

std::int64_t pragma_int(sqlite3* db, const char* sql) {
  Stmt s(db, sql);
  return s.step() == SQLITE_ROW ? s.int64(0) : 0;
}

// The statements of the shared prune (sql_prune.hpp) on SQLite's connections.
class SqlitePruneRows final : public detail::PruneRows {
 public:
  explicit SqlitePruneRows(SqliteStore& store) : PruneRows(store.writer), s_(store) {}
  bool stopping() const override { return s_.stopping(); }
  bool due_games(const std::int64_t (&cutoffs)[3], int limit, const detail::DueGame& after,
                 std::vector<detail::DueGame>& out) override {
    Read read(s_, Read::Single);
    Stmt q(read.db(), kDoomedGames);
    q.bind(1, cutoffs[0])
        .bind(2, cutoffs[1])
        .bind(3, cutoffs[2])
        .bind(4, limit)
        .bind(5, after.created_ms)
        .bind(6, after.room)
        .bind(7, after.game_no);
    int rc = SQLITE_ROW;
    while ((rc = q.step()) == SQLITE_ROW) out.push_back({q.int64(0), q.text(1), q.int32(2)});
    return rc == SQLITE_DONE;
  }
  bool empty_rooms(int limit, const detail::EmptyRoom& after,
                   std::vector<detail::EmptyRoom>& out) override {
    Read read(s_, Read::Single);
    Stmt q(read.db(), kEmptyRooms);
    q.bind(1, limit).bind(2, after.created_ms).bind(3, after.id);
    int rc = SQLITE_ROW;
    while ((rc = q.step()) == SQLITE_ROW) out.push_back({q.int64(0), q.text(1)});
    return rc == SQLITE_DONE;
  }
  bool transaction(const std::function<bool()>& body) override {
    std::lock_guard lock(s_.db_mutex);
    if (exec(s_.db, "BEGIN IMMEDIATE") && body() && exec(s_.db, "COMMIT")) return true;
    exec(s_.db, "ROLLBACK");
    return false;
  }
  bool delete_game(const detail::DueGame& g, Pruned& deleted) override {
    if (!Stmt(s_.db, kDeleteActions).bind(1, g.room).bind(2, g.game_no).run()) return false;
    deleted.actions += changes();
    if (!Stmt(s_.db, kDeleteGame).bind(1, g.room).bind(2, g.game_no).run()) return false;
    deleted.games += changes();
    return Stmt(s_.db, kLowerGameNo).bind(1, g.room).run();
  }
  bool delete_room(const std::string& id, Pruned& deleted) override {
    if (!Stmt(s_.db, kDeleteSeats).bind(1, id).run()) return false;
    if (!Stmt(s_.db, kDeleteRoom).bind(1, id).run()) return false;
    deleted.rooms += changes();
    return true;
  }

 private:
  std::uint64_t changes() const { return static_cast<std::uint64_t>(sqlite3_changes(s_.db)); }
  SqliteStore& s_;
};

}  // namespace

Pruned SqliteStore::prune(const Retention& keep, std::int64_t now_ms,
                          const std::function<void(const Pruned&)>& deleted) {
  SqliteStore& impl = *this;
  SqlitePruneRows rows(impl);
  const Pruned out = detail::prune_rows(rows, keep, now_ms, deleted);
  const bool any = out.rooms + out.games + out.actions > 0;
  // Freed pages go back to the file system 4 MiB at a time, each step a commit of its own under
  // the writer's mutex, so moves are committed in between. (With WAL the file itself shrinks at
  // the next checkpoint.)
  bool incremental = false;
  {
    std::lock_guard lock(impl.db_mutex);
    incremental = pragma_int(impl.db, "PRAGMA auto_vacuum") == 2;
  }
  for (int i = 0; any && incremental && i < kVacuumSteps && !impl.stopping(); ++i) {
    std::lock_guard lock(impl.db_mutex);
    if (pragma_int(impl.db, "PRAGMA freelist_count") == 0 ||
        !exec(impl.db, "PRAGMA incremental_vacuum(1024)")) {
      break;
    }
  }
  if (any && !impl.inline_writes) {
    std::lock_guard lock(impl.db_mutex);
    exec(impl.db, "PRAGMA wal_checkpoint(PASSIVE)");
  }
  impl.writer.update_stats([](Stats& st) { ++st.prunes; });
  return out;
}

Size SqliteStore::measure() {
  Size size;
  {
    Read read(*this);
    sqlite3* rdb = read.db();
    size.rooms = static_cast<std::uint64_t>(pragma_int(rdb, "SELECT count(*) FROM rooms"));
    size.games = static_cast<std::uint64_t>(pragma_int(rdb, "SELECT count(*) FROM games"));
    size.actions = static_cast<std::uint64_t>(pragma_int(rdb, "SELECT count(*) FROM actions"));
    const auto page = static_cast<std::uint64_t>(pragma_int(rdb, "PRAGMA page_size"));
    size.page_bytes = page * static_cast<std::uint64_t>(pragma_int(rdb, "PRAGMA page_count"));
    size.free_bytes = page * static_cast<std::uint64_t>(pragma_int(rdb, "PRAGMA freelist_count"));
  }
  writer.update_stats([&](Stats& st) { st.size = size; });
  return size;
}

bool SqliteStore::compact(std::string& error) {
  flush();
  {
    std::lock_guard lock(db_mutex);
    if (!exec(db, "PRAGMA auto_vacuum=INCREMENTAL", &error) || !exec(db, "VACUUM", &error)) {
      return false;
    }
    if (!inline_writes) exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
  }
  measure();
  return true;
}

std::pair<std::uint64_t, std::uint64_t> SqliteStore::file_bytes() const {
  if (inline_writes) return {0, 0};
  std::error_code ec;
  const auto file = std::filesystem::file_size(path_, ec);
  const std::uint64_t db_bytes = ec ? 0 : file;
  const auto wal = std::filesystem::file_size(path_ + "-wal", ec);
  return {db_bytes, ec ? 0 : wal};
}

}  // namespace bc::store

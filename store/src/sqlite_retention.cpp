// SQLite retention: pruning what the policy no longer keeps, giving the space back, measuring,
// compacting. Candidates are found on a reader connection; deletions go through the writer's
// connection in small transactions, so a prune of a million rows never holds up a commit for long.
#include <filesystem>
#include <limits>

#include "retention_cutoff.hpp"
#include "sqlite_store.hpp"

namespace bc::store {
namespace {

using detail::cutoff;

// Rows looked up per query, and games or rooms deleted per transaction.
constexpr int kLookup = 512;
constexpr std::size_t kPerTransaction = 32;

// Games of retired rooms that the policy no longer keeps. A game nobody moved in counts from its
// room's last sign of life; an unfinished one from its last move; a finished one from its end.
// In (created_ms, room, game) order after a cursor (?5, ?6, ?7): kept games are passed once a
// prune, not once per lookup.
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

// Runs `each` for every item of `items` in transactions of kPerTransaction on the writer's
// connection (taking its mutex per transaction, so commits go on in between), adding what each
// transaction deleted to `out` once it is committed. False if one fails (counted; the rows stay
// for the next prune) or the store is stopping.
template <class T, class Each>
bool in_transactions(SqliteStore& impl, const std::vector<T>& items, Pruned& out, Each each) {
  for (std::size_t at = 0; at < items.size(); at += kPerTransaction) {
    if (impl.stopping()) return false;
    Pruned batch;
    std::lock_guard lock(impl.db_mutex);
    bool ok = exec(impl.db, "BEGIN IMMEDIATE");
    for (std::size_t i = at; ok && i < std::min(items.size(), at + kPerTransaction); ++i)
      ok = each(items[i], batch);
    if (!ok || !exec(impl.db, "COMMIT")) {
      exec(impl.db, "ROLLBACK");
      impl.writer.update_stats([](Stats& st) { ++st.prune_failures; });
      return false;
    }
    out.rooms += batch.rooms;
    out.games += batch.games;
    out.actions += batch.actions;
  }
  return true;
}

}  // namespace

Pruned SqliteStore::prune(const Retention& keep, std::int64_t now_ms,
                          const std::function<void(const Pruned&)>& deleted) {
  SqliteStore& impl = *this;
  Pruned out;
  auto changes = [&] { return static_cast<std::uint64_t>(sqlite3_changes(impl.db)); };

  struct Game {
    std::int64_t created_ms;
    std::string room;
    int game_no;
  };
  Game after{std::numeric_limits<std::int64_t>::min(), "", 0};
  for (bool more = true; more && !impl.stopping();) {
    std::vector<Game> games;
    {
      Read read(impl, Read::Single);
      Stmt s(read.db(), kDoomedGames);
      s.bind(1, cutoff(now_ms, keep.unstarted_ms))
          .bind(2, cutoff(now_ms, keep.abandoned_ms))
          .bind(3, cutoff(now_ms, keep.finished_ms))
          .bind(4, kLookup)
          .bind(5, after.created_ms)
          .bind(6, after.room)
          .bind(7, after.game_no);
      while (s.step() == SQLITE_ROW) games.push_back({s.int64(0), s.text(1), s.int32(2)});
    }
    more = games.size() == static_cast<std::size_t>(kLookup);
    if (!games.empty()) after = games.back();
    const bool ok = in_transactions(impl, games, out, [&](const Game& g, Pruned& batch) {
      if (!Stmt(impl.db, kDeleteActions).bind(1, g.room).bind(2, g.game_no).run()) return false;
      batch.actions += changes();
      if (!Stmt(impl.db, kDeleteGame).bind(1, g.room).bind(2, g.game_no).run()) return false;
      batch.games += changes();
      return Stmt(impl.db, kLowerGameNo).bind(1, g.room).run();
    });
    if (!ok) break;
  }

  std::pair<std::int64_t, std::string> room_after{std::numeric_limits<std::int64_t>::min(), ""};
  for (bool more = true; more && !impl.stopping();) {
    std::vector<std::string> rooms;
    {
      Read read(impl, Read::Single);
      Stmt s(read.db(), kEmptyRooms);
      s.bind(1, kLookup).bind(2, room_after.first).bind(3, room_after.second);
      while (s.step() == SQLITE_ROW) {
        room_after = {s.int64(0), s.text(1)};
        rooms.push_back(room_after.second);
      }
    }
    more = rooms.size() == static_cast<std::size_t>(kLookup);
    const bool ok = in_transactions(impl, rooms, out, [&](const std::string& id, Pruned& batch) {
      if (!Stmt(impl.db, kDeleteSeats).bind(1, id).run()) return false;
      if (!Stmt(impl.db, kDeleteRoom).bind(1, id).run()) return false;
      batch.rooms += changes();
      return true;
    });
    if (!ok) break;
  }

  const bool any = out.rooms + out.games + out.actions > 0;
  impl.writer.update_stats([&](Stats& st) {
    st.pruned.rooms += out.rooms;
    st.pruned.games += out.games;
    st.pruned.actions += out.actions;
  });
  if (any && deleted) deleted(out);
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

// SQLite retention: pruning what the policy no longer keeps, giving the space back, measuring,
// compacting. Candidates are found on a reader connection; deletions go through the writer's
// connection in small transactions, so a prune of a million rows never holds up a commit for long.
#include <filesystem>
#include <limits>

#include "sql_prune.hpp"
#include "sqlite_store.hpp"

namespace bc::store {
namespace {

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
    SqliteConnection c(read.db());
    return sql::due_games(c, cutoffs, limit, after, out);
  }
  bool empty_rooms(int limit, const detail::EmptyRoom& after,
                   std::vector<detail::EmptyRoom>& out) override {
    Read read(s_, Read::Single);
    SqliteConnection c(read.db());
    return sql::empty_rooms(c, limit, after, out);
  }
  bool transaction(const std::function<bool()>& body) override {
    std::lock_guard lock(s_.db_mutex);
    if (exec(s_.db, "BEGIN IMMEDIATE") && body() && exec(s_.db, "COMMIT")) return true;
    exec(s_.db, "ROLLBACK");
    return false;
  }
  // On the writer's connection, inside transaction().
  bool delete_game(const detail::DueGame& g, Pruned& deleted) override {
    SqliteConnection c(s_.db);
    return sql::delete_game(c, g, deleted);
  }
  bool delete_room(const std::string& id, Pruned& deleted) override {
    SqliteConnection c(s_.db);
    return sql::delete_room(c, id, deleted);
  }

 private:
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

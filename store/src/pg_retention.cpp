// PostgreSQL store: retention by the shared prune and statements (sql_prune.hpp, sql_core.hpp): due
// games found on a pooled connection, deleted on the writer's in transactions of a few, so commits
// go on in between; then a plain VACUUM (space reusable, empty tails cut off, no lock that stops
// writes). Measuring, and compact's VACUUM FULL.
#include <limits>

#include "pg_store.hpp"
#include "sql_prune.hpp"

namespace bc::store {
namespace {

constexpr const char* kTables =
    "meta, rooms, seats, games, actions, players, sessions, ratings, rated_games, bots, tokens";

}  // namespace

// The statements of the shared prune (sql_prune.hpp) on PostgreSQL's connections: lookups on a
// pooled one, deletions on the writer's.
class PgPruneRows final : public detail::PruneRows {
 public:
  explicit PgPruneRows(PgStore& store) : PruneRows(store.writer_), s_(store) {}
  bool stopping() const override { return s_.stopping(); }
  bool due_games(const std::int64_t (&cutoffs)[3], int limit, const detail::DueGame& after,
                 std::vector<detail::DueGame>& out) override {
    return s_.read(
        [&](pg::Conn& c) {
          pg::Connection sql(c);
          return sql::due_games(sql, cutoffs, limit, after, out);
        },
        PgStore::Span::Single);
  }
  bool empty_rooms(int limit, const detail::EmptyRoom& after,
                   std::vector<detail::EmptyRoom>& out) override {
    return s_.read(
        [&](pg::Conn& c) {
          pg::Connection sql(c);
          return sql::empty_rooms(sql, limit, after, out);
        },
        PgStore::Span::Single);
  }
  bool transaction(const std::function<bool()>& body) override {
    std::lock_guard lock(s_.db_mutex_);
    if (s_.db_.ensure() && s_.db_.run("BEGIN") && body() && s_.db_.run("COMMIT")) return true;
    if (!s_.db_.broken()) s_.db_.run("ROLLBACK");
    return false;
  }
  // On the writer's connection, inside transaction().
  bool delete_game(const detail::DueGame& g, Pruned& deleted) override {
    pg::Connection sql(s_.db_);
    return sql::delete_game(sql, g, deleted);
  }
  bool delete_room(const std::string& id, Pruned& deleted) override {
    pg::Connection sql(s_.db_);
    return sql::delete_room(sql, id, deleted);
  }

 private:
  PgStore& s_;
};

Pruned PgStore::prune(const Retention& keep, std::int64_t now_ms,
                      const std::function<void(const Pruned&)>& deleted) {
  PgPruneRows rows(*this);
  const Pruned out = detail::prune_rows(rows, keep, now_ms, deleted);
  const bool any = out.rooms + out.games + out.actions > 0;
  // The dead rows' space becomes reusable, and empty pages at the tables' ends go back to the
  // file system. Not on the writer's connection: a VACUUM of large tables takes a while, and it
  // takes no lock that holds up the writer's inserts.
  if (any && !stopping()) {
    if (Pooled c = acquire()) c->run((std::string("VACUUM (ANALYZE) ") + kTables).c_str());
  }
  writer_.update_stats([](Stats& st) { ++st.prunes; });
  return out;
}

Size PgStore::measure() {
  Size size;
  read(
      [&](pg::Conn& c) {
        pg::Result r = c.exec(
            "SELECT (SELECT count(*) FROM rooms), (SELECT count(*) FROM games), "
            "(SELECT count(*) FROM actions), pg_total_relation_size('meta') + "
            "pg_total_relation_size('rooms') + pg_total_relation_size('seats') + "
            "pg_total_relation_size('games') + pg_total_relation_size('actions') + "
            "pg_total_relation_size('players') + pg_total_relation_size('sessions') + "
            "pg_total_relation_size('ratings') + pg_total_relation_size('rated_games') + "
            "pg_total_relation_size('bots') + pg_total_relation_size('tokens')");
        if (!r.ok() || r.rows() != 1) return false;
        size.rooms = static_cast<std::uint64_t>(r.int64(0, 0));
        size.games = static_cast<std::uint64_t>(r.int64(0, 1));
        size.actions = static_cast<std::uint64_t>(r.int64(0, 2));
        size.page_bytes = static_cast<std::uint64_t>(r.int64(0, 3));
        return true;
      },
      Span::Single);
  last_size_bytes_ = size.page_bytes;
  writer_.update_stats([&](Stats& st) { st.size = size; });
  return size;
}

bool PgStore::compact(std::string& error) {
  flush();
  {
    // VACUUM FULL rewrites each table into new files, holding a lock that stops every write to
    // it meanwhile: on the writer's connection, so this store's own writes wait their turn.
    std::lock_guard lock(db_mutex_);
    if (!db_.ensure(&error)) return false;
    if (!db_.run((std::string("VACUUM FULL ") + kTables).c_str(), &error)) return false;
  }
  measure();
  return true;
}

std::pair<std::uint64_t, std::uint64_t> PgStore::file_bytes() const {
  return {last_size_bytes_.load(), 0};
}

}  // namespace bc::store

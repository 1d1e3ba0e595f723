// PostgreSQL store: retention by the shared prune (sql_prune.hpp) in PostgreSQL's dialect: due
// games found on a pooled connection, deleted on the writer's in transactions of a few, so commits
// go on in between; then a plain VACUUM (space reusable, empty tails cut off, no lock that stops
// writes). Measuring, and compact's VACUUM FULL.
#include <limits>

#include "pg_store.hpp"
#include "sql_prune.hpp"

namespace bc::store {
namespace {

// As sqlite_retention.cpp's kDoomedGames (GREATEST for SQLite's scalar max).
constexpr const char* kDoomedGames = R"sql(
SELECT r.created_ms, g.room, g.game_no FROM rooms r JOIN games g ON g.room = r.id
WHERE r.retired = 1 AND (r.created_ms, r.id, g.game_no) > ($5::bigint, $6::text, $7::integer)
AND CASE
  WHEN NOT EXISTS (SELECT 1 FROM actions a WHERE a.room = g.room AND a.game_no = g.game_no)
    THEN GREATEST(r.created_ms, g.started_ms, g.ended_ms) < $1::bigint
  WHEN g.result = ''
    THEN (SELECT max(a.at_ms) FROM actions a WHERE a.room = g.room AND a.game_no = g.game_no)
         < $2::bigint
  ELSE g.ended_ms < $3::bigint END
ORDER BY r.created_ms, r.id, g.game_no
LIMIT $4)sql";

constexpr const char* kEmptyRooms =
    "SELECT created_ms, id FROM rooms r WHERE retired = 1 AND (created_ms, id) > ($2::bigint, "
    "$3::text) AND NOT EXISTS (SELECT 1 FROM games g WHERE g.room = r.id) ORDER BY created_ms, id "
    "LIMIT $1";

// Each delete checks again that its room is retired: a room is never deleted while in play.
constexpr const char* kDeleteActions =
    "DELETE FROM actions WHERE room = $1 AND game_no = $2 AND "
    "EXISTS (SELECT 1 FROM rooms WHERE id = $1 AND retired = 1)";
constexpr const char* kDeleteGame =
    "DELETE FROM games WHERE room = $1 AND game_no = $2 AND "
    "EXISTS (SELECT 1 FROM rooms WHERE id = $1 AND retired = 1)";
constexpr const char* kLowerGameNo =
    "UPDATE rooms SET game_no = (SELECT max(game_no) FROM games WHERE room = $1) "
    "WHERE id = $1 AND retired = 1 AND EXISTS (SELECT 1 FROM games WHERE room = $1)";
constexpr const char* kDeleteSeats =
    "DELETE FROM seats WHERE room = $1 AND "
    "EXISTS (SELECT 1 FROM rooms WHERE id = $1 AND retired = 1 AND "
    "NOT EXISTS (SELECT 1 FROM games WHERE room = $1))";
constexpr const char* kDeleteRoom =
    "DELETE FROM rooms WHERE id = $1 AND retired = 1 AND "
    "NOT EXISTS (SELECT 1 FROM games WHERE room = $1)";

constexpr const char* kTables = "meta, rooms, seats, games, actions";

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
          out.clear();
          pg::Params p;
          p.add(cutoffs[0])
              .add(cutoffs[1])
              .add(cutoffs[2])
              .add(limit)
              .add(after.created_ms)
              .add(after.room)
              .add(after.game_no);
          pg::Result r = c.exec(kDoomedGames, p);
          for (int i = 0; i < r.rows(); ++i)
            out.push_back({r.int64(i, 0), r.text(i, 1), r.int32(i, 2)});
          return r.ok();
        },
        PgStore::Span::Single);
  }
  bool empty_rooms(int limit, const detail::EmptyRoom& after,
                   std::vector<detail::EmptyRoom>& out) override {
    return s_.read(
        [&](pg::Conn& c) {
          out.clear();
          pg::Params p;
          p.add(limit).add(after.created_ms).add(after.id);
          pg::Result r = c.exec(kEmptyRooms, p);
          for (int i = 0; i < r.rows(); ++i) out.push_back({r.int64(i, 0), r.text(i, 1)});
          return r.ok();
        },
        PgStore::Span::Single);
  }
  bool transaction(const std::function<bool()>& body) override {
    std::lock_guard lock(s_.db_mutex_);
    if (s_.db_.ensure() && s_.db_.run("BEGIN") && body() && s_.db_.run("COMMIT")) return true;
    if (!s_.db_.broken()) s_.db_.run("ROLLBACK");
    return false;
  }
  bool delete_game(const detail::DueGame& g, Pruned& deleted) override {
    pg::Params p;
    p.add(g.room).add(g.game_no);
    pg::Params room;
    room.add(g.room);
    return run(kDeleteActions, p, &deleted.actions) && run(kDeleteGame, p, &deleted.games) &&
           run(kLowerGameNo, room, nullptr);
  }
  bool delete_room(const std::string& id, Pruned& deleted) override {
    pg::Params p;
    p.add(id);
    return run(kDeleteSeats, p, nullptr) && run(kDeleteRoom, p, &deleted.rooms);
  }

 private:
  // One statement on the writer's connection; its rows counted into `n`.
  bool run(const char* sql, pg::Params& p, std::uint64_t* n) {
    pg::Result r = s_.db_.exec(sql, p);
    if (n != nullptr) *n += r.changed();
    return r.ok();
  }
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
            "pg_total_relation_size('games') + pg_total_relation_size('actions')");
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

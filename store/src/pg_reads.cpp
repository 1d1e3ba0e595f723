// PostgreSQL store: reads. Each runs on a pooled connection of its own, never the writer's, in one
// read-only REPEATABLE READ transaction when it takes several queries (one snapshot, as SQLite's
// read transaction); a pooled connection that a restart broke is replaced and the read tried once
// more.
#include "pg_store.hpp"

namespace bc::store {
PgStore::Pooled PgStore::acquire() {
  std::unique_ptr<pg::Conn> conn;
  {
    std::lock_guard lock(pool_mutex_);
    if (!idle_.empty()) {
      conn = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  if (!conn) conn = std::make_unique<pg::Conn>(url_);
  if (!conn->ensure()) conn.reset();
  return Pooled(*this, std::move(conn));
}

void PgStore::release(std::unique_ptr<pg::Conn> conn) {
  if (!conn || conn->broken()) return;
  std::lock_guard lock(pool_mutex_);
  if (idle_.size() < kIdleReadersMax) idle_.push_back(std::move(conn));
}

bool PgStore::read(const std::function<bool(pg::Conn&)>& body, Span span) {
  const bool several = span == Span::Several;
  for (int attempt = 0; attempt < 2; ++attempt) {
    Pooled c = acquire();
    if (!c) return false;
    if ((!several || c->run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")) && body(*c) &&
        (!several || c->run("COMMIT")))
      return true;
    if (!c->broken()) {
      if (several) c->run("ROLLBACK");
      return false;  // the read itself failed, not the connection: once is enough
    }
  }
  return false;
}

// The reads: the store's SQL (sql_core.hpp) on a pooled connection.

std::vector<LoadedRoom> PgStore::load_active_rooms() {
  std::vector<LoadedRoom> out;
  read([&](pg::Conn& c) {
    pg::Connection sql(c);
    return sql::load_active_rooms(sql, out);
  });
  return out;
}

std::optional<LoadedRoom> PgStore::load_room(const std::string& id, int game_no) {
  std::optional<LoadedRoom> out;
  read([&](pg::Conn& c) {
    pg::Connection sql(c);
    return sql::load_room(sql, id, game_no, out);
  });
  return out;
}

bool PgStore::has_room(const std::string& id) {
  bool found = false;
  read(
      [&](pg::Conn& c) {
        pg::Connection sql(c);
        return sql::has_room(sql, id, found);
      },
      Span::Single);
  return found;
}

std::vector<ActionRow> PgStore::actions(const std::string& room, int game_no) {
  std::vector<ActionRow> out;
  read(
      [&](pg::Conn& c) {
        pg::Connection sql(c);
        return sql::actions(sql, room, game_no, out);
      },
      Span::Single);
  return out;
}

std::vector<RoomRow> PgStore::recent_rooms(int limit) {
  std::vector<RoomRow> out;
  read(
      [&](pg::Conn& c) {
        pg::Connection sql(c);
        return sql::recent_rooms(sql, limit, out);
      },
      Span::Single);
  return out;
}

// The players' reads: one statement each.

std::optional<PlayerRow> PgStore::player(const std::string& id) {
  std::optional<PlayerRow> out;
  read(
      [&](pg::Conn& c) {
        pg::Connection sql(c);
        return sql::player(sql, id, out);
      },
      Span::Single);
  return out;
}

std::optional<PlayerRow> PgStore::player_named(const std::string& name_key) {
  std::optional<PlayerRow> out;
  read(
      [&](pg::Conn& c) {
        pg::Connection sql(c);
        return sql::player_named(sql, name_key, out);
      },
      Span::Single);
  return out;
}

std::optional<SessionRow> PgStore::session(const std::string& hash) {
  std::optional<SessionRow> out;
  read(
      [&](pg::Conn& c) {
        pg::Connection sql(c);
        return sql::session(sql, hash, out);
      },
      Span::Single);
  return out;
}

std::vector<SessionRow> PgStore::sessions(const std::string& player) {
  std::vector<SessionRow> out;
  read(
      [&](pg::Conn& c) {
        pg::Connection sql(c);
        return sql::sessions(sql, player, out);
      },
      Span::Single);
  return out;
}

std::vector<RatingRow> PgStore::ratings(const std::string& player) {
  std::vector<RatingRow> out;
  read(
      [&](pg::Conn& c) {
        pg::Connection sql(c);
        return sql::ratings(sql, player, out);
      },
      Span::Single);
  return out;
}

std::optional<TokenRow> PgStore::token(const std::string& hash) {
  std::optional<TokenRow> out;
  read(
      [&](pg::Conn& c) {
        pg::Connection sql(c);
        return sql::token(sql, hash, out);
      },
      Span::Single);
  return out;
}

std::vector<TokenRow> PgStore::tokens(const std::string& player) {
  std::vector<TokenRow> out;
  read(
      [&](pg::Conn& c) {
        pg::Connection sql(c);
        return sql::tokens(sql, player, out);
      },
      Span::Single);
  return out;
}

std::vector<RankedRow> PgStore::leaderboard(const std::string& perf, double max_deviation,
                                            int limit) {
  std::vector<RankedRow> out;
  read(
      [&](pg::Conn& c) {
        pg::Connection sql(c);
        return sql::leaderboard(sql, perf, max_deviation, limit, out);
      },
      Span::Single);
  return out;
}

std::vector<RatedGameRow> PgStore::rated_games(const std::string& player, const std::string& perf,
                                               int limit) {
  std::vector<RatedGameRow> out;
  read(
      [&](pg::Conn& c) {
        pg::Connection sql(c);
        return sql::rated_games(sql, player, perf, limit, out);
      },
      Span::Single);
  return out;
}

}  // namespace bc::store

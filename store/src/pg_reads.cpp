// PostgreSQL store: reads. Each runs on a pooled connection of its own, never the writer's, in one
// read-only REPEATABLE READ transaction when it takes several queries (one snapshot, as SQLite's
// read transaction); a pooled connection that a restart broke is replaced and the read tried once
// more.
#include <unordered_map>

#include "pg_store.hpp"

namespace bc::store {
namespace {

constexpr const char* kRoomColumns = "SELECT id, setup, created_ms, game_no, retired FROM rooms ";

RoomRow room_of(const pg::Result& r, int i) {
  return {r.text(i, 0), r.text(i, 1), r.int64(i, 2), r.int32(i, 3), r.int32(i, 4) != 0};
}
SeatRow seat_of(const pg::Result& r, int i) {
  return {r.text(i, 0), r.int32(i, 1), r.text(i, 2), r.text(i, 3)};
}
GameRow game_of(const pg::Result& r, int i) {
  return {r.text(i, 0), r.int32(i, 1), r.text(i, 2), r.int64(i, 3), r.int64(i, 4), r.text(i, 5)};
}
ActionRow action_of(const pg::Result& r, int i) {
  ActionRow row{
      r.text(i, 0), r.int32(i, 1), r.int64(i, 2), r.int32(i, 3), r.text(i, 4), r.int64(i, 5), {}};
  if (!r.null(i, 6) && !r.null(i, 7))
    row.left_ms = std::array<std::int64_t, 2>{r.int64(i, 6), r.int64(i, 7)};
  return row;
}

// The rows of one room: its seats, its games and the actions of game `game_no`.
bool load_into(pg::Conn& c, LoadedRoom& out, int game_no) {
  pg::Params p;
  p.add(out.room.id);
  pg::Result seats =
      c.exec("SELECT room, side, name, token_hash FROM seats WHERE room=$1 ORDER BY side", p);
  pg::Result games = c.exec(
      "SELECT room, game_no, result, started_ms, ended_ms, players FROM games WHERE room=$1 "
      "ORDER BY game_no",
      p);
  p.add(game_no == 0 ? out.room.game_no : game_no);
  pg::Result actions = c.exec(
      "SELECT room, game_no, version, side, action, at_ms, left0_ms, left1_ms FROM actions "
      "WHERE room=$1 AND game_no=$2 ORDER BY version",
      p);
  if (!seats.ok() || !games.ok() || !actions.ok()) return false;
  for (int i = 0; i < seats.rows(); ++i) out.seats.push_back(seat_of(seats, i));
  for (int i = 0; i < games.rows(); ++i) out.games.push_back(game_of(games, i));
  for (int i = 0; i < actions.rows(); ++i) out.actions.push_back(action_of(actions, i));
  return true;
}

}  // namespace

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

std::vector<LoadedRoom> PgStore::load_active_rooms() {
  // Four queries for every active room together, not three per room: a restart with thousands
  // of rooms would otherwise wait for thousands of round trips.
  std::vector<LoadedRoom> out;
  read([&](pg::Conn& c) {
    out.clear();
    pg::Result rooms = c.exec(
        "SELECT id, setup, created_ms, game_no, retired FROM rooms WHERE retired=0 "
        "ORDER BY created_ms");
    pg::Result seats = c.exec(
        "SELECT s.room, s.side, s.name, s.token_hash FROM seats s JOIN rooms r ON r.id=s.room "
        "WHERE r.retired=0 ORDER BY s.room, s.side");
    pg::Result games = c.exec(
        "SELECT g.room, g.game_no, g.result, g.started_ms, g.ended_ms, g.players FROM games g "
        "JOIN rooms r ON r.id=g.room WHERE r.retired=0 ORDER BY g.room, g.game_no");
    pg::Result actions = c.exec(
        "SELECT a.room, a.game_no, a.version, a.side, a.action, a.at_ms, a.left0_ms, a.left1_ms "
        "FROM actions a JOIN rooms r ON r.id=a.room AND a.game_no=r.game_no WHERE r.retired=0 "
        "ORDER BY a.room, a.version");
    if (!rooms.ok() || !seats.ok() || !games.ok() || !actions.ok()) return false;
    std::unordered_map<std::string, std::size_t> at;
    out.reserve(static_cast<std::size_t>(rooms.rows()));
    for (int i = 0; i < rooms.rows(); ++i) {
      LoadedRoom room;
      room.room = room_of(rooms, i);
      at.emplace(room.room.id, out.size());
      out.push_back(std::move(room));
    }
    for (int i = 0; i < seats.rows(); ++i)
      out[at.at(seats.text(i, 0))].seats.push_back(seat_of(seats, i));
    for (int i = 0; i < games.rows(); ++i)
      out[at.at(games.text(i, 0))].games.push_back(game_of(games, i));
    for (int i = 0; i < actions.rows(); ++i)
      out[at.at(actions.text(i, 0))].actions.push_back(action_of(actions, i));
    return true;
  });
  return out;
}

std::optional<LoadedRoom> PgStore::load_room(const std::string& id, int game_no) {
  std::optional<LoadedRoom> out;
  read([&](pg::Conn& c) {
    out.reset();
    pg::Params p;
    p.add(id);
    pg::Result r = c.exec((std::string(kRoomColumns) + "WHERE id=$1").c_str(), p);
    if (!r.ok()) return false;
    if (r.rows() == 0) return true;
    LoadedRoom room;
    room.room = room_of(r, 0);
    if (!load_into(c, room, game_no)) return false;
    out = std::move(room);
    return true;
  });
  return out;
}

bool PgStore::has_room(const std::string& id) {
  bool found = false;
  read(
      [&](pg::Conn& c) {
        pg::Params p;
        p.add(id);
        pg::Result r = c.exec("SELECT 1 FROM rooms WHERE id=$1", p);
        found = r.ok() && r.rows() > 0;
        return r.ok();
      },
      Span::Single);
  return found;
}

std::vector<ActionRow> PgStore::actions(const std::string& room, int game_no) {
  std::vector<ActionRow> out;
  read(
      [&](pg::Conn& c) {
        out.clear();
        pg::Params p;
        p.add(room).add(game_no);
        pg::Result r = c.exec(
            "SELECT room, game_no, version, side, action, at_ms, left0_ms, left1_ms FROM actions "
            "WHERE room=$1 AND game_no=$2 ORDER BY version",
            p);
        for (int i = 0; i < r.rows(); ++i) out.push_back(action_of(r, i));
        return r.ok();
      },
      Span::Single);
  return out;
}

std::vector<RoomRow> PgStore::recent_rooms(int limit) {
  std::vector<RoomRow> out;
  read(
      [&](pg::Conn& c) {
        out.clear();
        pg::Params p;
        p.add(limit);
        pg::Result r =
            c.exec((std::string(kRoomColumns) + "ORDER BY created_ms DESC LIMIT $1").c_str(), p);
        for (int i = 0; i < r.rows(); ++i) out.push_back(room_of(r, i));
        return r.ok();
      },
      Span::Single);
  return out;
}

}  // namespace bc::store

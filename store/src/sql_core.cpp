// The store's one SQL (sql_core.hpp): the schema, the statements, and rows read back.
#include "sql_core.hpp"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace bc::store::sql {

const char* const kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms(
  id TEXT PRIMARY KEY,
  setup TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  game_no INTEGER NOT NULL DEFAULT 1,
  retired SMALLINT NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS seats(
  room TEXT NOT NULL,
  side INTEGER NOT NULL,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL,
  PRIMARY KEY(room, side));
CREATE TABLE IF NOT EXISTS games(
  room TEXT NOT NULL,
  game_no INTEGER NOT NULL,
  result TEXT NOT NULL DEFAULT '',
  started_ms BIGINT NOT NULL,
  ended_ms BIGINT NOT NULL DEFAULT 0,
  players TEXT NOT NULL DEFAULT '',
  PRIMARY KEY(room, game_no));
CREATE TABLE IF NOT EXISTS actions(
  room TEXT NOT NULL,
  game_no INTEGER NOT NULL,
  version BIGINT NOT NULL,
  side INTEGER NOT NULL,
  action TEXT NOT NULL,
  at_ms BIGINT NOT NULL,
  left0_ms BIGINT,
  left1_ms BIGINT,
  PRIMARY KEY(room, game_no, version));
CREATE INDEX IF NOT EXISTS rooms_active ON rooms(retired, created_ms);
CREATE TABLE IF NOT EXISTS players(
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL DEFAULT '',
  name_key TEXT NOT NULL DEFAULT '',
  password_hash TEXT NOT NULL DEFAULT '',
  created_ms BIGINT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS players_name ON players(name_key) WHERE name_key <> '';
CREATE TABLE IF NOT EXISTS sessions(
  hash TEXT PRIMARY KEY,
  player TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  seen_ms BIGINT NOT NULL,
  label TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS sessions_player ON sessions(player);
CREATE TABLE IF NOT EXISTS ratings(
  player TEXT NOT NULL,
  perf TEXT NOT NULL,
  rating DOUBLE PRECISION NOT NULL,
  deviation DOUBLE PRECISION NOT NULL,
  volatility DOUBLE PRECISION NOT NULL,
  updated_ms BIGINT NOT NULL,
  wins INTEGER NOT NULL DEFAULT 0,
  draws INTEGER NOT NULL DEFAULT 0,
  losses INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY(player, perf));
CREATE INDEX IF NOT EXISTS ratings_board ON ratings(perf, rating);
CREATE TABLE IF NOT EXISTS rated_games(
  player TEXT NOT NULL,
  room TEXT NOT NULL,
  game_no INTEGER NOT NULL,
  perf TEXT NOT NULL,
  ended_ms BIGINT NOT NULL,
  side INTEGER NOT NULL,
  opponent TEXT NOT NULL,
  score INTEGER NOT NULL,
  before DOUBLE PRECISION NOT NULL,
  after DOUBLE PRECISION NOT NULL,
  deviation_after DOUBLE PRECISION NOT NULL,
  PRIMARY KEY(player, room, game_no));
CREATE INDEX IF NOT EXISTS rated_games_player ON rated_games(player, ended_ms);
CREATE INDEX IF NOT EXISTS rated_games_game ON rated_games(room, game_no);
CREATE TABLE IF NOT EXISTS bots(
  player TEXT PRIMARY KEY,
  created_ms BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS tokens(
  hash TEXT PRIMARY KEY,
  id TEXT NOT NULL,
  player TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  created_ms BIGINT NOT NULL,
  seen_ms BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS tokens_player ON tokens(player);
)sql";

namespace {

struct Statement {
  Q q;
  const char* name;
  const char* text;
};

#define BC_ROOM_COLUMNS "SELECT id, setup, created_ms, game_no, retired FROM rooms "
#define BC_ACTION_COLUMNS "room, game_no, version, side, action, at_ms, left0_ms, left1_ms"
#define BC_PLAYER_COLUMNS                                                                         \
  "SELECT id, name, name_key, password_hash, created_ms, CASE WHEN EXISTS (SELECT 1 FROM bots b " \
  "WHERE b.player = players.id) THEN 1 ELSE 0 END FROM players "
#define BC_TOKEN_COLUMNS "SELECT hash, id, player, label, created_ms, seen_ms FROM tokens "
#define BC_SESSION_COLUMNS "SELECT hash, player, created_ms, seen_ms, label FROM sessions "
#define BC_RATING_COLUMNS \
  "player, perf, rating, deviation, volatility, updated_ms, wins, draws, losses"
#define BC_RATED_GAME_COLUMNS \
  "player, room, game_no, perf, ended_ms, side, opponent, score, before, after, deviation_after"

// In the order of Q. Each delete of the prune checks again that its room is retired: a room is
// never deleted while in play.
constexpr Statement kStatements[] = {
    {Q::PutRoom, "bc_put_room",
     "INSERT INTO rooms(id, setup, created_ms, game_no, retired) VALUES(?1,?2,?3,?4,?5) "
     "ON CONFLICT(id) DO UPDATE SET setup=excluded.setup, game_no=excluded.game_no, "
     "retired=excluded.retired"},
    {Q::PutSeat, "bc_put_seat",
     "INSERT INTO seats(room, side, name, token_hash) VALUES(?1,?2,?3,?4) "
     "ON CONFLICT(room, side) DO UPDATE SET name=excluded.name, token_hash=excluded.token_hash"},
    {Q::FreeSeat, "bc_free_seat", "DELETE FROM seats WHERE room=?1 AND side=?2"},
    {Q::PutGame, "bc_put_game",
     "INSERT INTO games(room, game_no, result, started_ms, ended_ms, players) "
     "VALUES(?1,?2,?3,?4,?5,?6) ON CONFLICT(room, game_no) DO UPDATE SET result=excluded.result, "
     "started_ms=excluded.started_ms, ended_ms=excluded.ended_ms, players=excluded.players"},
    {Q::RaiseGameNo, "bc_raise_game_no",
     "UPDATE rooms SET game_no=GREATEST(game_no, ?1) WHERE id=?2"},
    {Q::AppendAction, "bc_append_action",
     "INSERT INTO actions(" BC_ACTION_COLUMNS ") VALUES(?1,?2,?3,?4,?5,?6,?7,?8)"},
    {Q::Retire, "bc_retire", "UPDATE rooms SET retired=1 WHERE id=?1"},
    {Q::DropActions, "bc_drop_actions", "DELETE FROM actions WHERE room=?1 AND game_no=?2"},
    {Q::DropGame, "bc_drop_game", "DELETE FROM games WHERE room=?1 AND game_no=?2"},
    // A player's row by id, in two statements that never fail on a name another player holds
    // (a batch carries other rooms' writes): the update leaves such a row as it is, the insert
    // of a new id does nothing on any conflict (of a name claimed in between by another server's
    // writer too). The creation time stays, as a room's does.
    {Q::PutPlayerUpdate, "bc_put_player_update",
     "UPDATE players SET name=?2, name_key=?3, password_hash=?4 WHERE id=?1 AND "
     "(CAST(?3 AS TEXT) = '' OR NOT EXISTS "
     "(SELECT 1 FROM players o WHERE o.name_key=?3 AND o.id<>?1))"},
    {Q::PutPlayerInsert, "bc_put_player_insert",
     "INSERT INTO players(id, name, name_key, password_hash, created_ms) VALUES(?1,?2,?3,?4,?5) "
     "ON CONFLICT DO NOTHING"},
    {Q::PutSession, "bc_put_session",
     "INSERT INTO sessions(hash, player, created_ms, seen_ms, label) VALUES(?1,?2,?3,?4,?5) "
     "ON CONFLICT(hash) DO UPDATE SET player=excluded.player, created_ms=excluded.created_ms, "
     "seen_ms=excluded.seen_ms, label=excluded.label"},
    {Q::DropSession, "bc_drop_session", "DELETE FROM sessions WHERE hash=?1"},
    {Q::DropSessions, "bc_drop_sessions",
     "DELETE FROM sessions WHERE player=?1 AND (CAST(?2 AS TEXT) = '' OR hash<>?2)"},
    {Q::PutRating, "bc_put_rating",
     "INSERT INTO ratings(" BC_RATING_COLUMNS ") VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9) "
     "ON CONFLICT(player, perf) DO UPDATE SET rating=excluded.rating, "
     "deviation=excluded.deviation, volatility=excluded.volatility, "
     "updated_ms=excluded.updated_ms, wins=excluded.wins, draws=excluded.draws, "
     "losses=excluded.losses"},
    {Q::PutRatedGame, "bc_put_rated_game",
     "INSERT INTO rated_games(" BC_RATED_GAME_COLUMNS ") "
     "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11) "
     "ON CONFLICT(player, room, game_no) DO UPDATE SET perf=excluded.perf, "
     "ended_ms=excluded.ended_ms, side=excluded.side, opponent=excluded.opponent, "
     "score=excluded.score, before=excluded.before, after=excluded.after, "
     "deviation_after=excluded.deviation_after"},
    {Q::PutBot, "bc_put_bot",
     "INSERT INTO bots(player, created_ms) VALUES(?1,?2) ON CONFLICT DO NOTHING"},
    {Q::PutToken, "bc_put_token",
     "INSERT INTO tokens(hash, id, player, label, created_ms, seen_ms) VALUES(?1,?2,?3,?4,?5,?6) "
     "ON CONFLICT(hash) DO UPDATE SET label=excluded.label, seen_ms=excluded.seen_ms"},
    {Q::DropToken, "bc_drop_token", "DELETE FROM tokens WHERE player=?1 AND id=?2"},

    {Q::ActiveRooms, "bc_active_rooms", BC_ROOM_COLUMNS "WHERE retired=0 ORDER BY created_ms"},
    {Q::ActiveSeats, "bc_active_seats",
     "SELECT s.room, s.side, s.name, s.token_hash FROM seats s JOIN rooms r ON r.id=s.room "
     "WHERE r.retired=0 ORDER BY s.room, s.side"},
    {Q::ActiveGames, "bc_active_games",
     "SELECT g.room, g.game_no, g.result, g.started_ms, g.ended_ms, g.players FROM games g "
     "JOIN rooms r ON r.id=g.room WHERE r.retired=0 ORDER BY g.room, g.game_no"},
    {Q::ActiveActions, "bc_active_actions",
     "SELECT a.room, a.game_no, a.version, a.side, a.action, a.at_ms, a.left0_ms, a.left1_ms "
     "FROM actions a JOIN rooms r ON r.id=a.room AND a.game_no=r.game_no WHERE r.retired=0 "
     "ORDER BY a.room, a.version"},
    {Q::Room, "bc_room", BC_ROOM_COLUMNS "WHERE id=?1"},
    {Q::Seats, "bc_seats",
     "SELECT room, side, name, token_hash FROM seats WHERE room=?1 ORDER BY side"},
    {Q::Games, "bc_games",
     "SELECT room, game_no, result, started_ms, ended_ms, players FROM games WHERE room=?1 "
     "ORDER BY game_no"},
    {Q::Actions, "bc_actions",
     "SELECT " BC_ACTION_COLUMNS " FROM actions WHERE room=?1 AND game_no=?2 ORDER BY version"},
    {Q::HasRoom, "bc_has_room", "SELECT 1 FROM rooms WHERE id=?1"},
    {Q::RecentRooms, "bc_recent_rooms", BC_ROOM_COLUMNS "ORDER BY created_ms DESC LIMIT ?1"},
    // The players' reads. Texts are ordered by their bytes (COLLATE BINARY, PostgreSQL's "C"),
    // whatever the database's collation: the same order as SQLite's and the memory store's.
    {Q::Player, "bc_player", BC_PLAYER_COLUMNS "WHERE id=?1"},
    {Q::PlayerNamed, "bc_player_named", BC_PLAYER_COLUMNS "WHERE name_key=?1 AND name_key <> ''"},
    {Q::Session, "bc_session", BC_SESSION_COLUMNS "WHERE hash=?1"},
    {Q::Sessions, "bc_sessions",
     BC_SESSION_COLUMNS "WHERE player=?1 ORDER BY seen_ms DESC, hash COLLATE BINARY"},
    {Q::Ratings, "bc_ratings",
     "SELECT " BC_RATING_COLUMNS " FROM ratings WHERE player=?1 ORDER BY perf COLLATE BINARY"},
    {Q::Token, "bc_token", BC_TOKEN_COLUMNS "WHERE hash=?1"},
    {Q::Tokens, "bc_tokens",
     BC_TOKEN_COLUMNS "WHERE player=?1 ORDER BY created_ms DESC, hash COLLATE BINARY"},
    {Q::Leaderboard, "bc_leaderboard",
     "SELECT r.player, r.perf, r.rating, r.deviation, r.volatility, r.updated_ms, r.wins, "
     "r.draws, r.losses, p.name, CASE WHEN EXISTS (SELECT 1 FROM bots b WHERE b.player = p.id) "
     "THEN 1 ELSE 0 END FROM ratings r JOIN players p ON p.id = r.player "
     "WHERE r.perf = ?1 AND r.deviation < ?2 AND p.name <> '' "
     "ORDER BY r.rating DESC, p.name_key COLLATE BINARY, r.player COLLATE BINARY LIMIT ?3"},
    {Q::RatedGames, "bc_rated_games",
     "SELECT " BC_RATED_GAME_COLUMNS " FROM rated_games WHERE player=?1 AND "
     "(CAST(?2 AS TEXT) = '' OR perf=?2) "
     "ORDER BY ended_ms DESC, room COLLATE BINARY DESC, game_no DESC LIMIT ?3"},

    // Games of retired rooms that the policy no longer keeps. A game nobody moved in counts from
    // its room's last sign of life; an unfinished one from its last move; a finished one from its
    // end. In (created_ms, room, game) order after a cursor (?5, ?6, ?7); typed for PostgreSQL,
    // which cannot infer a parameter's type in a row comparison.
    {Q::DueGames, "bc_due_games", R"sql(
SELECT r.created_ms, g.room, g.game_no FROM rooms r JOIN games g ON g.room = r.id
WHERE r.retired = 1
AND (r.created_ms, r.id, g.game_no) > (CAST(?5 AS BIGINT), CAST(?6 AS TEXT), CAST(?7 AS INTEGER))
AND CASE
  WHEN NOT EXISTS (SELECT 1 FROM actions a WHERE a.room = g.room AND a.game_no = g.game_no)
    THEN GREATEST(r.created_ms, g.started_ms, g.ended_ms) < CAST(?1 AS BIGINT)
  WHEN g.result = ''
    THEN (SELECT max(a.at_ms) FROM actions a WHERE a.room = g.room AND a.game_no = g.game_no)
         < CAST(?2 AS BIGINT)
  ELSE g.ended_ms < CAST(?3 AS BIGINT) END
ORDER BY r.created_ms, r.id, g.game_no
LIMIT ?4)sql"},
    // Retired rooms with no game left, after the cursor (?2, ?3).
    {Q::EmptyRooms, "bc_empty_rooms",
     "SELECT created_ms, id FROM rooms r WHERE retired = 1 AND (created_ms, id) > "
     "(CAST(?2 AS BIGINT), CAST(?3 AS TEXT)) AND NOT EXISTS (SELECT 1 FROM games g WHERE "
     "g.room = r.id) ORDER BY created_ms, id LIMIT ?1"},
    {Q::DeleteActions, "bc_delete_actions",
     "DELETE FROM actions WHERE room = ?1 AND game_no = ?2 AND "
     "EXISTS (SELECT 1 FROM rooms WHERE id = ?1 AND retired = 1)"},
    {Q::DeleteRatedGames, "bc_delete_rated_games",
     "DELETE FROM rated_games WHERE room = ?1 AND game_no = ?2 AND "
     "EXISTS (SELECT 1 FROM rooms WHERE id = ?1 AND retired = 1)"},
    {Q::DeleteGame, "bc_delete_game",
     "DELETE FROM games WHERE room = ?1 AND game_no = ?2 AND "
     "EXISTS (SELECT 1 FROM rooms WHERE id = ?1 AND retired = 1)"},
    // Its room's record then shows the newest game kept.
    {Q::LowerGameNo, "bc_lower_game_no",
     "UPDATE rooms SET game_no = (SELECT max(game_no) FROM games WHERE room = ?1) "
     "WHERE id = ?1 AND retired = 1 AND EXISTS (SELECT 1 FROM games WHERE room = ?1)"},
    {Q::DeleteSeats, "bc_delete_seats",
     "DELETE FROM seats WHERE room = ?1 AND "
     "EXISTS (SELECT 1 FROM rooms WHERE id = ?1 AND retired = 1 AND "
     "NOT EXISTS (SELECT 1 FROM games WHERE room = ?1))"},
    {Q::DeleteRoom, "bc_delete_room",
     "DELETE FROM rooms WHERE id = ?1 AND retired = 1 AND "
     "NOT EXISTS (SELECT 1 FROM games WHERE room = ?1)"},
};
static_assert(std::size(kStatements) == static_cast<std::size_t>(Q::Count));

#undef BC_ROOM_COLUMNS
#undef BC_ACTION_COLUMNS
#undef BC_PLAYER_COLUMNS
#undef BC_SESSION_COLUMNS
#undef BC_TOKEN_COLUMNS
#undef BC_RATING_COLUMNS
#undef BC_RATED_GAME_COLUMNS

// The store's SQL in `d`'s: PostgreSQL numbers its parameters $N and calls byte order "C",
// SQLite's GREATEST is max.
std::string translate(std::string_view sql, Dialect d) {
  std::string out;
  out.reserve(sql.size());
  constexpr std::string_view kGreatest = "GREATEST(";
  constexpr std::string_view kBinary = "COLLATE BINARY";
  for (std::size_t i = 0; i < sql.size(); ++i) {
    if (d == Dialect::Postgres && sql[i] == '?' && i + 1 < sql.size() &&
        std::isdigit(static_cast<unsigned char>(sql[i + 1]))) {
      out += '$';
    } else if (d == Dialect::Postgres && sql.substr(i, kBinary.size()) == kBinary) {
      out += "COLLATE \"C\"";
      i += kBinary.size() - 1;
    } else if (d == Dialect::Sqlite && sql.substr(i, kGreatest.size()) == kGreatest) {
      out += "max(";
      i += kGreatest.size() - 1;
    } else {
      out += sql[i];
    }
  }
  return out;
}

struct Texts {
  std::array<std::string, static_cast<std::size_t>(Q::Count)> by_dialect[2];
  Texts() {
    for (const Statement& s : kStatements) {
      for (Dialect d : {Dialect::Sqlite, Dialect::Postgres}) {
        by_dialect[static_cast<std::size_t>(d)][static_cast<std::size_t>(s.q)] =
            translate(s.text, d);
      }
    }
  }
};

RoomRow room_of(const Row& r) {
  return {r.text(0), r.text(1), r.int64(2), r.int32(3), r.int32(4) != 0};
}
SeatRow seat_of(const Row& r) {
  return {r.text(0), r.int32(1), r.text(2), r.text(3)};
}
GameRow game_of(const Row& r) {
  return {r.text(0), r.int32(1), r.text(2), r.int64(3), r.int64(4), r.text(5)};
}
ActionRow action_of(const Row& r) {
  ActionRow row{r.text(0), r.int32(1), r.int64(2), r.int32(3), r.text(4), r.int64(5), {}};
  if (!r.null(6) && !r.null(7)) row.left_ms = std::array<std::int64_t, 2>{r.int64(6), r.int64(7)};
  return row;
}
PlayerRow player_of(const Row& r) {
  return {r.text(0), r.text(1), r.text(2), r.text(3), r.int64(4), r.int32(5) != 0};
}
TokenRow token_of(const Row& r) {
  return {r.text(0), r.text(1), r.text(2), r.text(3), r.int64(4), r.int64(5)};
}
SessionRow session_of(const Row& r) {
  return {r.text(0), r.text(1), r.int64(2), r.int64(3), r.text(4)};
}
RatingRow rating_of(const Row& r) {
  return {r.text(0),  r.text(1),  r.real(2),  r.real(3), r.real(4),
          r.int64(5), r.int32(6), r.int32(7), r.int32(8)};
}
RatedGameRow rated_game_of(const Row& r) {
  return {r.text(0), r.text(1),  r.int32(2), r.text(3), r.int64(4), r.int32(5),
          r.text(6), r.int32(7), r.real(8),  r.real(9), r.real(10)};
}

}  // namespace

const char* text(Q q, Dialect d) {
  static const Texts texts;  // made once, by the first caller (thread-safe)
  return texts.by_dialect[static_cast<std::size_t>(d)][static_cast<std::size_t>(q)].c_str();
}

const char* name(Q q) {
  return kStatements[static_cast<std::size_t>(q)].name;
}

void statements_of(const Write& w, std::vector<Bound>& out) {
  if (const auto* r = std::get_if<PutRoom>(&w)) {
    out.push_back(Bound{Q::PutRoom}
                      .add(r->row.id)
                      .add(r->row.setup)
                      .add(r->row.created_ms)
                      .add(r->row.game_no)
                      .add(r->row.retired ? 1 : 0));
  } else if (const auto* s = std::get_if<PutSeat>(&w)) {
    out.push_back(Bound{Q::PutSeat}
                      .add(s->row.room)
                      .add(s->row.side)
                      .add(s->row.name)
                      .add(s->row.token_hash));
  } else if (const auto* f = std::get_if<FreeSeat>(&w)) {
    out.push_back(Bound{Q::FreeSeat}.add(f->room).add(f->side));
  } else if (const auto* g = std::get_if<PutGame>(&w)) {
    out.push_back(Bound{Q::PutGame}
                      .add(g->row.room)
                      .add(g->row.game_no)
                      .add(g->row.result)
                      .add(g->row.started_ms)
                      .add(g->row.ended_ms)
                      .add(g->row.players));
    out.push_back(Bound{Q::RaiseGameNo}.add(g->row.game_no).add(g->row.room));
  } else if (const auto* a = std::get_if<AppendAction>(&w)) {
    Bound b{Q::AppendAction};
    b.add(a->row.room).add(a->row.game_no).add(a->row.version).add(a->row.side);
    b.add(a->row.action).add(a->row.at_ms);
    if (a->row.left_ms) {
      b.add((*a->row.left_ms)[0]).add((*a->row.left_ms)[1]);
    } else {
      b.null().null();
    }
    out.push_back(b);
  } else if (const auto* d = std::get_if<DropGame>(&w)) {
    out.push_back(Bound{Q::DropActions}.add(d->room).add(d->game_no));
    out.push_back(Bound{Q::DropGame}.add(d->room).add(d->game_no));
  } else if (const auto* p = std::get_if<PutPlayer>(&w)) {
    out.push_back(Bound{Q::PutPlayerUpdate}
                      .add(p->row.id)
                      .add(p->row.name)
                      .add(p->row.name_key)
                      .add(p->row.password_hash));
    out.push_back(Bound{Q::PutPlayerInsert}
                      .add(p->row.id)
                      .add(p->row.name)
                      .add(p->row.name_key)
                      .add(p->row.password_hash)
                      .add(p->row.created_ms));
    if (p->row.bot) out.push_back(Bound{Q::PutBot}.add(p->row.id).add(p->row.created_ms));
  } else if (const auto* t = std::get_if<PutToken>(&w)) {
    const TokenRow& token = t->row;
    Bound b{Q::PutToken};
    b.add(token.hash).add(token.id).add(token.player).add(token.label).add(token.created_ms);
    out.push_back(b.add(token.seen_ms));
  } else if (const auto* dt = std::get_if<DropToken>(&w)) {
    out.push_back(Bound{Q::DropToken}.add(dt->player).add(dt->id));
  } else if (const auto* se = std::get_if<PutSession>(&w)) {
    out.push_back(Bound{Q::PutSession}
                      .add(se->row.hash)
                      .add(se->row.player)
                      .add(se->row.created_ms)
                      .add(se->row.seen_ms)
                      .add(se->row.label));
  } else if (const auto* ds = std::get_if<DropSession>(&w)) {
    out.push_back(Bound{Q::DropSession}.add(ds->hash));
  } else if (const auto* dss = std::get_if<DropSessions>(&w)) {
    out.push_back(Bound{Q::DropSessions}.add(dss->player).add(dss->keep));
  } else if (const auto* ra = std::get_if<PutRating>(&w)) {
    const RatingRow& rating = ra->row;
    Bound b{Q::PutRating};
    b.add(rating.player).add(rating.perf).add(rating.rating).add(rating.deviation);
    b.add(rating.volatility).add(rating.updated_ms).add(rating.wins).add(rating.draws);
    b.add(rating.losses);
    out.push_back(b);
  } else if (const auto* rg = std::get_if<PutRatedGame>(&w)) {
    const RatedGameRow& rated = rg->row;
    Bound b{Q::PutRatedGame};
    b.add(rated.player).add(rated.room).add(rated.game_no).add(rated.perf);
    b.add(rated.ended_ms).add(rated.side).add(rated.opponent).add(rated.score);
    b.add(rated.before).add(rated.after).add(rated.deviation_after);
    out.push_back(b);
  } else {
    out.push_back(Bound{Q::Retire}.add(std::get<RetireRoom>(w).room));
  }
}

bool load_active_rooms(Connection& c, std::vector<LoadedRoom>& out) {
  // Four queries for every active room together, not three per room: a restart with thousands of
  // rooms would otherwise wait for thousands of round trips (PostgreSQL) or lookups.
  out.clear();
  std::unordered_map<std::string, std::size_t> at;
  auto of = [&](const Row& r) -> LoadedRoom& { return out[at.at(r.text(0))]; };
  return c.query(Bound{Q::ActiveRooms},
                 [&](const Row& r) {
                   LoadedRoom room;
                   room.room = room_of(r);
                   at.emplace(room.room.id, out.size());
                   out.push_back(std::move(room));
                 }) &&
         c.query(Bound{Q::ActiveSeats}, [&](const Row& r) { of(r).seats.push_back(seat_of(r)); }) &&
         c.query(Bound{Q::ActiveGames}, [&](const Row& r) { of(r).games.push_back(game_of(r)); }) &&
         c.query(Bound{Q::ActiveActions},
                 [&](const Row& r) { of(r).actions.push_back(action_of(r)); });
}

bool load_room(Connection& c, const std::string& id, int game_no, std::optional<LoadedRoom>& out) {
  out.reset();
  std::optional<RoomRow> room;
  if (!c.query(Bound{Q::Room}.add(id), [&](const Row& r) { room = room_of(r); })) return false;
  if (!room) return true;
  LoadedRoom loaded;
  const int game = game_no == 0 ? room->game_no : game_no;
  loaded.room = std::move(*room);
  if (!c.query(Bound{Q::Seats}.add(id),
               [&](const Row& r) { loaded.seats.push_back(seat_of(r)); }) ||
      !c.query(Bound{Q::Games}.add(id),
               [&](const Row& r) { loaded.games.push_back(game_of(r)); }) ||
      !actions(c, id, game, loaded.actions)) {
    return false;
  }
  out = std::move(loaded);
  return true;
}

bool has_room(Connection& c, const std::string& id, bool& found) {
  found = false;
  return c.query(Bound{Q::HasRoom}.add(id), [&](const Row&) { found = true; });
}

bool actions(Connection& c, const std::string& room, int game_no, std::vector<ActionRow>& out) {
  out.clear();
  return c.query(Bound{Q::Actions}.add(room).add(game_no),
                 [&](const Row& r) { out.push_back(action_of(r)); });
}

bool recent_rooms(Connection& c, int limit, std::vector<RoomRow>& out) {
  out.clear();
  return c.query(Bound{Q::RecentRooms}.add(limit),
                 [&](const Row& r) { out.push_back(room_of(r)); });
}

bool player(Connection& c, const std::string& id, std::optional<PlayerRow>& out) {
  out.reset();
  return c.query(Bound{Q::Player}.add(id), [&](const Row& r) { out = player_of(r); });
}

bool player_named(Connection& c, const std::string& name_key, std::optional<PlayerRow>& out) {
  out.reset();
  return c.query(Bound{Q::PlayerNamed}.add(name_key), [&](const Row& r) { out = player_of(r); });
}

bool session(Connection& c, const std::string& hash, std::optional<SessionRow>& out) {
  out.reset();
  return c.query(Bound{Q::Session}.add(hash), [&](const Row& r) { out = session_of(r); });
}

bool sessions(Connection& c, const std::string& player, std::vector<SessionRow>& out) {
  out.clear();
  return c.query(Bound{Q::Sessions}.add(player),
                 [&](const Row& r) { out.push_back(session_of(r)); });
}

bool ratings(Connection& c, const std::string& player, std::vector<RatingRow>& out) {
  out.clear();
  return c.query(Bound{Q::Ratings}.add(player), [&](const Row& r) { out.push_back(rating_of(r)); });
}

bool token(Connection& c, const std::string& hash, std::optional<TokenRow>& out) {
  out.reset();
  return c.query(Bound{Q::Token}.add(hash), [&](const Row& r) { out = token_of(r); });
}

bool tokens(Connection& c, const std::string& player, std::vector<TokenRow>& out) {
  out.clear();
  return c.query(Bound{Q::Tokens}.add(player), [&](const Row& r) { out.push_back(token_of(r)); });
}

bool leaderboard(Connection& c, const std::string& perf, double max_deviation, int limit,
                 std::vector<RankedRow>& out) {
  out.clear();
  return c.query(
      Bound{Q::Leaderboard}.add(perf).add(max_deviation).add(std::clamp(limit, 1, kLeaderboardMax)),
      [&](const Row& r) {
        out.push_back({rating_of(r), r.text(9), r.int32(10) != 0});
      });
}

bool rated_games(Connection& c, const std::string& player, const std::string& perf, int limit,
                 std::vector<RatedGameRow>& out) {
  out.clear();
  return c.query(Bound{Q::RatedGames}.add(player).add(perf).add(std::max(limit, 0)),
                 [&](const Row& r) { out.push_back(rated_game_of(r)); });
}

bool due_games(Connection& c, const std::int64_t (&cutoffs)[3], int limit,
               const detail::DueGame& after, std::vector<detail::DueGame>& out) {
  out.clear();
  return c.query(Bound{Q::DueGames}
                     .add(cutoffs[0])
                     .add(cutoffs[1])
                     .add(cutoffs[2])
                     .add(limit)
                     .add(after.created_ms)
                     .add(after.room)
                     .add(after.game_no),
                 [&](const Row& r) {
                   out.push_back({r.int64(0), r.text(1), r.int32(2)});
                 });
}

bool empty_rooms(Connection& c, int limit, const detail::EmptyRoom& after,
                 std::vector<detail::EmptyRoom>& out) {
  out.clear();
  return c.query(Bound{Q::EmptyRooms}.add(limit).add(after.created_ms).add(after.id),
                 [&](const Row& r) {
                   out.push_back({r.int64(0), r.text(1)});
                 });
}

bool delete_game(Connection& c, const detail::DueGame& g, Pruned& deleted) {
  return c.run(Bound{Q::DeleteActions}.add(g.room).add(g.game_no), &deleted.actions) &&
         c.run(Bound{Q::DeleteRatedGames}.add(g.room).add(g.game_no)) &&
         c.run(Bound{Q::DeleteGame}.add(g.room).add(g.game_no), &deleted.games) &&
         c.run(Bound{Q::LowerGameNo}.add(g.room));
}

bool delete_room(Connection& c, const std::string& id, Pruned& deleted) {
  return c.run(Bound{Q::DeleteSeats}.add(id)) &&
         c.run(Bound{Q::DeleteRoom}.add(id), &deleted.rooms);
}

}  // namespace bc::store::sql
